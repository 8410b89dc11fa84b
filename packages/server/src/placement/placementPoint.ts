import type { Placement } from '../records/Placement.js';

/** How far above a floor-level anchor (m) a person's middle is: the point that says which storey they are on. */
export const STANDING_METRES = 1;

/**
 * Where a person is when a placement ties the model to the room, in the delivered frame: a metre
 * above by_plane's footprint anchor, the door's sill (by_scan) or the virtual anchor (each drawn
 * on a floor or a table), and at the image itself (hung at eye height). A metre up keeps the
 * point inside the storey the anchor stands on, not in the slab or terrain just below it.
 *
 * @example
 * ```ts
 * placementPoint(placement); // → [7.65, 1, -5] for AC20's door, its sill at y = 0
 * ```
 */
export function placementPoint(placement: Placement): number[] {
  const up = (p: number[]) => [p[0] ?? 0, (p[1] ?? 0) + STANDING_METRES, p[2] ?? 0];
  switch (placement.method) {
    case 'by_plane':
      return up(placement.anchor.position);
    case 'by_scan':
      return up(placement.frame.position);
    case 'by_virtual_anchor':
      return up(placement.pose.position);
    default:
      return placement.pose.position;
  }
}

/** How far (m) a placement point may lie outside every part and still be said to be at the nearest one. */
export const NEAR_PART_METRES = 3;

/**
 * The part a point lies in: of the parts whose bounds hold it, the smallest; else the nearest
 * within {@link NEAR_PART_METRES}; else `null` (a placement off the model: its anchor far away).
 *
 * @example
 * ```ts
 * partAt(parts.map((p) => p.bounds), placementPoint(placement)); // → 1: the ground floor's door
 * ```
 */
export function partAt(bounds: ReadonlyArray<{ min: number[]; max: number[] }>, point: readonly number[]): number | null {
  let best: number | null = null,
    bestDistance = Number.POSITIVE_INFINITY,
    bestVolume = Number.POSITIVE_INFINITY;
  bounds.forEach((b, i) => {
    let outside = 0,
      volume = 1;
    for (let k = 0; k < 3; k++) {
      const p = point[k] ?? 0,
        lo = b.min[k] ?? 0,
        hi = b.max[k] ?? 0;
      outside = Math.hypot(outside, Math.max(lo - p, 0, p - hi));
      volume *= Math.max(hi - lo, 1e-3);
    }
    if (outside < bestDistance || (outside === bestDistance && volume < bestVolume)) {
      best = i;
      bestDistance = outside;
      bestVolume = volume;
    }
  });
  return bestDistance <= NEAR_PART_METRES ? best : null;
}
