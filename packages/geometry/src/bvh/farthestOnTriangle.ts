import type { TriangleMesh } from './Bvh.js';
import { isSliver, triangleDistanceSquared } from './nearestDistance.js';
import { vectorLength } from './vectorLength.js';

/** Options of {@link farthestOnTriangle}. */
export interface FarthestOnTriangleOptions {
  /**
   * A piece sure to lie within this distance of the surface is not refined: the caller already
   * knows a point this far elsewhere, so nothing nearer changes its answer.
   */
  enough: number;
  /** A piece is settled once its bound is within this share above the farthest point measured… */
  tolerance: number;
  /** …or within this distance above it (the surface's units), so a triangle lying on the surface settles. */
  absolute: number;
  /** Pieces cut at most; beyond, each open piece settles at its bound (still an upper bound, looser). */
  maxCuts: number;
  /** Surface triangles known to lie near the triangle (those at its corners): tried from the start. */
  candidates: readonly number[];
  /** The corners' distances to the surface, when the caller has them (their nearest triangles among `candidates`): not searched again. */
  cornerDistances: readonly number[] | undefined;
  /**
   * Once a point this far is measured the caller has no use for a bound (a stand-in it would not
   * take): the search stops, and `upper` comes out infinite.
   */
  cap: number;
}

/** Defaults of {@link farthestOnTriangle}. */
export const FARTHEST_ON_TRIANGLE_DEFAULTS: Readonly<FarthestOnTriangleOptions> = {
  enough: 0,
  tolerance: 0.02,
  absolute: 0,
  maxCuts: 512,
  candidates: [],
  cornerDistances: undefined,
  cap: Number.POSITIVE_INFINITY,
};

/** How far a triangle strays from a surface, bounded from both sides. */
export interface FarthestBound {
  /** No point of the triangle is farther from the surface than this. */
  upper: number;
  /** A point of the triangle is this far from the surface: the farthest measured. */
  lower: number;
}

/** Surface triangles a piece keeps to measure against: its own nearest and its parent's. */
const CANDIDATES_PER_PIECE = 2;

/** A convex piece of the triangle (its corners, x y z each) and the surface triangles near it. */
interface Piece {
  corners: number[];
  near: number[];
  /** No point of the piece is farther from the surface than this. */
  bound: number;
  /** The surface triangle whose prism the piece was cut to lie in (-1 for none): cut again, it would stay whole. */
  within: number;
}

/** Pieces by their bound, the largest first (a binary heap). */
class PieceQueue {
  private readonly heap: Piece[] = [];

  get size(): number {
    return this.heap.length;
  }

  push(piece: Piece): void {
    const h = this.heap;
    let i = h.push(piece) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent]!.bound >= h[i]!.bound) break;
      [h[parent], h[i]] = [h[i]!, h[parent]!];
      i = parent;
    }
  }

  pop(): Piece {
    const h = this.heap,
      top = h[0]!,
      last = h.pop()!;
    if (h.length === 0) return top;
    h[0] = last;
    for (let i = 0; ; ) {
      const l = i * 2 + 1,
        r = l + 1;
      let largest = i;
      if (l < h.length && h[l]!.bound > h[largest]!.bound) largest = l;
      if (r < h.length && h[r]!.bound > h[largest]!.bound) largest = r;
      if (largest === i) return top;
      [h[largest], h[i]] = [h[i]!, h[largest]!];
      i = largest;
    }
  }
}

/**
 * An upper bound on the distance from every point of a triangle (not only chosen points) to a
 * surface, with the farthest point measured as a lower bound. The distance to one surface
 * triangle is convex, so over a convex piece of the triangle it is largest at a corner of the
 * piece, and the surface is no farther than any one of its triangles (Tang et al.,
 * "Interactive Hausdorff distance computation for general polygonal models", 2009, bound the
 * same way); and the distance to the surface moves no faster than the point, so over a piece it
 * is at most the distance at its centre plus its radius. A piece those bounds leave in doubt is
 * cut along the prism over its nearest surface triangle (the points that project into it, where
 * the distance to that triangle is the distance to its plane: a triangle lying on a flat surface
 * of many triangles is cut into the pieces over each and settles at 0), or halved when that
 * prism holds all of it. Pieces are settled once their bound is near the farthest point measured
 * (or below `enough`).
 *
 * `nearest` gives the surface's nearest triangle to a point (-1 for none): `nearestTriangle` over
 * a BVH of `surface`, or a scan of a small one.
 *
 * @example
 * ```ts
 * const bvh = buildBvh(full);
 * const { upper } = farthestOnTriangle([0, 0, 0, 1, 0, 0, 0, 1, 0], full, (x, y, z) => nearestTriangle(bvh, full, x, y, z));
 * upper; // → 0.004: no point of the triangle is more than 4 mm from the full surface
 * ```
 */
