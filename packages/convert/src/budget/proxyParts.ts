import { type Bounds, vectorLength } from '@arsession/geometry';
import { MeshoptSimplifier } from 'meshoptimizer/simplifier';
import type { SceneMesh } from '../scene/SceneData.js';
import { emptyBounds, unionBounds } from '../scene/growBounds.js';
import { DisjointSets } from './DisjointSets.js';

/** Options of {@link proxyParts}. */
export interface ProxyPartsOptions {
  /**
   * Two pieces are one part when the gap between their boxes is at most this share of the larger
   * box's diagonal: a chair's legs and seat touch, a rail clip's bolt sits in it.
   */
  gapShare: number;
  /** More parts than this are drawn as one box round them all: a box per bolt would cost more than the mesh. */
  maxParts: number;
  /**
   * More pieces than this are one box round them all without grouping them: a shrub of a hundred
   * thousand loose leaves would cost a grouping far dearer than its box. (A track's fastening, the
   * clips at both rails, is 971 pieces.)
   */
  maxPieces: number;
  /**
   * A part is cut in two where its triangles fall into two boxes whose surface areas add up to at
   * most this share of its own box's: an L-shaped railing is a box along each run, not one round
   * the corner it turns; a straight bar, a flat frame or a chair (its halves' boxes as large as
   * the whole's) stays whole. Cut while there are fewer than `maxParts`, the hollowest first; 0
   * (the default) cuts nothing. The AR budget cuts envelope detail at its policy's `detailHollowShare`.
   */
  hollowShare: number;
}

/** Defaults of {@link proxyParts}. */
export const PROXY_PARTS_DEFAULTS: Readonly<ProxyPartsOptions> = { gapShare: 0.1, maxParts: 4, maxPieces: 8192, hollowShare: 0 };

/** Groups of pieces merged box by box only when this few: beyond, they are many parts whatever merges. */
const MERGED_BOX_BY_BOX = 64;

/**
 * The boxes a mesh's stand-in is drawn as: one round each group of its pieces (triangles joined
 * through shared positions) that lie close together, or one round all of them when they are
 * many. A box round pieces far apart draws what is not there — the clips at both rails of a
 * track, boxed as one, become a bar across the gauge on every sleeper. Boxes hold the vertices
 * the triangles use (not unused ones a mesh may carry), so every point of the mesh lies in a box
 * and each box is touched on all six faces by its pieces; none for a mesh without triangles.
 *
 * Call `await MeshoptSimplifier.ready` (from 'meshoptimizer') first.
 *
 * @example
 * ```ts
 * proxyParts(fastenings).length; // → 2: the clips at each rail, boxed apart
 * ```
 */
export function proxyParts(mesh: SceneMesh, options: Partial<ProxyPartsOptions> = {}): Bounds[] {
  const { gapShare, maxParts, maxPieces, hollowShare } = { ...PROXY_PARTS_DEFAULTS, ...options };
  const pieces = pieceBoxes(mesh);
  if (pieces.length === 0) return [];
  const groups = pieces.length > maxPieces ? [] : groupNear(pieces, gapShare);
  const parts = groups.length <= MERGED_BOX_BY_BOX ? mergeNear(groups, gapShare) : groups;
  const boxed = parts.length === 0 || parts.length > maxParts ? [pieces.reduce(unionBounds)] : parts;
  return boxed.length < maxParts && hollowShare > 0 ? cutHollow(mesh, boxed, maxParts, hollowShare) : boxed;
}

/** A part as it may be cut: its box and the triangles (by index) whose centres lie in it. */
interface CutPart {
  box: Bounds;
  triangles: number[];
  /** Its best cut in two, once looked for; null when none is worth it. */
  cut?: { share: number; halves: [CutPart, CutPart] } | null;
}

/**
 * The parts cut in two, the hollowest first, while one cuts into boxes whose surface areas add up
 * to at most `hollowShare` of its own and there are fewer than `maxParts`. Each triangle belongs
 * to the first part whose box holds its centre, and a half's box holds every vertex of its
 * triangles, so every point of the mesh still lies in a box.
 */
