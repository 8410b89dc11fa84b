import type { Bounds } from '@arsession/geometry';
import type { Camera } from './camera.js';
import type { View } from './View.js';
import { fitDistance } from './fitDistance.js';

/** Options of {@link modelViews}. */
export interface ModelViewsOptions {
  /** Width ÷ height of the picture the cameras are framed for. */
  aspect: number;
  /** Vertical field of view of the two outside views (degrees): a moderate lens, little distortion. */
  outsideFovY: number;
  /** How far the outside 3/4 view looks down on the model (degrees above the horizon). */
  elevation: number;
  /** Horizontal field of view inside (degrees): about what a person takes in at a glance. */
  insideFovX: number;
  /** Height of the inside view's eye above the floor it stands on (m). */
  eyeHeight: number;
  /**
   * The point on a floor the inside view stands on (see `insideStand`); absent: the centre of the
   * bottom of the bounds, which is under the ground floor in a model with footings or piles.
   */
  stand: readonly [number, number, number] | undefined;
  /** Which way (x, z) the inside view looks; absent: along the longer side of the box, towards its farther end. */
  look: readonly [number, number] | undefined;
  /** Share of the picture the outside views leave free round the model's box, each side. */
  margin: number;
}

/** Defaults of {@link modelViews}. */
export const MODEL_VIEWS_DEFAULTS: Readonly<ModelViewsOptions> = {
  aspect: 1024 / 640,
  outsideFovY: 35,
  elevation: 25,
  insideFovX: 90,
  eyeHeight: 1.6,
  stand: undefined,
  look: undefined,
  margin: 0.04,
};

/**
 * Three fixed views of a model, from a box to frame (its bounds, or the part of them that stands
 * above its floor: see `standingBounds`) and a point to stand on, so a model and a reduced
 * delivery of it framed on the same (the full model's) box are seen from exactly the same cameras:
 *
 * - `outside` — "outside 3/4": from the +x +z corner of the bounds, `elevation` degrees above the
 *   horizon, looking at the box's centre, far enough that the whole box is in frame.
 * - `facade` — the longer horizontal side of the box, seen square on and level from outside (from
 *   +z when the box is longer in x, else from +x), aimed at mid-height, the whole side in frame.
 *   In a model converted from IFC (Z-up, +Y north) +z is south.
 * - `inside` — "at eye height": standing at `stand` (a clear spot on the model's lowest floor,
 *   found by the caller) or else the centre of the bottom of the box, the eye `eyeHeight` above
 *   it, looking level along `look` or else the longer horizontal axis of the box towards its
 *   farther end, with an `insideFovX` lens.
 *
 * @example
 * ```ts
 * const [outside, facade, inside] = modelViews(frame, { stand: [s.x, s.floorY, s.z], look: s.look });
 * rasterize(soup, inside.camera);
 * ```
 */
export function modelViews(bounds: Bounds, options: Partial<ModelViewsOptions> = {}): View[] {
  const { aspect, outsideFovY, elevation, insideFovX, eyeHeight, stand, look, margin } = { ...MODEL_VIEWS_DEFAULTS, ...options };
  const { min, max } = bounds;
  const centre: [number, number, number] = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
  const size = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2], 1e-3);
  const near = Math.max(0.01, size * 1e-4);
  const up = [0, 1, 0] as const;
  const alongX = max[0] - min[0] >= max[2] - min[2];

  const e = (elevation * Math.PI) / 180;
  const corner = [Math.cos(e) * Math.SQRT1_2, Math.sin(e), Math.cos(e) * Math.SQRT1_2] as const;
  const square = alongX ? ([0, 0, 1] as const) : ([1, 0, 0] as const);
  const outside = (towardsEye: readonly [number, number, number]): Camera => {
    const d = fitDistance(bounds, centre, { towardsEye, up, fovY: outsideFovY, aspect, margin, near });
    return {
      eye: [centre[0] + towardsEye[0] * d, centre[1] + towardsEye[1] * d, centre[2] + towardsEye[2] * d],
      target: centre,
      up,
      fovY: outsideFovY,
      near,
    };
  };

  const eye: [number, number, number] = stand ? [stand[0], stand[1] + eyeHeight, stand[2]] : [centre[0], min[1] + eyeHeight, centre[2]];
  const insideFovY = (2 * Math.atan(Math.tan((insideFovX * Math.PI) / 360) / aspect) * 180) / Math.PI;
  // Without a direction, towards the farther end of the box: the longer look across the rooms.
  const axis = alongX ? 0 : 2;
  const ahead = max[axis] - eye[axis] >= eye[axis] - min[axis] ? 1 : -1;
  const [dx, dz] = look ?? (alongX ? [ahead, 0] : [0, ahead]);
  const target: [number, number, number] = [eye[0] + dx, eye[1], eye[2] + dz];
  const inside: Camera = { eye, target, up, fovY: insideFovY, near: 0.05 };
  return [
    { name: 'outside', title: 'outside 3/4', camera: outside(corner) },
    { name: 'facade', title: 'façade', camera: outside(square) },
    { name: 'inside', title: 'inside at eye height', camera: inside },
  ];
}
