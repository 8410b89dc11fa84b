import {
  type Bounds,
  type Bvh,
  buildBvh,
  type FarthestBound,
  farthestOnTriangle,
  nearestTriangle,
  type TriangleMesh,
  triangleNormal,
  type Vec3,
} from '@arsession/geometry';
import type { SceneMesh } from '../scene/SceneData.js';
import { holdsTriangle, reachesInto, rimFaces, sheetPlane, thinnestAxis } from './boxProxy.js';

/** How far a stand-in and the mesh it stands for lie from each other, in the mesh's units. */
export interface StandInDistances {
  /** No point of the stand-in is farther than this from the mesh. */
  deviation: number;
  /** No point of the mesh is farther than this from the stand-in. */
  uncovered: number;
}

/** The farther of a stand-in's two distances: how far it and what it stands for lie apart, either way. */
export function standInReach({ deviation, uncovered }: StandInDistances): number {
  return Math.max(deviation, uncovered);
}

/** Options of {@link measureStandIn}. */
export interface MeasureStandInOptions {
  /** A distance (the mesh's units) within which no more precision is wanted: the bound may come out anywhere below it. */
  enough: number;
  /** Share above the farthest point measured at which a triangle of the stand-in is settled (see `farthestOnTriangle`). */
  tolerance: number;
  /** Pieces a stand-in triangle is cut into at most before it settles at its bound (still an upper bound, looser). */
  maxCuts: number;
  /** Where a sheet lies across each box's thinnest side (see `sheetPlane`): the one `sheetProxy` was made with. */
  sheetAt: number;
  /**
   * A distance (the mesh's units) past which the caller has no use for the stand-in: once either
   * way is known to reach it, measuring stops and the deviation comes out infinite.
   */
  cap: number;
}

/**
 * Defaults of {@link measureStandIn}: a stand-in is a coarse thing, and its figure is wanted to
 * a tenth, not to the 2 % a simplified mesh is (a window's sheet cut 512 times over its frame
 * costs a millisecond, and a large project has thousands).
 */
export const MEASURE_STAND_IN_DEFAULTS: Readonly<MeasureStandInOptions> = {
  enough: 0,
  tolerance: 0.1,
  maxCuts: 64,
  sheetAt: 0.5,
  cap: Number.POSITIVE_INFINITY,
};

/**
 * Bounds, both ways and over whole triangles, the distance between a mesh and its stand-in: its
 * `parts` drawn as boxes, as sheets (a plane of each box across its thinnest side) or as rims
 * (a sheet with the frame's opening left open: a triangle over its face as by a sheet, one over
 * the opening bounded as the stand-in is, against it). The stand-in's triangles are bounded
 * against the mesh with a BVH (`farthestOnTriangle`). The mesh lies inside its boxes, so each
 * of its triangles is bounded against the box that holds it: by a
 * sheet, the farthest of its corners from the mid-plane; by a box, for the nearest face, the
 * farthest corner from that face's plane (the distance to the box's surface is the least of the
 * distances to its six planes, each linear over a triangle). Tighter than what a box's size
 * alone says by as much as a door's box is thinner than it is tall. `surface`: what the stand-in
 * is measured against, when more than the mesh (the element's other meshes drawn with it: a
 * window's glass beside its frame), and its BVH when the caller has it.
 *
 * @example
 * ```ts
 * const parts = proxyParts(window);
 * measureStandIn(window, sheetProxy(window, parts), parts, 'sheet'); // → { deviation: 0.04, uncovered: 0.05 }
 * ```
 */
export function measureStandIn(...args: Parameters<typeof boundStandIn>): StandInDistances {
  return boundStandIn(...args).distances;
}

/**
 * {@link measureStandIn}'s bounds, with the farthest point of the stand-in measured (`seen`): a
 * distance some point of it truly lies from the surface, where `deviation` may be looser.
 */
