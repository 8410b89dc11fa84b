import { DegenerateInputError, type Problem } from '../errors/GeometryValidationError.js';
import { createPose, type Pose } from '../pose/pose.js';
import type { Bounds } from '../types/vector.js';

/**
 * The by_plane anchor of a model: the bottom centre of its bounds (Y-up), not turned. Placing
 * this pose on a detected horizontal plane stands the model on that plane.
 *
 * @example
 * ```ts
 * footprintPose({ min: [-1, 0, -2], max: [3, 2.5, 2] }).position; // → [1, 0, 0]
 * ```
 */
export function footprintPose(bounds: Bounds): Pose {
  const problems: Problem[] = [];
  for (let i = 0; i < 3; i++) {
    const lo = bounds.min[i]!,
      hi = bounds.max[i]!;
    if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
      problems.push({
        field: 'bounds',
        code: 'non_finite',
        message: `bounds axis ${'xyz'[i]} is not finite (${lo}, ${hi}); is the model empty?`,
      });
    } else if (lo > hi) {
      problems.push({ field: 'bounds', code: 'inverted_bounds', message: `bounds axis ${'xyz'[i]} has min ${lo} > max ${hi}` });
    }
  }
  if (problems.length > 0) throw new DegenerateInputError(problems);
  const { min, max } = bounds;
  return createPose([(min[0] + max[0]) / 2, min[1], (min[2] + max[2]) / 2]);
}
