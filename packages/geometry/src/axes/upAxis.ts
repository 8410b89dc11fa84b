import type { Mat4, Quat, ReadonlyQuat, ReadonlyVec3, UpAxis, Vec3 } from '../types/vector.js';

// Z-up → Y-up is a rotation of −90° about X: (x, y, z) → (x, z, −y). It has determinant +1, so
// handedness and triangle winding survive; a plain y↔z swap would mirror the model.
// Points and directions map the same way because the map is linear (no translation).

/**
 * Turns a z-up point or direction into y-up: `(x, y, z) → (x, z, −y)`.
 *
 * @example
 * ```ts
 * zUpToYUp([0, 0, 0], [1, 2, 3]); // → [1, 3, -2]
 * ```
 */
export function zUpToYUp(out: Vec3, v: ReadonlyVec3): Vec3 {
  const x = v[0],
    y = v[1],
    z = v[2];
  out[0] = x;
  out[1] = z;
  out[2] = -y;
  return out;
}

/**
 * Turns a y-up point or direction into z-up: `(x, y, z) → (x, −z, y)`; the inverse of {@link zUpToYUp}.
 */
export function yUpToZUp(out: Vec3, v: ReadonlyVec3): Vec3 {
  const x = v[0],
    y = v[1],
    z = v[2];
  out[0] = x;
  out[1] = -z;
  out[2] = y;
  return out;
}

/**
 * Re-expresses a z-up rotation quaternion in y-up: `(x, y, z, w) → (x, z, −y, w)`.
 * The vector part turns with the frame; the angle is unchanged.
 */
export function zUpToYUpQuat(out: Quat, q: ReadonlyQuat): Quat {
  const x = q[0],
    y = q[1],
    z = q[2],
    w = q[3];
  out[0] = x;
  out[1] = z;
  out[2] = -y;
  out[3] = w;
  return out;
}

/** Re-expresses a y-up rotation quaternion in z-up; the inverse of {@link zUpToYUpQuat}. */
export function yUpToZUpQuat(out: Quat, q: ReadonlyQuat): Quat {
  const x = q[0],
    y = q[1],
    z = q[2],
    w = q[3];
  out[0] = x;
  out[1] = -z;
  out[2] = y;
  out[3] = w;
  return out;
}

// For a whole transform T the y-up form is M·T·M⁻¹ with M the axis rotation. With M a signed
// permutation this is a reindexing of rows and columns, done exactly (no floating-point products).
// Row/column i of the y-up matrix takes row/column SRC[i] of the z-up one, negated where SIGN[i] < 0.
const SWAP_Y_Z = [0, 2, 1, 3] as const;
const Z_TO_Y_SIGN = [1, 1, -1, 1] as const;
const Y_TO_Z_SIGN = [1, -1, 1, 1] as const;

function conjugateBySignedPermutation(
  out: Mat4,
  m: Readonly<Mat4> | readonly number[],
  src: readonly number[],
  sign: readonly number[],
): Mat4 {
  const tmp = new Float64Array(16);
  for (let col = 0; col < 4; col++) {
    for (let row = 0; row < 4; row++) {
      tmp[col * 4 + row] = sign[row]! * sign[col]! * m[src[col]! * 4 + src[row]!]!;
    }
  }
  out.set(tmp);
  return out;
}

/**
 * Re-expresses a z-up 4×4 transform (column-major) in y-up: `M·T·M⁻¹`.
 *
 * @example
 * ```ts
 * // A z-up translation by (1, 2, 3) becomes a y-up translation by (1, 3, −2).
 * const t = new Float64Array([1,0,0,0, 0,1,0,0, 0,0,1,0, 1,2,3,1]);
 * zUpToYUpMat4(new Float64Array(16), t).slice(12, 15); // → [1, 3, -2]
 * ```
 */
export function zUpToYUpMat4(out: Mat4, m: Readonly<Mat4> | readonly number[]): Mat4 {
  return conjugateBySignedPermutation(out, m, SWAP_Y_Z, Z_TO_Y_SIGN);
}

/** Re-expresses a y-up 4×4 transform in z-up; the inverse of {@link zUpToYUpMat4}. */
export function yUpToZUpMat4(out: Mat4, m: Readonly<Mat4> | readonly number[]): Mat4 {
  return conjugateBySignedPermutation(out, m, SWAP_Y_Z, Y_TO_Z_SIGN);
}

/**
 * Brings a point or direction given in `system` into y-up (a copy when it already is).
 *
 * @example
 * ```ts
 * toYUp([0, 0, 0], [1, 2, 3], 'z-up'); // → [1, 3, -2]
 * toYUp([0, 0, 0], [1, 2, 3], 'y-up'); // → [1, 2, 3]
 * ```
 */
export function toYUp(out: Vec3, v: ReadonlyVec3, system: UpAxis): Vec3 {
  if (system === 'z-up') return zUpToYUp(out, v);
  out[0] = v[0];
  out[1] = v[1];
  out[2] = v[2];
  return out;
}

/** Brings a y-up point or direction into `system`; the inverse of {@link toYUp}. */
export function fromYUp(out: Vec3, v: ReadonlyVec3, system: UpAxis): Vec3 {
  if (system === 'z-up') return yUpToZUp(out, v);
  out[0] = v[0];
  out[1] = v[1];
  out[2] = v[2];
  return out;
}
