import type { Bvh, TriangleMesh } from '../bvh/Bvh.js';
import { raycastFirst } from '../bvh/raycastFirst.js';
import { triangleNormal } from '../bvh/triangleNormal.js';
import type { Opening } from '../opening/opening.js';
import { validateOpening } from '../opening/validateOpening.js';
import type { ReadonlyVec3, UpAxis, Vec3 } from '../types/vector.js';
import { readViewerAndGaze } from './readViewerAndGaze.js';
import { DoorNotFoundError } from './DoorNotFoundError.js';
import { FIND_OPENING_IN_WALL_DEFAULTS, findOpeningInWall, type FindOpeningInWallOptions, type WallOpening } from './findOpeningInWall.js';
import { findWallPlanes, type FindWallPlanesOptions, type WallPlane } from './findWallPlanes.js';

/**
 * Triangles to search, Y-up metres. Far-from-origin models keep float32 precision by storing
 * positions relative to `offset` (world = position + offset), as `SceneData` does.
 */
export interface DetectionMesh extends TriangleMesh {
  offset?: ReadonlyVec3;
  /**
   * Which part of the model each triangle belongs to (e.g. its node), without any meaning
   * attached. When given, a wall is only the parts that make up the wall face in view, so a door
   * frame lining the reveals, flush with both faces, is told apart from the wall it sits in.
   */
  groups?: Uint32Array;
}

/** Options of {@link detectOpening}. */
export interface DetectOpeningOptions {
  /** Axis convention of `viewer` and `gaze`; the opening always comes back Y-up. */
  coordinateSystem: UpAxis;
  /** Gazes meeting a wall more obliquely than this (degrees from its normal) are refused as grazing. */
  maxIncidenceDeg: number;
  /** How many wall planes along the gaze are examined: planes nearest first, then layers split off them. */
  maxPlanes: number;
  fan: Partial<FindWallPlanesOptions>;
  wall: Partial<FindOpeningInWallOptions>;
}

/** Defaults of {@link detectOpening}. */
export const DETECT_OPENING_DEFAULTS: Readonly<DetectOpeningOptions> = {
  coordinateSystem: 'y-up',
  maxIncidenceDeg: 80,
  maxPlanes: 10,
  fan: {},
  wall: {},
};

/** A door opening found from geometry alone. */
export interface DetectedOpening {
  /** World coordinates (mesh offset added back), Y-up, on the viewer's face of the wall. */
  opening: Opening;
  /** 0–1: high when the gaze falls inside the opening and its edges measure alike at every height. */
  confidence: number;
  method: 'geometric';
  /** Thickness of the wall holding it (m); 0 for a wall drawn as one surface. */
  wallThickness: number;
}

/**
 * Finds the door opening a user looks at from the model's triangles alone (by_scan mode 1 on GLB,
 * USDZ, or IFC without usable semantics). A fan of rays around the gaze finds the vertical
 * surfaces in view; each, nearest along the gaze first, is searched for a floor-level opening of
 * door size near where the gaze meets it (see {@link findOpeningInWall}). A gaze through a doorway
 * into the next room still finds the doorway: its wall is met first.
 *
 * `viewer` is where the user stands (point_1), `gaze` the direction they look (point_2), both in
 * world coordinates of `coordinateSystem`.
 *
 * @throws {DoorNotFoundError} with a `reason` the client can act on.
 * @example
 * ```ts
 * const bvh = buildBvh(mesh);
 * const found = detectOpening(mesh, bvh, [0, 1.6, 2], [0, -0.3, -1]);
 * found.opening.width; // → 0.9
 * ```
 */