function cutHollow(mesh: SceneMesh, parts: Bounds[], maxParts: number, hollowShare: number): Bounds[] {
  const { positions: p, indices: idx } = mesh;
  const centres = new Float64Array(idx.length);
  for (let t = 0; t < idx.length; t += 3)
    for (let k = 0; k < 3; k++) centres[t + k] = (p[idx[t]! * 3 + k]! + p[idx[t + 1]! * 3 + k]! + p[idx[t + 2]! * 3 + k]!) / 3;
  const cutParts: CutPart[] = parts.map((box) => ({ box, triangles: [] }));
  for (let t = 0; t < idx.length / 3; t++) {
    const owner = cutParts.find((c) =>
      [0, 1, 2].every((k) => centres[t * 3 + k]! >= c.box.min[k]! && centres[t * 3 + k]! <= c.box.max[k]!),
    );
    owner?.triangles.push(t);
  }
  while (cutParts.length < maxParts) {
    let best: CutPart | undefined;
    for (const c of cutParts) {
      c.cut ??= bestCut(mesh, centres, c, hollowShare);
      if (c.cut && (!best || c.cut.share < best.cut!.share)) best = c;
    }
    if (!best) break;
    cutParts.splice(cutParts.indexOf(best), 1, ...best.cut!.halves);
  }
  return cutParts.map((c) => c.box);
}

/**
 * The cut of a part in two across one axis, between its triangles sorted by centre, whose boxes'
 * surface areas add up least, when that is at most `hollowShare` of the part's box's.
 */
function bestCut(mesh: SceneMesh, centres: Float64Array, part: CutPart, hollowShare: number): CutPart['cut'] {
  const whole = surfaceArea(part.box);
  const n = part.triangles.length;
  if (n < 2 || !(whole > 0)) return null;
  let best: { share: number; order: number[]; at: number } | undefined;
  for (let axis = 0; axis < 3; axis++) {
    const order = [...part.triangles].sort((a, b) => centres[a * 3 + axis]! - centres[b * 3 + axis]!);
    // Areas of the boxes of the first i triangles and of the last n − i, for every i.
    const before = runningAreas(mesh, order),
      after = runningAreas(mesh, order.slice().reverse());
    for (let i = 1; i < n; i++) {
      const share = (before[i - 1]! + after[n - i - 1]!) / whole;
      if (share <= hollowShare && (!best || share < best.share)) best = { share, order, at: i };
    }
  }
  if (!best) return null;
  const half = (triangles: number[]): CutPart => ({ box: trianglesBox(mesh, triangles), triangles });
  return { share: best.share, halves: [half(best.order.slice(0, best.at)), half(best.order.slice(best.at))] };
}

/** The surface area of the box round the first 1, 2, … of `triangles`. */
function runningAreas(mesh: SceneMesh, triangles: readonly number[]): Float64Array {
  const box = emptyBounds();
  const areas = new Float64Array(triangles.length);
  triangles.forEach((t, i) => {
    growByTriangle(box, mesh, t);
    areas[i] = surfaceArea(box);
  });
  return areas;
}

function trianglesBox(mesh: SceneMesh, triangles: readonly number[]): Bounds {
  const box = emptyBounds();
  for (const t of triangles) growByTriangle(box, mesh, t);
  return box;
}

function growByTriangle(box: Bounds, mesh: SceneMesh, t: number): void {
  for (let c = 0; c < 3; c++) {
    const v = mesh.indices[t * 3 + c]!;
    for (let k = 0; k < 3; k++) {
      // As `pieceBoxes` grows a box: −0 as +0, and a NaN coordinate never taken.
      const x = mesh.positions[v * 3 + k]! + 0;
      if (x < box.min[k]!) box.min[k] = x;
      if (x > box.max[k]!) box.max[k] = x;
    }
  }
}