export function farthestOnTriangle(
  corners: ArrayLike<number>,
  surface: TriangleMesh,
  nearest: (x: number, y: number, z: number) => number,
  options: Partial<FarthestOnTriangleOptions> = {},
): FarthestBound {
  const { enough, tolerance, absolute, maxCuts, candidates, cornerDistances, cap } = { ...FARTHEST_ON_TRIANGLE_DEFAULTS, ...options };
  const p = surface.positions,
    idx = surface.indices;
  const distanceTo = (t: number, x: number, y: number, z: number): number =>
    Math.sqrt(triangleDistanceSquared(p, idx[t * 3]! * 3, idx[t * 3 + 1]! * 3, idx[t * 3 + 2]! * 3, x, y, z));
  /** A point's distance to the surface, its nearest triangle put first in `near`. */
  const probe = (x: number, y: number, z: number, near: number[]): number => {
    const t = nearest(x, y, z);
    if (t < 0) return Infinity;
    const at = near.indexOf(t);
    if (at !== 0) {
      if (at > 0) near.splice(at, 1);
      near.unshift(t);
    }
    return distanceTo(t, x, y, z);
  };

  /** Bounds at or below this need no refining. */
  // `enough` is a hard line: a tolerance on it would let a caller's running farthest creep up.
  const settledAt = () => Math.max(enough, lower * (1 + tolerance) + settled);
  /**
   * A piece with its bound: first from the surface triangles near its parent, then, when that
   * leaves it in doubt, with its centre measured (the nearest triangle there tried too).
   */
  const piece = (corners: number[], parentNear: readonly number[], within: number, keep = CANDIDATES_PER_PIECE): Piece => {
    const near = parentNear.slice(0, keep);
    let bound = Infinity;
    for (const t of near) bound = Math.min(bound, farthestCorner(corners, t, bound, distanceTo));
    if (bound <= settledAt()) return { corners, near, bound, within };
    const [cx, cy, cz] = centre(corners);
    const dc = probe(cx, cy, cz, near);
    lower = Math.max(lower, dc);
    bound = Math.min(bound, dc + radius(corners, cx, cy, cz));
    if (near.length > 0) bound = Math.min(bound, farthestCorner(corners, near[0]!, bound, distanceTo));
    return { corners, near, bound, within };
  };

  const first: number[] = [];
  for (let i = 0; i < 9; i++) first.push(corners[i]!);
  const near = [...candidates];
  let lower = cornerDistances ? Math.max(...cornerDistances) : 0;
  if (!cornerDistances) for (let k = 0; k < 9; k += 3) lower = Math.max(lower, probe(first[k]!, first[k + 1]!, first[k + 2]!, near));
  // Below a distance the coordinates cannot tell apart, a bound is as settled as it gets.
  let largest = 0;
  for (const v of first) largest = Math.max(largest, Math.abs(v));
  const settled = absolute + ROUNDING * (largest + lower);
  // The whole triangle tries every candidate it was given before any search: a few distances cost less than one.
  const root = piece(first, near, -1, near.length);
  // Most triangles settle whole: the rest of the set-up is for those that do not.
  if (root.bound <= settledAt() || maxCuts === 0 || root.near.length === 0) return { upper: Math.max(root.bound, lower), lower };
  // Cuts along a piece's own edge leave slivers without area: their points lie on their
  // neighbours (within `slack`), which count them. A triangle without area is all sliver: its
  // pieces are segments, halved and kept while they have length.
  const thin = THIN * span(first),
    degenerate = thickness(first) <= thin;
  let cuts = 0,
    slack = 0;
  // The piece with the largest bound first: once it is settled, so is every other.
  const queue = new PieceQueue();
  queue.push(root);
  let upper = 0;
  while (queue.size > 0) {
    if (lower >= cap) return { upper: Number.POSITIVE_INFINITY, lower };
    const top = queue.pop();
    if (top.bound <= settledAt() || cuts >= maxCuts || top.near.length === 0) {
      upper = top.bound;
      break;
    }
    cuts++;
    const prism = top.near[0]!;
    // A segment lying along a prism's side would come out of the cut whole on both sides of it:
    // a triangle without area is only ever halved.
    const byPrism = degenerate || prism === top.within ? undefined : cutByPrism(top.corners, p, idx, prism);
    const [cut, cutSliver] = byPrism ? substantial([byPrism.inside, ...byPrism.outside], thin, degenerate) : [[], 0];
    if (cut.length > 1) {
      slack = Math.max(slack, cutSliver);
      for (const part of cut) queue.push(piece(part, top.near, part === byPrism!.inside ? prism : -1));
      continue;
    }
    // A cut that leaves one piece (and slivers) took nothing off: the piece is halved instead.
    const [halves, sliver] = substantial(halve(top.corners), thin, degenerate);
    slack = Math.max(slack, sliver);
    for (const part of halves) queue.push(piece(part, top.near, top.within));
  }
  return { upper: Math.max(upper + slack, lower), lower };
}

