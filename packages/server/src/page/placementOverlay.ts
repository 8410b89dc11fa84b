import type { OverlayColor, OverlayShapes } from '@arsession/convert';
import { createPose, poseAxis, type Bounds, type Pose, type Vec3 } from '@arsession/geometry';
import type { PoseJson } from '../placement/poseJson.js';
import { diagonalOf, distanceOutside, openingCentre } from '../placement/distanceOutside.js';
import type { Placement, PlacementOnWire } from '../records/Placement.js';

const RED: OverlayColor = [0.85, 0.08, 0.08],
  GREEN: OverlayColor = [0.1, 0.7, 0.15],
  BLUE: OverlayColor = [0.1, 0.3, 0.95];
const ORANGE: OverlayColor = [1, 0.45, 0],
  YELLOW: OverlayColor = [1, 0.85, 0],
  MAGENTA: OverlayColor = [0.85, 0.1, 0.8];

/** What the overlay is drawn on: the models' bounds in the placement's frame, and the reference image when there is one. */
export interface OverlayContext {
  bounds: Bounds;
  image?: { data: Uint8Array; mimeType: 'image/png' | 'image/jpeg'; width: number; height: number };
}

/**
 * A placement drawn over its model for the session page's preview, in the delivered frame of the
 * first model: the anchor frame's axes (x red, y green, z blue) for every method; by_plane the
 * footprint (yellow) under the models; by_scan the opening's outline (orange) and its wall normal;
 * a virtual anchor its shape (rectangle, circle, segment or corner, magenta); by_refimage the printed
 * image itself, at its size, where it hangs. Sizes follow the model's, so small and large models both
 * show their marks.
 *
 * @example
 * ```ts
 * const shapes = placementOverlay(placement, { bounds });
 * ```
 */
