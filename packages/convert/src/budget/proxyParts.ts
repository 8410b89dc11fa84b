import type { Bounds } from '@arsession/geometry';
import { MeshoptSimplifier } from 'meshoptimizer';
import type { SceneMesh } from '../scene/SceneData.js';
import { pointBounds } from '../scene/pointBounds.js';

/** Options of {@link proxyParts}. */
export interface ProxyPartsOptions {
  /**
   * Two pieces are one part when the gap between their boxes is at most this share of the larger
   * box's diagonal: a chair's legs and seat touch, a rail clip's bolt sits in it.
   */
  gapShare: number;
  /** More parts than this are drawn as one box round them all: a box per bolt would cost more than the mesh. */
  maxParts: number;
}

/** Defaults of {@link proxyParts}. */
export const PROXY_PARTS_DEFAULTS: Readonly<ProxyPartsOptions> = { gapShare: 0.1, maxParts: 4 };

/**
 * The boxes a mesh's stand-in is drawn as: one round each group of its pieces (triangles
 * connected through shared positions) that lie close together, or one round all of it when they
 * are many. A box round pieces far apart draws what is not there — the clips at both rails of a
 * track, boxed as one, become a bar across the gauge on every sleeper. Every vertex the mesh's
 * triangles use lies in one of the boxes, and each box is touched on every face by its pieces.
 *
 * Call `await MeshoptSimplifier.ready` (from 'meshoptimizer') first.
 *
 * @example
 * ```ts
 * proxyParts(fastenings).length; // → 2: the clips at each rail, boxed apart
 * ```
 */
export function proxyParts(mesh: SceneMesh, options: Partial<ProxyPartsOptions> = {}): Bounds[] {
  const { gapShare, maxParts } = { ...PROXY_PARTS_DEFAULTS, ...options };
  const whole = [pointBounds(mesh.positions)];
  if (mesh.indices.length === 0) return whole;
  const boxes = mergeNear(pieceBoxes(mesh), gapShare);
  return boxes.length > maxParts ? whole : boxes;
}

/** The box of each piece of the mesh: its triangles joined through positions they share. */
function pieceBoxes(mesh: SceneMesh): Bounds[] {
  const weld = MeshoptSimplifier.generatePositionRemap(mesh.positions, 3);
  const pieces = new Pieces(weld.length);
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
    if (!box) boxOf.set(piece, (box = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] }));
    for (let k = 0; k < 3; k++) {
      box.min[k] = Math.min(box.min[k]!, p[v * 3 + k]!);
      box.max[k] = Math.max(box.max[k]!, p[v * 3 + k]!);
    }
  }
  return [...boxOf.values()];
}

/** Boxes merged, pairwise and again, while two lie within `gapShare` of the larger's diagonal. */
function mergeNear(boxes: Bounds[], gapShare: number): Bounds[] {
  const out = [...boxes];
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++) {
      for (let j = i + 1; j < out.length; j++) {
        if (gap(out[i]!, out[j]!) > gapShare * Math.max(diagonal(out[i]!), diagonal(out[j]!))) continue;
        out[i] = union(out[i]!, out[j]!);
        out.splice(j, 1);
        merged = true;
        break;
      }
    }
  }
  return out;
}

/** Distance between two boxes (0 when they overlap). */
function gap(a: Bounds, b: Bounds): number {
  let squared = 0;
  for (let k = 0; k < 3; k++) {
    const d = Math.max(0, a.min[k]! - b.max[k]!, b.min[k]! - a.max[k]!);
    squared += d * d;
  }
  return Math.sqrt(squared);
}

function diagonal(b: Bounds): number {
  return Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]);
}

function union(a: Bounds, b: Bounds): Bounds {
  return {
    min: [Math.min(a.min[0], b.min[0]), Math.min(a.min[1], b.min[1]), Math.min(a.min[2], b.min[2])],
    max: [Math.max(a.max[0], b.max[0]), Math.max(a.max[1], b.max[1]), Math.max(a.max[2], b.max[2])],
  };
}

/** Vertices joined into pieces (union–find). */
class Pieces {
  private readonly root: Uint32Array;

  constructor(count: number) {
    this.root = new Uint32Array(count);
    for (let v = 0; v < count; v++) this.root[v] = v;
  }

  find(v: number): number {
    while (this.root[v] !== v) {
      this.root[v] = this.root[this.root[v]!]!;
      v = this.root[v]!;
    }
    return v;
  }

  join(a: number, b: number): void {
    const ra = this.find(a),
      rb = this.find(b);
    if (ra !== rb) this.root[ra] = rb;
  }
}
