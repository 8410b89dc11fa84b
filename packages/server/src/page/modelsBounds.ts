import type { Bounds } from '@arsession/geometry';

/**
 * The bounds of all of a session's models in the first one's delivered frame, where its placement
 * is stated: each model's bounds shifted by the difference of its offset from the first's.
 *
 * @example
 * ```ts
 * modelsBounds([{ bounds: a.bounds, offset: a.offset }, { bounds: b.bounds, offset: b.offset }]);
 * ```
 */
export function modelsBounds(
  models: ReadonlyArray<{ bounds: { min: readonly number[]; max: readonly number[] }; offset: readonly number[] }>,
): Bounds {
  const first = models[0]!.offset;
  const bounds: Bounds = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
  for (const m of models) {
    for (let k = 0; k < 3; k++) {
      const shift = m.offset[k]! - first[k]!;
      bounds.min[k] = Math.min(bounds.min[k]!, m.bounds.min[k]! + shift);
      bounds.max[k] = Math.max(bounds.max[k]!, m.bounds.max[k]! + shift);
    }
  }
  return bounds;
}
