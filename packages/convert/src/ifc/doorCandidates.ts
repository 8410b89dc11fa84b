import type { OpeningCandidate } from '@arsession/geometry';
import type { DoorOpeningRecord } from './DoorOpeningRecord.js';

/**
 * Both faces of every door opening of an IFC door index, as candidates for `detectDoor`: the
 * viewer may stand on either side of the wall.
 *
 * @example
 * ```ts
 * const door = detectDoor({ mesh, bvh, candidates: doorCandidates(scene.doorOpenings), viewer, gaze });
 * ```
 */
export function doorCandidates(doors: readonly DoorOpeningRecord[] | undefined): OpeningCandidate[] {
  return (doors ?? []).flatMap((d) =>
    d.faces.map((f) => ({ ...f, source: { id: d.door.globalId, ...(d.door.name && { name: d.door.name }) } })),
  );
}
