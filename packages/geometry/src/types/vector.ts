/** A point or direction: `[x, y, z]` in metres. */
export type Vec3 = [number, number, number];

/** Read-only view of a {@link Vec3}; any array-like of three numbers is accepted. */
export type ReadonlyVec3 = readonly [number, number, number] | Readonly<Float64Array> | Readonly<Float32Array>;

/** A rotation quaternion `[x, y, z, w]` (scalar last, as gl-matrix and glTF store it). */
export type Quat = [number, number, number, number];

/** Read-only view of a {@link Quat}. */
export type ReadonlyQuat = readonly [number, number, number, number];

/** A 4×4 matrix in column-major order (translation in elements 12, 13, 14). */
export type Mat4 = Float64Array;

/** Which axis points up in a set of coordinates. ARKit and our output are `y-up`; IFC tools are `z-up`. */
export type UpAxis = 'y-up' | 'z-up';

/** Axis-aligned bounds. */
export interface Bounds {
  min: Vec3;
  max: Vec3;
}
