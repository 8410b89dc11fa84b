import type { Bounds } from '@arsession/geometry';
import { cameraBasis } from './camera.js';

/** How a camera looks at a box it is to frame: from where, with which way up on the picture. */
export interface FitDistanceOptions {
  /** Unit direction from the box's centre towards the eye. */
  towardsEye: readonly [number, number, number];
  /** Which way is up on the picture: not along `towardsEye`. */
  up: readonly [number, number, number];
  /** Vertical field of view (degrees). */
  fovY: number;
  /** Width ÷ height of the picture. */
  aspect: number;
  /** Share of the picture left free round the box, each side. */
  margin: number;
  /** The camera's near distance: every corner stays at least twice that deep. */
  near: number;
}

/**
 * How far from `centre`, along `towardsEye`, a camera looking back at `centre` must stand for
 * every corner of `bounds` to be in front of its near plane and inside the picture less `margin`.
 *
 * @example
 * ```ts
 * const d = fitDistance(box, centre, { towardsEye: [0, 0, 1], up: [0, 1, 0], fovY: 35, aspect: 1.6, margin: 0.04, near: 0.01 });
 * const eye = [centre[0], centre[1], centre[2] + d];
 * ```
 */
export function fitDistance(bounds: Bounds, centre: readonly [number, number, number], options: FitDistanceOptions): number {
  const { towardsEye, up: upHint, fovY, aspect, margin, near } = options;
  const { right, up, forward } = cameraBasis({
    eye: [centre[0] + towardsEye[0], centre[1] + towardsEye[1], centre[2] + towardsEye[2]],
    target: centre,
    up: upHint,
    fovY,
    near,
  });
  const tanY = Math.tan((fovY * Math.PI) / 360) * (1 - 2 * margin);
  const tanX = Math.tan((fovY * Math.PI) / 360) * aspect * (1 - 2 * margin);
  let distance = 0;
  for (let c = 0; c < 8; c++) {
    const p = [c & 1 ? bounds.max[0] : bounds.min[0], c & 2 ? bounds.max[1] : bounds.min[1], c & 4 ? bounds.max[2] : bounds.min[2]];
    const rel = [p[0]! - centre[0], p[1]! - centre[1], p[2]! - centre[2]];
    const x = rel[0]! * right[0] + rel[1]! * right[1] + rel[2]! * right[2];
    const y = rel[0]! * up[0] + rel[1]! * up[1] + rel[2]! * up[2];
    // A corner `z` beyond the centre along the view stands `distance + z` deep.
    const z = rel[0]! * forward[0] + rel[1]! * forward[1] + rel[2]! * forward[2];
    distance = Math.max(distance, Math.abs(x) / tanX - z, Math.abs(y) / tanY - z, 2 * near - z);
  }
  return distance;
}
