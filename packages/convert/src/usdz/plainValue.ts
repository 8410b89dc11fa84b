import type { SdfValue } from '@arsession/usd';

/**
 * A USD value as plain data, for what an element's record says of it: numbers, text, truth
 * values, lists and dictionaries as they are; anything else (a list op, a time sample map, a
 * value block) undefined.
 *
 * @example
 * ```ts
 * plainValue(stage.primField(prim, 'customData')); // → { fireRating: 'EI60', level: 2 }
 * ```
 */
export function plainValue(value: SdfValue | undefined): unknown {
  switch (value?.kind) {
    case 'bool':
    case 'number':
    case 'token':
    case 'string':
    case 'asset':
      return value.value;
    case 'tuple':
    case 'stringArray':
      return value.value;
    case 'array':
      return Array.from(value.value);
    case 'dictionary':
      return Object.fromEntries([...value.value].map(([k, v]) => [k, plainValue(v)]));
    default:
      return undefined;
  }
}
