import type { Companion } from './drawnTogether.js';

/**
 * The detail meshes of one element that may stand as one: `lead` and the `members` drawn with it,
 * each as often wherever the lead is drawn, and nowhere else. A stand-in of their union, in the
 * lead's frame and drawn at the lead's places, replaces all of them.
 */
export interface ElementGroup {
  lead: number;
  members: number[];
}

/**
 * The element groups among `meshes` (envelope detail still to be given a form): a window type's
 * frame, glass and mullions, each a geometry of its own, stand as one sheet rather than eight. A
 * mesh heads a group when each element drawing it draws it once, and its companions (see
 * `drawnTogether`) are all among `meshes`, not yet in a group, each drawn as often as it is times
 * the draws beside it: then every draw of a member is a draw beside the lead, and the union drawn
 * at the lead's places draws each member where it was. Lower mesh indices lead.
 *
 * @example
 * ```ts
 * elementGroups(drawnTogether(scene, isDetail), uses, detail); // → [{ lead: 12, members: [13, 14] }]
 * ```
 */
export function elementGroups(
  companions: ReadonlyMap<number, readonly Companion[]>,
  uses: ArrayLike<number>,
  meshes: readonly number[],
): ElementGroup[] {
  const open = new Set(meshes);
  const groups: ElementGroup[] = [];
  for (const lead of [...meshes].sort((a, b) => a - b)) {
    if (!open.has(lead)) continue;
    const drawn = (companions.get(lead) ?? []).map((c) => c.mesh);
    // The lead is drawn once by each element; a member may be drawn more often (a window's panes).
    if (drawn.length === 0 || drawn.includes(lead)) continue;
    const times = new Map<number, number>();
    for (const m of drawn) times.set(m, (times.get(m) ?? 0) + 1);
    if (![...times].every(([m, n]) => open.has(m) && uses[m] === uses[lead]! * n)) continue;
    open.delete(lead);
    for (const m of times.keys()) open.delete(m);
    groups.push({ lead, members: [...times.keys()] });
  }
  return groups;
}
