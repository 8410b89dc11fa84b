import { poseAxis, type Pose } from '../pose/pose.js';
import { alignYaw, type YawAlignment } from './alignYaw.js';

/**
 * Yaw + translation that carries a frame measured on the model onto the same frame measured in the
 * world (e.g. a door frame from the IFC and from the scan). Uses the origins as a point pair and
 * the x and z axes as direction pairs, so a frame whose tilt disagrees shows in the diagnostics
 * instead of being silently applied.
 *
 * @example
 * ```ts
 * const model = createPose([0, 0, 0]);
 * const world = createPose([2, 0, 1], [0, Math.SQRT1_2, 0, Math.SQRT1_2]);
 * alignFrames(model, world).pose.position; // → [2, 0, 1]
 * ```
 */
export function alignFrames(model: Pose, world: Pose): YawAlignment {
  return alignYaw({
    points: [{ model: model.position, world: world.position }],
    directions: [0, 1, 2].map((i) => ({
      model: poseAxis([0, 0, 0], model, i as 0 | 1 | 2),
      world: poseAxis([0, 0, 0], world, i as 0 | 1 | 2),
    })),
  });
}