export function boundStandIn(
  source: Pick<SceneMesh, 'positions' | 'indices'>,
  standIn: Pick<SceneMesh, 'positions' | 'indices'>,
  parts: readonly Bounds[],
  kind: 'box' | 'sheet' | 'rim',
  surface: TriangleMesh = source,
  bvh: Bvh = buildBvh(surface),
  options: Partial<MeasureStandInOptions> = {},
): { distances: StandInDistances; seen: number } {
  const { enough, tolerance, maxCuts, sheetAt, cap } = { ...MEASURE_STAND_IN_DEFAULTS, ...options };
  // A sheet or rim is drawn from both sides, its back the same triangles as its face: each is
  // bounded once. A rim round an opening that reaches its outline (a door frame's, at the floor)
  // has a side of no width, whose triangles have no area and draw nothing.
  const deviationOf = () => farthestOf(drawnTriangles(standIn), surface, bvh, { enough, tolerance, maxCuts, cap });
  if (kind === 'rim') {
    // The mesh's side first, as for a box: a rim is measured under the cap of the cheaper
    // stand-ins, and its side is most often what takes it past (a frame drawn off its opening).
    const rim: TriangleMesh = { positions: standIn.positions, indices: standIn.indices };
    const uncovered = rimUncovered(source, rim, parts, { enough, tolerance, maxCuts, cap });
    if (uncovered >= cap) return { distances: { deviation: Number.POSITIVE_INFINITY, uncovered }, seen: 0 };
    const { upper: deviation, lower: seen } = deviationOf();
    if (deviation === Number.POSITIVE_INFINITY) return { distances: { deviation, uncovered: deviation }, seen };
    return { distances: { deviation, uncovered }, seen };
  }
  // The mesh's side first: it is linear in the triangles, and may settle the cap without a BVH.
  let uncovered = 0;
  const p = source.positions;
  for (let t = 0; t < source.indices.length; t += 3) {
    const a = source.indices[t]! * 3,
      b = source.indices[t + 1]! * 3,
      c = source.indices[t + 2]! * 3;
    let best = Number.POSITIVE_INFINITY;
    for (const part of parts) {
      if (!holdsTriangle(part, p, a, b, c)) continue;
      best = Math.min(best, kind === 'sheet' ? fromSheet(part, sheetAt, p, a, b, c) : fromBoxSurface(part, p, a, b, c));
    }
    // Every triangle lies in one piece, every piece in a box; were one left over, any point of a box is within its reach.
    if (best === Number.POSITIVE_INFINITY) best = Math.max(...parts.map((part) => acrossFrom(part, kind === 'sheet' ? sheetAt : 0.5)));
    uncovered = Math.max(uncovered, best);
  }
  if (uncovered >= cap) return { distances: { deviation: Number.POSITIVE_INFINITY, uncovered }, seen: 0 };
  const { upper: deviation, lower: seen } = deviationOf();
  return { distances: { deviation, uncovered }, seen };
}

/** The mesh with each triangle that has no area, or the corners of an earlier one (in any order), left out. */
function drawnTriangles(mesh: Pick<SceneMesh, 'positions' | 'indices'>): Pick<SceneMesh, 'positions' | 'indices'> {
  const p = mesh.positions,
    seen = new Set<string>(),
    kept: number[] = [];
  const corner = (v: number) => `${p[v * 3]},${p[v * 3 + 1]},${p[v * 3 + 2]}`;
  const normal: Vec3 = [0, 0, 0];
  for (let t = 0; t < mesh.indices.length; t += 3) {
    // A triangle on a line or a point has no normal: it draws nothing.
    if (triangleNormal(mesh, t / 3, normal).every((x) => x === 0)) continue;
    const key = [corner(mesh.indices[t]!), corner(mesh.indices[t + 1]!), corner(mesh.indices[t + 2]!)].sort().join(';');
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(mesh.indices[t]!, mesh.indices[t + 1]!, mesh.indices[t + 2]!);
  }
  return kept.length === mesh.indices.length ? mesh : { positions: p, indices: new Uint32Array(kept) };
}

/**
 * How far any point of `source` lies from its rim (`rim`, drawn round `parts`). A triangle inside
 * a part's box whose outline stays out of that part's opening lies over the rim's face, so its
 * distance is that from the rim's plane, largest at a corner: exact. Any other (over the opening:
 * a mullion, a handle) is bounded against the rim's triangles as a stand-in's are.
 */
