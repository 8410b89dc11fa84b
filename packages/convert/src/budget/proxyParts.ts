import { type Bounds, vectorLength } from '@arsession/geometry';
import { MeshoptSimplifier } from 'meshoptimizer';
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
}

/** Defaults of {@link proxyParts}. */
export const PROXY_PARTS_DEFAULTS: Readonly<ProxyPartsOptions> = { gapShare: 0.1, maxParts: 4, maxPieces: 8192 };

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
  const { gapShare, maxParts, maxPieces } = { ...PROXY_PARTS_DEFAULTS, ...options };
  const pieces = pieceBoxes(mesh);
  if (pieces.length === 0) return [];
  const groups = pieces.length > maxPieces ? [] : groupNear(pieces, gapShare);
  const parts = groups.length <= MERGED_BOX_BY_BOX ? mergeNear(groups, gapShare) : groups;
  return parts.length === 0 || parts.length > maxParts ? [pieces.reduce(unionBounds)] : parts;
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
