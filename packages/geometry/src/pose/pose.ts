import { mat4, quat, vec3 } from 'gl-matrix';
import type { Mat4, Quat, ReadonlyQuat, ReadonlyVec3, Vec3 } from '../types/vector.js';

/**
 * A rigid transform as plain data: where a frame sits and how it is turned. `matrix` carries the
 * same transform as a column-major 4×4 (as USD, RealityKit and glTF want it); the three fields
 * always agree because poses are only made through {@link createPose} and the operations below.
 */
export interface Pose {
  /** Translation in metres. */
  readonly position: Vec3;
  /** Unit quaternion `[x, y, z, w]` in canonical sign (w > 0, or the first non-zero of x, y, z positive when w = 0). */
  readonly rotation: Quat;
  /** Column-major 4×4 of the same transform. */
  readonly matrix: Mat4;
}

/**
 * Makes a pose from a position and a rotation; the quaternion is normalised.
 *
 * @example
 * ```ts
 * const p = createPose([1, 0, 0], [0, Math.SQRT1_2, 0, Math.SQRT1_2]); // 90° about +Y at x = 1
 * p.matrix[12]; // → 1
 * ```
 */
export function createPose(position: ReadonlyVec3, rotation: ReadonlyQuat = [0, 0, 0, 1]): Pose {
  const len = Math.hypot(rotation[0], rotation[1], rotation[2], rotation[3]);
  if (!(len > 0) || !Number.isFinite(len)) throw new RangeError('createPose: rotation must be a non-zero finite quaternion');
  // q and −q are the same rotation; pick one sign so equal rotations have equal data (and bytes).
  const s = isCanonical(rotation) ? 1 / len : -1 / len;
  const q: Quat = [rotation[0] * s, rotation[1] * s, rotation[2] * s, rotation[3] * s];
  const t: Vec3 = [position[0], position[1], position[2]];
  const m = new Float64Array(16);
  mat4.fromRotationTranslation(m, q, t);
  return { position: t, rotation: q, matrix: m };
}

function isCanonical(q: ReadonlyQuat): boolean {
  for (const i of [3, 0, 1, 2] as const) {
    if (q[i] !== 0) return q[i] > 0;
  }
  return true;
}

/** The identity pose: at the origin, not turned. */
export const IDENTITY_POSE: Pose = createPose([0, 0, 0], [0, 0, 0, 1]);

/**
 * Makes a pose from three orthonormal axes (the columns of its rotation) and an origin.
 * The axes must form a right-handed orthonormal basis; callers build them that way.
 */
export function poseFromAxes(origin: ReadonlyVec3, x: ReadonlyVec3, y: ReadonlyVec3, z: ReadonlyVec3): Pose {
  // gl-matrix's create()/fromValues() allocate Float32Array; we stay in float64 throughout.
  const r = new Float64Array([x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2]]);
  // gl-matrix's fromMat3 is Shoemake's branch-on-largest-diagonal method (Shepperd's), stable for all rotations.
  const q = quat.fromMat3(new Float64Array(4), r);
  return createPose(origin, [q[0], q[1], q[2], q[3]]);
}

/**
 * Makes a pose from a rigid column-major 4×4. The rotation part must be orthonormal with
 * determinant +1 (scale or shear throws).
 */
export function poseFromMatrix(m: Readonly<Mat4> | readonly number[]): Pose {
  const x: Vec3 = [m[0]!, m[1]!, m[2]!];
  const y: Vec3 = [m[4]!, m[5]!, m[6]!];
  const z: Vec3 = [m[8]!, m[9]!, m[10]!];
  const tol = 1e-6;
  const ortho =
    Math.abs(vec3.length(x) - 1) < tol &&
    Math.abs(vec3.length(y) - 1) < tol &&
    Math.abs(vec3.length(z) - 1) < tol &&
    Math.abs(vec3.dot(x, y)) < tol &&
    Math.abs(vec3.dot(y, z)) < tol &&
    Math.abs(vec3.dot(x, z)) < tol;
  const cross = vec3.cross([0, 0, 0], x, y);
  if (!ortho || vec3.dot(cross, z) < 0) throw new RangeError('poseFromMatrix: matrix is not a rigid transform');
  return poseFromAxes([m[12]!, m[13]!, m[14]!], x, y, z);
}

/**
 * Composes two poses: the result applies `b` first, then `a` (matrix product `a·b`).
 * With `a` = world←model and `b` = model←part, the result is world←part.
 */
export function composePoses(a: Pose, b: Pose): Pose {
  const q = quat.multiply(new Float64Array(4), a.rotation, b.rotation);
  const t = transformPoint([0, 0, 0], a, b.position);
  return createPose(t, [q[0], q[1], q[2], q[3]]);
}

/** Inverts a pose: `composePoses(invertPose(p), p)` is the identity. */
export function invertPose(p: Pose): Pose {
  const qi = quat.conjugate(new Float64Array(4), p.rotation);
  const t = vec3.transformQuat([0, 0, 0], p.position, qi);
  return createPose([-t[0], -t[1], -t[2]], [qi[0], qi[1], qi[2], qi[3]]);
}

/** Applies a pose to a point (rotation, then translation). */
export function transformPoint(out: Vec3, pose: Pose, p: ReadonlyVec3): Vec3 {
  vec3.transformQuat(out, p, pose.rotation);
  out[0] += pose.position[0];
  out[1] += pose.position[1];
  out[2] += pose.position[2];
  return out;
}

/** Applies only the rotation of a pose to a direction or normal (directions never translate). */
export function transformDirection(out: Vec3, pose: Pose, d: ReadonlyVec3): Vec3 {
  vec3.transformQuat(out, d, pose.rotation);
  return out;
}

/** Reads column `i` (0 = x axis, 1 = y axis, 2 = z axis) of a pose's rotation. */
export function poseAxis(out: Vec3, pose: Pose, i: 0 | 1 | 2): Vec3 {
  out[0] = pose.matrix[i * 4]!;
  out[1] = pose.matrix[i * 4 + 1]!;
  out[2] = pose.matrix[i * 4 + 2]!;
  return out;
}
