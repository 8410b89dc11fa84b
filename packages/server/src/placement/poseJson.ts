import { createPose, type Pose, type Vec3 } from '@arsession/geometry';
import type { PoseOnWire } from '../records/Placement.js';

/** A pose as the detail record shows it: position, quaternion [x, y, z, w], column-major 4×4. */
export type PoseJson = PoseOnWire;

/**
 * A pose given in the submitted model's frame (Y-up), stated in the delivered files' frame: the
 * same rotation, moved by −offset (contract.md, model_frame).
 */
export function deliveredPose(pose: Pose, offset: Vec3): PoseJson {
  const p = createPose([pose.position[0] - offset[0], pose.position[1] - offset[1], pose.position[2] - offset[2]], pose.rotation);
  return { position: round(p.position), rotation: round(p.rotation, 1e9), matrix: round(p.matrix, 1e9) };
}

/** A point of the submitted model (Y-up) in the delivered frame. */
export function deliveredPoint(p: readonly number[], offset: Vec3): number[] {
  return round([p[0]! - offset[0], p[1]! - offset[1], p[2]! - offset[2]]);
}

/** Micrometres are plenty for AR and keep the JSON free of float noise; `+ 0` turns −0 into 0. */
export function round(values: ArrayLike<number>, scale = 1e6): number[] {
  return Array.from(values, (v) => Math.round(v * scale) / scale + 0);
}
