/** A pinhole camera in the scene's frame (Y-up metres). */
export interface Camera {
  eye: readonly [number, number, number];
  /** A point the camera looks at: only its direction from `eye` matters. */
  target: readonly [number, number, number];
  /** Which way is up on the picture; need not be perpendicular to the view direction. */
  up: readonly [number, number, number];
  /** Vertical field of view (degrees). */
  fovY: number;
  /** Distance (m) in front of the eye nearer than which nothing is drawn. */
  near: number;
}

/** A camera's orthonormal frame: right, true up and forward (all unit length), and the eye. */
export interface CameraBasis {
  eye: readonly [number, number, number];
  right: [number, number, number];
  up: [number, number, number];
  forward: [number, number, number];
}

/**
 * The camera's frame, right-handed with the view looking along `forward`: a point `p` is at
 * `(p − eye)·right` across the picture, `(p − eye)·up` up it, and `(p − eye)·forward` deep.
 * Throws when the camera looks straight along `up` (no picture plane orientation).
 *
 * @example
 * ```ts
 * const { forward } = cameraBasis({ eye: [0, 0, 5], target: [0, 0, 0], up: [0, 1, 0], fovY: 50, near: 0.1 });
 * forward; // → [0, 0, -1]
 * ```
 */
export function cameraBasis(camera: Camera): CameraBasis {
  const forward = unit([camera.target[0] - camera.eye[0], camera.target[1] - camera.eye[1], camera.target[2] - camera.eye[2]]);
  const right = unit(cross(forward, camera.up));
  return { eye: camera.eye, right, up: cross(right, forward), forward };
}

function cross(a: readonly [number, number, number], b: readonly [number, number, number]): [number, number, number] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function unit(v: [number, number, number]): [number, number, number] {
  const length = Math.hypot(v[0], v[1], v[2]);
  if (!(length > 1e-12)) throw new Error(`camera: degenerate direction ${v.join(', ')}`);
  return [v[0] / length, v[1] / length, v[2] / length];
}
