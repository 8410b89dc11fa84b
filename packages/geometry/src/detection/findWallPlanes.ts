import type { Bvh, TriangleMesh } from '../bvh/Bvh.js';
import { raycastFirst, type RayHit } from '../bvh/raycastFirst.js';
import { triangleNormal } from '../bvh/triangleNormal.js';
import type { ReadonlyVec3, Vec3 } from '../types/vector.js';
import { runsWithinGap } from './runsWithinGap.js';

/** A vertical surface the viewer sees: a wall face, or anything else upright (a leaf, a cabinet front). */
export interface WallPlane {
  /** Unit, horizontal, pointing toward the viewer. */
  normal: Vec3;
  /** `normal · x` for points x on the face. */
  offset: number;
  /** How many fan rays landed on it. */
  support: number;
  /** The points those rays hit, flat xyz. */
  points: Float64Array;
  /** The triangle each of those rays hit. */
  triangles: Uint32Array;
  /**
   * A layer of a plane a few millimetres from its median face (the wall behind a proud door frame,
   * or a leaf standing proud of the wall); a second choice, searched after the planes themselves.
   */
  layer: boolean;
}

/** Options of {@link findWallPlanes}. */
export interface FindWallPlanesOptions {
  /** Half-width (degrees) of the fan to each side of the gaze. */
  yawDeg: number;
  /** Half-height (degrees) of the fan above and below the gaze. */
  pitchDeg: number;
  /** Angular step between neighbouring rays (degrees). */
  stepDeg: number;
  /** Farthest hit considered (m). */
  maxDistance: number;
  /** Surfaces whose normal has a larger vertical component are floors, ceilings or slopes, not walls. */
  maxNormalY: number;
  /** Hits belong to one plane when their normals are within this angle (degrees)… */
  sameNormalDeg: number;
  /** …and their plane offsets within this distance (m). */
  sameOffset: number;
  /** Planes hit by fewer rays are dropped as clutter. */
  minSupport: number;
  /** Within a plane, hits whose offsets are separated by more than this (m) lie on different layers. */
  layerGap: number;
}

/**
 * Defaults of {@link findWallPlanes}: a fan wide enough that, from 1 m away, it still reaches past
 * both jambs of a wide door (a fan that only covers the doorway sees nothing but the next room).
 */
export const FIND_WALL_PLANES_DEFAULTS: Readonly<FindWallPlanesOptions> = {
  yawDeg: 55,
  pitchDeg: 40,
  stepDeg: 2.5,
  maxDistance: 30,
  maxNormalY: 0.3,
  sameNormalDeg: 5,
  sameOffset: 0.03,
  minSupport: 6,
  layerGap: 0.004,
};

/**
 * Casts a fan of rays around the gaze and groups the vertical surfaces they hit into planes, most
 * hit first. Coordinates are Y-up; `gaze` is a unit direction.
 *
 * @example
 * ```ts
 * const planes = findWallPlanes(bvh, mesh, [0, 1.6, 2], [0, -0.2, -0.98]);
 * planes[0]?.normal; // → about [0, 0, 1] for a wall across the view
 * ```
 */