export function placementOverlay(placement: Placement, context: OverlayContext): OverlayShapes {
  const { min, max } = context.bounds;
  const size = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  const axis = clamp(size * 0.12, 0.25, 3);
  const shapes: OverlayShapes = { lines: [], arrows: [], quads: [], thickness: clamp(size * 0.004, 0.006, 0.06) };
  // Drawn that far away, the marks would frame a view in which the model is a speck.
  if (placementOutOfView(placement, context.bounds) !== undefined) return shapes;
  const axes = (pose: Pose) => {
    for (const [i, color] of [
      [0, RED],
      [1, GREEN],
      [2, BLUE],
    ] as const)
      shapes.arrows.push({ from: pose.position, to: along(pose.position, poseAxis([0, 0, 0], pose, i), axis), color });
  };
  const outline = (points: Vec3[], color: OverlayColor) =>
    points.forEach((p, i) => shapes.lines.push({ from: p, to: points[(i + 1) % points.length]!, color }));

  switch (placement.method) {
    case 'by_plane': {
      // A band just outside the model and a hair below it, so the floor slab hides neither, and a
      // translucent sheet under it: seen from above, from the side and from below.
      const [y, m] = [min[1] - shapes.thickness, Math.max(shapes.thickness * 3, size * 0.03)];
      const rim: [Vec3, Vec3, Vec3, Vec3] = [
        [min[0] - m, y, max[2] + m],
        [max[0] + m, y, max[2] + m],
        [max[0] + m, y, min[2] - m],
        [min[0] - m, y, min[2] - m],
      ];
      outline(rim, YELLOW);
      shapes.quads.push({ corners: rim, color: YELLOW, opacity: 0.6 });
      axes(pose(placement.anchor));
      break;
    }
    case 'by_scan': {
      const corners = placement.corners.map(vec);
      outline(corners, ORANGE);
      const centre = vec(openingCentre(corners));
      shapes.arrows.push({ from: centre, to: along(centre, vec(placement.wall_normal), Math.max(0.5, axis)), color: ORANGE });
      axes(pose(placement.frame));
      break;
    }
    case 'by_virtual_anchor': {
      const p = pose(placement.pose);
      const x = poseAxis([0, 0, 0], p, 0),
        z = poseAxis([0, 0, 0], p, 2),
        o = p.position;
      const at = (u: number, w: number): Vec3 => [o[0] + x[0] * u + z[0] * w, o[1] + x[1] * u + z[1] * w, o[2] + x[2] * u + z[2] * w];
      if (placement.anchor_type === 'rectangle_short_side') {
        // x runs along the short side.
        const [u, w] = [Math.min(placement.width, placement.height) / 2, Math.max(placement.width, placement.height) / 2];
        outline([at(-u, -w), at(u, -w), at(u, w), at(-u, w)], MAGENTA);
      } else if (placement.anchor_type === 'circle_directional') {
        outline(
          Array.from({ length: 48 }, (_, i) =>
            at(placement.radius * Math.cos((i / 48) * 2 * Math.PI), placement.radius * Math.sin((i / 48) * 2 * Math.PI)),
          ),
          MAGENTA,
        );
      } else if (placement.anchor_type === 'segment_directional') {
        shapes.lines.push({ from: at(-placement.length / 2, 0), to: at(placement.length / 2, 0), color: MAGENTA });
      } else {
        const half = (placement.opening_angle_deg * Math.PI) / 360;
        for (const s of [-1, 1])
          shapes.lines.push({ from: o, to: at(axis * 1.5 * Math.cos(half), axis * 1.5 * s * Math.sin(half)), color: MAGENTA });
      }
      axes(p);
      break;
    }
    case 'by_refimage': {
      const p = pose(placement.pose);
      const image = context.image;
      const w = placement.physical_width,
        h = image ? (w * image.height) / image.width : w;
      const x = poseAxis([0, 0, 0], p, 0),
        n = poseAxis([0, 0, 0], p, 1),
        down = poseAxis([0, 0, 0], p, 2);
      // A hair in front of the surface it is fixed to, so the two never fight for the same pixels.
      const o = along(p.position, n, 0.002);
      const at = (u: number, v: number): Vec3 => [
        o[0] + x[0] * u + down[0] * v,
        o[1] + x[1] * u + down[1] * v,
        o[2] + x[2] * u + down[2] * v,
      ];
      const corners: [Vec3, Vec3, Vec3, Vec3] = [at(-w / 2, h / 2), at(w / 2, h / 2), at(w / 2, -h / 2), at(-w / 2, -h / 2)];
      shapes.quads.push({ corners, color: [1, 1, 1], opacity: 1, ...(image && { image: { data: image.data, mimeType: image.mimeType } }) });
      outline(corners, MAGENTA);
      axes(p);
      break;
    }
  }
  return shapes;
}

/**
 * How far outside the models' bounds a placement lies when that is too far to draw it over them
 * (more than 10 m, or than the models' own diagonal): the preview shows the model alone and the
 * page says where the placement is. `undefined` when it is near enough to draw.
 *
 * @example
 * ```ts
 * placementOutOfView(detail.placement, bounds); // → 9999990 for an anchor centred at x = 1e7 beside a 10 m house
 * ```
 */
export function placementOutOfView(placement: Placement | PlacementOnWire, bounds: Bounds): number | undefined {
  const where =
    placement.method === 'by_plane'
      ? undefined
      : placement.method === 'by_scan'
        ? openingCentre(placement.corners)
        : placement.pose.position;
  if (!where) return undefined;
  const distance = distanceOutside(bounds, where);
  const reach = Math.max(OUT_OF_VIEW_M, diagonalOf(bounds));
  return distance > reach ? distance : undefined;
}

/** A placement farther than this outside the model (or than its diagonal, when larger) is not drawn on the preview (m). */
const OUT_OF_VIEW_M = 10;

const vec = (v: readonly number[]): Vec3 => [v[0]!, v[1]!, v[2]!];
const pose = (p: PoseJson): Pose => createPose(vec(p.position), [p.rotation[0]!, p.rotation[1]!, p.rotation[2]!, p.rotation[3]!]);
const along = (p: readonly number[], d: readonly number[], length: number): Vec3 => [
  p[0]! + d[0]! * length,
  p[1]! + d[1]! * length,
  p[2]! + d[2]! * length,
];
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
