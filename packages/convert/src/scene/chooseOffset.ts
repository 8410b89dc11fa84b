import type { Vec3 } from '@arsession/geometry';

/**
 * Geometry farther than this from the origin (m) is re-centred before it is packed into float32
 * (whose step is ~3 cm at 5·10⁵ m).
 */
export const RECENTRE_BEYOND = 1000;

/**
 * The offset to remove from a model's geometry (float64, whole metres): zero when the model sits
 * near the origin, else the per-axis median of its elements' centres. The median, not the
 * bounding-box centre, so one stray element (a survey point left at the origin) cannot pull the
 * building hundreds of kilometres away from where it is delivered.
 *
 * @param centres xyz triplets, one per element (or geometry).
 */
export function chooseOffset(centres: Float64Array, beyond = RECENTRE_BEYOND): Vec3 {
  const n = centres.length / 3;
  if (n === 0) return [0, 0, 0];
  const median = [0, 1, 2].map((k) => {
    const axis = new Float64Array(n);
    for (let i = 0; i < n; i++) axis[i] = centres[i * 3 + k]!;
    axis.sort();
    return axis[n >> 1]!;
  }) as Vec3;
  return median.some((v) => Math.abs(v) > beyond) ? (median.map((v) => Math.round(v)) as Vec3) : [0, 0, 0];
}
