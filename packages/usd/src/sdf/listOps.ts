import type { SdfListOp } from './SdfLayer.js';

/**
 * Applies list ops from the weakest opinion to the strongest, as USD composes list-valued fields
 * (references, targets, connections, apiSchemas): an explicit list replaces what is below it;
 * otherwise deleted items go, prepended items come first, appended (and `add`ed) ones last, each
 * item once. `key` tells items apart.
 *
 * @example
 * ```ts
 * composeListOps([{ ...EMPTY, explicit: ['a'] }, { ...EMPTY, prepended: ['b'] }].reverse()); // → ['b', 'a']
 * ```
 */
export function composeListOps<T>(strongestFirst: ReadonlyArray<SdfListOp<T>>, key: (item: T) => string = String): T[] {
  let list: T[] = [];
  for (let i = strongestFirst.length - 1; i >= 0; i--) list = applyListOp(list, strongestFirst[i]!, key);
  return list;
}

/**
 * One list op applied to the list below it, in USD's order: deleted items go, `add`ed ones are
 * appended where absent, prepended ones move to the front, appended ones to the back.
 */
export function applyListOp<T>(below: readonly T[], op: SdfListOp<T>, key: (item: T) => string = String): T[] {
  if (op.explicit) return unique(op.explicit, key);
  const deleted = new Set(op.deleted.map(key));
  let list = below.filter((item) => !deleted.has(key(item)));
  const present = new Set(list.map(key));
  for (const item of op.added)
    if (!present.has(key(item))) {
      list.push(item);
      present.add(key(item));
    }
  const front = unique(op.prepended, key),
    back = unique(op.appended, key);
  const moved = new Set([...front, ...back].map(key));
  list = list.filter((item) => !moved.has(key(item)));
  const backKeys = new Set(back.map(key));
  return [...front.filter((item) => !backKeys.has(key(item))), ...list, ...back];
}

function unique<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A list op that edits nothing. */
export const EMPTY_LIST_OP: Readonly<SdfListOp<never>> = Object.freeze({
  prepended: [],
  appended: [],
  added: [],
  deleted: [],
  ordered: [],
});