export function detectOpening(
  mesh: DetectionMesh,
  bvh: Bvh,
  viewer: readonly number[],
  gaze: readonly number[],
  options: Partial<DetectOpeningOptions> = {},
): DetectedOpening {
  const opts = { ...DETECT_OPENING_DEFAULTS, ...options };
  const { eye: worldEye, dir } = readViewerAndGaze(viewer, gaze, opts.coordinateSystem);
  // Work near the origin, where the float32 positions are exact enough.
  const offset: Vec3 = mesh.offset ? [mesh.offset[0], mesh.offset[1], mesh.offset[2]] : [0, 0, 0];
  const eye: Vec3 = [worldEye[0] - offset[0], worldEye[1] - offset[1], worldEye[2] - offset[2]];

  const planes = findWallPlanes(bvh, mesh, eye, dir, opts.fan);
  if (planes.length === 0)
    throw new DoorNotFoundError('no_wall_along_gaze', 'no wall is in view along the gaze; look at the wall that holds the door');

  const cosMax = Math.cos((opts.maxIncidenceDeg * Math.PI) / 180);
  const inView = planes
    .map((plane) => {
      const facing = -(plane.normal[0] * dir[0] + plane.normal[2] * dir[2]);
      const distance = (plane.normal[0] * eye[0] + plane.normal[2] * eye[2] - plane.offset) / Math.max(facing, 1e-9);
      return { plane, facing, distance };
    })
    .filter((p) => p.facing >= cosMax && p.distance > 0)
    .sort((a, b) => Number(a.plane.layer) - Number(b.plane.layer) || a.distance - b.distance)
    .slice(0, opts.maxPlanes);
  if (inView.length === 0) {
    throw grazingOrNoWall(mesh, bvh, eye, dir);
  }

  // Every plane in view is searched; the opening nearest the gaze point wins, the nearer plane
  // when two are alike. Taking the first success instead would let a railing or a shelf in front
  // of the door answer with a gap of its own. Layers split off a plane (a leaf or a frame a few
  // millimetres proud of the wall) come after all planes, so they win only by an opening at least
  // 5 cm nearer the gaze point.
  let reason: 'no_floor' | 'no_opening_near_gaze' = 'no_opening_near_gaze';
  let best: { found: WallOpening; plane: WallPlane } | undefined;
  for (const [rank, { plane, distance }] of inView.entries()) {
    const gazePoint: Vec3 = [eye[0] + dir[0] * distance, eye[1] + dir[1] * distance, eye[2] + dir[2] * distance];
    const found = findOpeningInWall(bvh, mesh, plane, gazePoint, eye, { ...opts.wall, ...(mesh.groups && { groups: mesh.groups }) });
    if (typeof found === 'string') {
      if (rank === 0) reason = found;
      continue;
    }
    if (!best || found.lateral < best.found.lateral - 0.05) best = { found, plane };
  }
  if (best) {
    const { found, plane } = best;
    const corners = found.corners.map((c) => [c[0] + offset[0], c[1] + offset[1], c[2] + offset[2]]) as [Vec3, Vec3, Vec3, Vec3];
    const maxLateral = opts.wall.maxLateral ?? FIND_OPENING_IN_WALL_DEFAULTS.maxLateral;
    const aim = 1 - 0.5 * Math.min(1, found.lateral / maxLateral);
    const edges = found.edgeSpread > 0.02 ? 0.8 : 1;
    return {
      opening: validateOpening({ corners, wallNormal: plane.normal }),
      confidence: Math.round(0.95 * aim * edges * 100) / 100,
      method: 'geometric',
      wallThickness: found.thickness,
    };
  }
  throw reason === 'no_floor'
    ? new DoorNotFoundError('no_floor', 'no floor was found below the viewer or the door; stand on the floor the door opens onto')
    : new DoorNotFoundError(
        'no_opening_near_gaze',
        'the wall along the gaze has no floor-level opening of door size near the gaze point; look at the door',
      );
}

/** The failure when no surface in view faces the gaze: grazing if the gaze meets a wall, else no wall. */
function grazingOrNoWall(mesh: TriangleMesh, bvh: Bvh, eye: Vec3, dir: Vec3): DoorNotFoundError {
  const hit = raycastFirst(bvh, mesh, eye, dir, 30);
  const n: Vec3 = [0, 0, 0];
  if (hit && Math.abs(triangleNormal(mesh, hit.triangle, n)[1]) < 0.3) {
    return new DoorNotFoundError('gaze_grazes_wall', 'the gaze runs almost along the wall; face the door');
  }
  return new DoorNotFoundError('no_wall_along_gaze', 'no wall faces the gaze; look at the wall that holds the door');
}