/** Share of a triangle's coordinates below which distances are lost in rounding. */
const ROUNDING = 1e-10;

/** Pieces thinner than this share of the triangle's span are slivers a cut left on an edge. */
const THIN = 1e-9;

/** Twice a polygon's area over its longest span: how thick it is across that span. */
function thickness(q: number[]): number {
  let x = 0,
    y = 0,
    z = 0;
  for (let k = 3; k + 3 < q.length; k += 3) {
    const u = [q[k]! - q[0]!, q[k + 1]! - q[1]!, q[k + 2]! - q[2]!] as const;
    const v = [q[k + 3]! - q[0]!, q[k + 4]! - q[1]!, q[k + 5]! - q[2]!] as const;
    const c = cross(u, v);
    x += c[0];
    y += c[1];
    z += c[2];
  }
  const longest = span(q);
  return longest > 0 ? vectorLength(x, y, z) / longest : 0;
}

/** Longest distance between two corners of a polygon. */
function span(q: number[]): number {
  let best = 0;
  for (let i = 0; i < q.length; i += 3) {
    for (let j = i + 3; j < q.length; j += 3)
      best = Math.max(best, vectorLength(q[j]! - q[i]!, q[j + 1]! - q[i + 1]!, q[j + 2]! - q[i + 2]!));
  }
  return best;
}

/** Farthest corner of a piece from surface triangle `t`, or a value ≥ `stop` as soon as one is. */
function farthestCorner(q: number[], t: number, stop: number, distanceTo: (t: number, x: number, y: number, z: number) => number): number {
  let worst = 0;
  for (let k = 0; k < q.length && worst < stop; k += 3) worst = Math.max(worst, distanceTo(t, q[k]!, q[k + 1]!, q[k + 2]!));
  return worst;
}

/** Mean of a polygon's corners: a point inside it, as it is convex. */
function centre(q: number[]): [number, number, number] {
  let x = 0,
    y = 0,
    z = 0;
  for (let k = 0; k < q.length; k += 3) {
    x += q[k]!;
    y += q[k + 1]!;
    z += q[k + 2]!;
  }
  const n = q.length / 3;
  return [x / n, y / n, z / n];
}

/** Farthest corner of a polygon from a point in it. */
function radius(q: number[], x: number, y: number, z: number): number {
  let r = 0;
  for (let k = 0; k < q.length; k += 3) r = Math.max(r, vectorLength(q[k]! - x, q[k + 1]! - y, q[k + 2]! - z));
  return r;
}

/**
 * The polygon cut along the prism over surface triangle `t` (its edges swept along its normal):
 * the part inside, and the parts outside each side in turn (empty ones left out). Undefined for
 * a triangle without area (or too thin to tell its sides).
 */
