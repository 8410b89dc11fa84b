import { vec3 } from 'gl-matrix';
import type { Problem } from '../errors/GeometryValidationError.js';
import { poseFromAxes, type Pose } from '../pose/pose.js';
import type { ReadonlyVec3, Vec3 } from '../types/vector.js';

/** Options of {@link frameFromNormalAndForward}. */
export interface FrameFromNormalAndForwardOptions {
  /**
   * Smallest angle (degrees) accepted between the forward direction and the normal. Closer than
   * this, the in-plane direction left after removing the normal component is mostly noise.
   */
  minAngleToNormalDeg: number;
}

/** Defaults of {@link frameFromNormalAndForward}. */
export const FRAME_FROM_NORMAL_AND_FORWARD_DEFAULTS: Readonly<FrameFromNormalAndForwardOptions> = {
  minAngleToNormalDeg: 10,
};

/** Result of {@link frameFromNormalAndForward}. */
export interface NormalForwardFrame {
  pose: Pose;
  /** Angle (degrees) between the given forward and the in-plane forward actually used. */
  correctionDeg: number;
}

/**
 * Builds the frame every anchor uses: y = normal, x = forward with its normal component removed,
 * z = x × y (right-handed). `normal` and `forward` must be unit vectors. Returns `undefined` and
 * records a problem under `forwardField` when forward is (nearly) parallel to the normal.
 *
 * @example
 * ```ts
 * const problems = [];
 * const f = frameFromNormalAndForward([0, 0, 0], [0, 1, 0], [1, 0.1, 0], 'virtual_anchor.direction', problems);
 * f?.correctionDeg; // → 5.71… (the direction was lifted 5.7° out of the plane)
 * ```
 */
export function frameFromNormalAndForward(
  origin: ReadonlyVec3,
  normal: ReadonlyVec3,
  forward: ReadonlyVec3,
  forwardField: string,
  problems: Problem[],
  options: Partial<FrameFromNormalAndForwardOptions> = {},
): NormalForwardFrame | undefined {
  const { minAngleToNormalDeg } = { ...FRAME_FROM_NORMAL_AND_FORWARD_DEFAULTS, ...options };
  const along = vec3.dot(forward, normal);
  const x = vec3.scaleAndAdd([0, 0, 0], forward, normal, -along) as Vec3;
  const inPlane = vec3.length(x);
  const angleToNormal = (Math.atan2(inPlane, Math.abs(along)) * 180) / Math.PI;
  if (angleToNormal < minAngleToNormalDeg) {
    problems.push({
      field: forwardField,
      code: 'parallel_to_normal',
      message:
        `the direction is ${angleToNormal.toFixed(1)}° from the plane normal (at least ` +
        `${minAngleToNormalDeg}° needed); it must lie (nearly) in the anchor's plane`,
    });
    return undefined;
  }
  vec3.scale(x, x, 1 / inPlane);
  const y: Vec3 = [normal[0], normal[1], normal[2]];
  const z = vec3.cross([0, 0, 0], x, y) as Vec3;
  return { pose: poseFromAxes(origin, x, y, z), correctionDeg: (Math.atan2(Math.abs(along), inPlane) * 180) / Math.PI };
}
