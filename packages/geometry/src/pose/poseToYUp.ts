import { zUpToYUp, zUpToYUpQuat, yUpToZUp, yUpToZUpQuat } from '../axes/upAxis.js';
import type { UpAxis, Vec3, Quat } from '../types/vector.js';
import { createPose, type Pose } from './pose.js';

/**
 * Re-expresses a pose given in `system` in y-up (position and rotation turn together).
 *
 * @example
 * ```ts
 * poseToYUp(createPose([1, 2, 3]), 'z-up').position; // → [1, 3, -2]
 * ```
 */
export function poseToYUp(pose: Pose, system: UpAxis): Pose {
  if (system === 'y-up') return pose;
  return createPose(zUpToYUp([0, 0, 0] as Vec3, pose.position), zUpToYUpQuat([0, 0, 0, 1] as Quat, pose.rotation));
}

/** Re-expresses a y-up pose in `system`; the inverse of {@link poseToYUp}. */
export function poseFromYUp(pose: Pose, system: UpAxis): Pose {
  if (system === 'y-up') return pose;
  return createPose(yUpToZUp([0, 0, 0] as Vec3, pose.position), yUpToZUpQuat([0, 0, 0, 1] as Quat, pose.rotation));
}