function cutByPrism(q: number[], p: ArrayLike<number>, idx: Uint32Array, t: number): { inside: number[]; outside: number[][] } | undefined {
  const a = idx[t * 3]! * 3,
    b = idx[t * 3 + 1]! * 3,
    c = idx[t * 3 + 2]! * 3;
  const v = [a, b, c].map((o) => [p[o]!, p[o + 1]!, p[o + 2]!] as const);
  const e1 = sub(v[1]!, v[0]!),
    e2 = sub(v[2]!, v[0]!),
    n = cross(e1, e2);
  // As `triangleDistanceSquared` judges it: a triangle it measures as its edges has no prism.
  const e3 = sub(v[2]!, v[1]!);
  if (isSliver(dot(n, n), dot(e1, e1), dot(e2, e2), dot(e3, e3))) return undefined;
  const outside: number[][] = [];
  let inside = q;
  for (let k = 0; k < 3 && inside.length >= 9; k++) {
    const from = v[k]!,
      to = v[(k + 1) % 3]!;
    // Inward normal of the side: the triangle's normal crossed with the edge.
    const m = cross(n, sub(to, from));
    const offset = m[0] * from[0] + m[1] * from[1] + m[2] * from[2];
    outside.push(clip(inside, m, offset, -1, false));
    inside = clip(inside, m, offset, 1, true);
  }
  return { inside, outside };
}

/**
 * The parts thicker than `thin`, and the thickest of the slivers left out; of a triangle without
 * area (`segments`), the parts longer than `thin` (points left out lie on their neighbours).
 */
function substantial(parts: number[][], thin: number, segments: boolean): [number[][], number] {
  const kept: number[][] = [];
  let sliver = 0;
  for (const part of parts) {
    const width = segments ? 0 : part.length >= 9 ? thickness(part) : 0;
    if ((segments ? span(part) : width) > thin) kept.push(part);
    else sliver = Math.max(sliver, width);
  }
  return [kept, sliver];
}

/** The polygon cut in two across its longest span, through its centre. */
function halve(q: number[]): number[][] {
  let best = -1,
    ax = 0,
    ay = 0,
    az = 0;
  for (let i = 0; i < q.length; i += 3) {
    for (let j = i + 3; j < q.length; j += 3) {
      const dx = q[j]! - q[i]!,
        dy = q[j + 1]! - q[i + 1]!,
        dz = q[j + 2]! - q[i + 2]!;
      const d = dx * dx + dy * dy + dz * dz;
      if (d > best) [best, ax, ay, az] = [d, dx, dy, dz];
    }
  }
  const [cx, cy, cz] = centre(q);
  const offset = ax * cx + ay * cy + az * cz;
  return [clip(q, [ax, ay, az], offset, 1, true), clip(q, [ax, ay, az], offset, -1, false)];
}

/**
 * The part of a convex polygon on the positive side of a plane (`m · x ≥ offset`; strictly
 * above, when not `closed`), cut in the manner of Sutherland–Hodgman. Cutting a polygon with the
 * closed side and then the open one of the other parts every point to exactly one, even a
 * polygon lying in the plane.
 */
function clip(q: number[], m: readonly [number, number, number], offset: number, side: 1 | -1, closed: boolean): number[] {
  const out: number[] = [];
  const count = q.length / 3;
  const s = (k: number) => side * (m[0] * q[k * 3]! + m[1] * q[k * 3 + 1]! + m[2] * q[k * 3 + 2]! - offset);
  const keeps = (d: number) => (closed ? d >= 0 : d > 0);
  for (let k = 0; k < count; k++) {
    const next = (k + 1) % count;
    const sk = s(k),
      sn = s(next);
    if (keeps(sk)) out.push(q[k * 3]!, q[k * 3 + 1]!, q[k * 3 + 2]!);
    if (keeps(sk) !== keeps(sn) && sk !== sn) {
      const f = sk / (sk - sn);
      for (let i = 0; i < 3; i++) out.push(q[k * 3 + i]! + f * (q[next * 3 + i]! - q[k * 3 + i]!));
    }
  }
  return out;
}

function sub(a: readonly [number, number, number], b: readonly [number, number, number]): [number, number, number] {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

function dot(a: readonly [number, number, number], b: readonly [number, number, number]): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function cross(a: readonly [number, number, number], b: readonly [number, number, number]): [number, number, number] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