export function findWallPlanes(
  bvh: Bvh,
  mesh: TriangleMesh,
  eye: ReadonlyVec3,
  gaze: ReadonlyVec3,
  options: Partial<FindWallPlanesOptions> = {},
): WallPlane[] {
  const opts = { ...FIND_WALL_PLANES_DEFAULTS, ...options };
  const deg = Math.PI / 180;
  const yaw0 = Math.atan2(gaze[0], gaze[2]);
  const pitch0 = Math.asin(Math.max(-1, Math.min(1, gaze[1])));
  const cosSame = Math.cos(opts.sameNormalDeg * deg);
  const steps = (half: number) => Math.round(half / opts.stepDeg);

  type Cluster = { nx: number; nz: number; offset: number; sumX: number; sumZ: number; points: number[]; triangles: number[] };
  const clusters: Cluster[] = [];
  const hit: RayHit = { distance: 0, triangle: -1, u: 0, v: 0 };
  const dir: Vec3 = [0, 0, 0],
    n: Vec3 = [0, 0, 0];
  for (let j = -steps(opts.pitchDeg); j <= steps(opts.pitchDeg); j++) {
    const pitch = Math.max(-85 * deg, Math.min(85 * deg, pitch0 + j * opts.stepDeg * deg));
    for (let i = -steps(opts.yawDeg); i <= steps(opts.yawDeg); i++) {
      const yaw = yaw0 + i * opts.stepDeg * deg;
      dir[0] = Math.cos(pitch) * Math.sin(yaw);
      dir[1] = Math.sin(pitch);
      dir[2] = Math.cos(pitch) * Math.cos(yaw);
      if (!raycastFirst(bvh, mesh, eye, dir, opts.maxDistance, hit)) continue;
      triangleNormal(mesh, hit.triangle, n);
      if (Math.abs(n[1]) > opts.maxNormalY) continue;
      const px = eye[0] + dir[0] * hit.distance,
        py = eye[1] + dir[1] * hit.distance,
        pz = eye[2] + dir[2] * hit.distance;
      let nx = n[0],
        nz = n[2];
      const h = Math.hypot(nx, nz);
      nx /= h;
      nz /= h;
      if (nx * (eye[0] - px) + nz * (eye[2] - pz) < 0) {
        nx = -nx;
        nz = -nz;
      }
      const offset = nx * px + nz * pz;
      let cluster = clusters.find((c) => c.nx * nx + c.nz * nz >= cosSame && Math.abs(c.nx * px + c.nz * pz - c.offset) <= opts.sameOffset);
      if (!cluster) {
        cluster = { nx, nz, offset, sumX: 0, sumZ: 0, points: [], triangles: [] };
        clusters.push(cluster);
      }
      cluster.sumX += nx;
      cluster.sumZ += nz;
      cluster.points.push(px, py, pz);
      cluster.triangles.push(hit.triangle);
    }
  }

  const planes: WallPlane[] = [];
  for (const c of clusters) {
    const support = c.points.length / 3;
    if (support < opts.minSupport) continue;
    const h = Math.hypot(c.sumX, c.sumZ);
    const normal: Vec3 = [c.sumX / h, 0, c.sumZ / h];
    // The median offset: a casing or a flush leaf in the same cluster must not pull the face.
    const offsets = new Float64Array(support);
    for (let k = 0; k < support; k++) offsets[k] = normal[0] * c.points[k * 3]! + normal[2] * c.points[k * 3 + 2]!;
    const sorted = Float64Array.from(offsets).sort();
    planes.push({
      normal,
      offset: sorted[support >> 1]!,
      support,
      points: Float64Array.from(c.points),
      triangles: Uint32Array.from(c.triangles),
      layer: false,
    });
    // Surfaces a few millimetres apart fall into one cluster, and its median may be a door frame
    // standing proud of the wall rather than the wall: each layer hit often enough is a plane too.
    for (const layer of runsWithinGap(sorted, opts.layerGap)) {
      if (
        layer.to - layer.from < opts.minSupport ||
        Math.abs(sorted[(layer.from + layer.to) >> 1]! - sorted[support >> 1]!) <= opts.layerGap
      )
        continue;
      const lo = sorted[layer.from]!,
        hi = sorted[layer.to - 1]!;
      const points: number[] = [],
        triangles: number[] = [];
      for (let k = 0; k < support; k++) {
        if (offsets[k]! < lo || offsets[k]! > hi) continue;
        points.push(c.points[k * 3]!, c.points[k * 3 + 1]!, c.points[k * 3 + 2]!);
        triangles.push(c.triangles[k]!);
      }
      planes.push({
        normal,
        offset: sorted[(layer.from + layer.to) >> 1]!,
        support: triangles.length,
        points: Float64Array.from(points),
        triangles: Uint32Array.from(triangles),
        layer: true,
      });
    }
  }
  return planes.sort((a, b) => b.support - a.support);
}