function rimUncovered(
  source: Pick<SceneMesh, 'positions' | 'indices'>,
  rim: TriangleMesh,
  parts: readonly Bounds[],
  options: { enough: number; tolerance: number; maxCuts: number; cap: number },
): number {
  const p = source.positions;
  const faces = rimFaces(rim, parts);
  let farthest = options.enough;
  const rest: number[] = [];
  for (let t = 0; t < source.indices.length; t += 3) {
    const a = source.indices[t]! * 3,
      b = source.indices[t + 1]! * 3,
      c = source.indices[t + 2]! * 3;
    let best = Number.POSITIVE_INFINITY;
    parts.forEach((part, k) => {
      const face = faces[k]!;
      if (!holdsTriangle(part, p, a, b, c) || reachesInto(face.opening, p, face.u, face.v, a, b, c)) return;
      const { axis, middle } = face;
      best = Math.min(best, Math.max(Math.abs(p[a + axis]! - middle), Math.abs(p[b + axis]! - middle), Math.abs(p[c + axis]! - middle)));
    });
    if (best === Number.POSITIVE_INFINITY) rest.push(source.indices[t]!, source.indices[t + 1]!, source.indices[t + 2]!);
    else farthest = Math.max(farthest, best);
  }
  if (rest.length === 0 || farthest >= options.cap) return farthest;
  const over = { positions: p, indices: Uint32Array.from(rest) };
  return farthestOf(over, rim, buildBvh(rim), { ...options, enough: farthest }).upper;
}

function fromSheet(part: Bounds, at: number, p: Float32Array, a: number, b: number, c: number): number {
  const axis = thinnestAxis(part);
  const plane = sheetPlane(part, at);
  return Math.max(Math.abs(p[a + axis]! - plane), Math.abs(p[b + axis]! - plane), Math.abs(p[c + axis]! - plane));
}

function fromBoxSurface(part: Bounds, p: Float32Array, a: number, b: number, c: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let axis = 0; axis < 3; axis++) {
    const low = part.min[axis]!,
      high = part.max[axis]!;
    best = Math.min(
      best,
      Math.max(p[a + axis]! - low, p[b + axis]! - low, p[c + axis]! - low),
      Math.max(high - p[a + axis]!, high - p[b + axis]!, high - p[c + axis]!),
    );
  }
  return best;
}

/** Farthest any point inside the box can be from a plane `at` of the way across its thinnest side (half that side at the mid-plane). */
function acrossFrom(part: Bounds, at: number): number {
  const axis = thinnestAxis(part);
  return (part.max[axis]! - part.min[axis]!) * Math.max(at, 1 - at);
}

/**
 * An upper bound on how far any point of `from`'s triangles lies from `surface`, and the farthest
 * point measured (see `farthestOnTriangle`).
 */
function farthestOf(
  from: Pick<SceneMesh, 'positions' | 'indices'>,
  surface: TriangleMesh,
  bvh: Bvh,
  options: { enough: number; tolerance: number; maxCuts: number; cap?: number },
): FarthestBound {
  const cap = options.cap ?? Number.POSITIVE_INFINITY;
  const nearest = (x: number, y: number, z: number) => nearestTriangle(bvh, surface, x, y, z);
  const corners = new Float64Array(9);
  let upper = options.enough,
    lower = 0;
  for (let t = 0; t < from.indices.length; t += 3) {
    for (let k = 0; k < 3; k++) for (let a = 0; a < 3; a++) corners[k * 3 + a] = from.positions[from.indices[t + k]! * 3 + a]!;
    const bound = farthestOnTriangle(corners, surface, nearest, { ...options, cap, enough: upper });
    upper = Math.max(upper, bound.upper);
    lower = Math.max(lower, bound.lower);
    // A point this far is found: the rest cannot bring the stand-in back under the cap.
    if (lower >= cap) return { upper: Number.POSITIVE_INFINITY, lower };
  }
  return { upper, lower };
}