function surfaceArea(b: Bounds): number {
  const [x, y, z] = [0, 1, 2].map((k) => Math.max(0, b.max[k]! - b.min[k]!)) as [number, number, number];
  return 2 * (x * y + y * z + z * x);
}

/** The box of each piece of the mesh: its triangles joined through positions they share. */
function pieceBoxes(mesh: SceneMesh): Bounds[] {
  const weld = MeshoptSimplifier.generatePositionRemap(mesh.positions, 3);
  const pieces = new DisjointSets(weld.length);
  const idx = mesh.indices;
  for (let t = 0; t < idx.length; t += 3) {
    pieces.join(weld[idx[t]!]!, weld[idx[t + 1]!]!);
    pieces.join(weld[idx[t]!]!, weld[idx[t + 2]!]!);
  }
  const boxOf = new Map<number, Bounds>();
  const p = mesh.positions;
  for (const v of idx) {
    const piece = pieces.find(weld[v]!);
    let box = boxOf.get(piece);
    if (!box) boxOf.set(piece, (box = emptyBounds()));
    for (let k = 0; k < 3; k++) {
      // As `pointBounds` grows a box: −0 as +0, and a NaN coordinate never taken.
      const c = p[v * 3 + k]! + 0;
      if (c < box.min[k]!) box.min[k] = c;
      if (c > box.max[k]!) box.max[k] = c;
    }
  }
  // A piece whose every coordinate along an axis is NaN has no box.
  return [...boxOf.values()].filter((b) => b.min.every((low, k) => low <= b.max[k]!));
}

/**
 * The boxes round groups of pieces linked when their boxes lie within `gapShare` of the larger's
 * diagonal. Swept along x: a piece is compared only with those that start within reach of its end.
 */
function groupNear(boxes: Bounds[], gapShare: number): Bounds[] {
  const diagonals = boxes.map(diagonal);
  const reach = gapShare * Math.max(...diagonals);
  const order = boxes.map((_, i) => i).sort((a, b) => boxes[a]!.min[0] - boxes[b]!.min[0]);
  const groups = new DisjointSets(boxes.length);
  for (let a = 0; a < order.length; a++) {
    const i = order[a]!;
    for (let b = a + 1; b < order.length; b++) {
      const j = order[b]!;
      // Every later box starts farther along x still: none is within reach.
      if (boxes[j]!.min[0] - boxes[i]!.max[0] > reach) break;
      if (gap(boxes[i]!, boxes[j]!) <= gapShare * Math.max(diagonals[i]!, diagonals[j]!)) groups.join(i, j);
    }
  }
  const byGroup = new Map<number, Bounds>();
  boxes.forEach((box, i) => {
    const g = groups.find(i);
    const sofar = byGroup.get(g);
    byGroup.set(g, sofar ? unionBounds(sofar, box) : box);
  });
  return [...byGroup.values()];
}

/**
 * Boxes merged while two lie within `gapShare` of the larger's diagonal (a group's box, grown
 * round its pieces, may reach another's): each pass takes every pair once.
 */
function mergeNear(boxes: Bounds[], gapShare: number): Bounds[] {
  const out = [...boxes];
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < out.length; i++) {
      for (let j = i + 1; j < out.length; ) {
        if (gap(out[i]!, out[j]!) > gapShare * Math.max(diagonal(out[i]!), diagonal(out[j]!))) {
          j++;
          continue;
        }
        out[i] = unionBounds(out[i]!, out[j]!);
        out.splice(j, 1);
        merged = true;
      }
    }
  }
  return out;
}

/** Distance between two boxes (0 when they overlap). */
function gap(a: Bounds, b: Bounds): number {
  const d = [0, 1, 2].map((k) => Math.max(0, a.min[k]! - b.max[k]!, b.min[k]! - a.max[k]!));
  return vectorLength(d[0]!, d[1]!, d[2]!);
}

function diagonal(b: Bounds): number {
  return vectorLength(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]);
}
