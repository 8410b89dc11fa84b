import {
  buildBvh,
  farthestOnTriangle,
  nearestDistance,
  nearestTriangle,
  triangleDistanceSquared,
  vectorLength,
  type Bvh,
  type TriangleMesh,
} from '@arsession/geometry';

/**
 * One surface of a mesh, to measure how far another version of the same mesh (triangles over the
 * same vertices) is from it: a simplified version measured against the full surface, or the full
 * one against the simplified. What is known for free comes first: a triangle or an edge the
 * surface has, or a vertex it uses, lies on it; a point is no farther from the surface than from
 * a corner on it, nor than from the surface's triangles at that corner. Only points those leave
 * in doubt are searched for in a BVH, built the first time one is.
 *
 * @example
 * ```ts
 * const probe = new DeviationProbe(full);
 * const measured = probe.measure(simplified.indices, 0.02);
 * measured.triangles[t] > 0.02; // triangle t strays beyond 2 cm (exact there)
 * measured.max(); // → 0.004, the farthest point, exact
 * ```
 */
export class DeviationProbe {
  private readonly parts: SurfaceParts;
  /** The surface's triangles at each vertex (compressed rows), once a measurement is large enough to repay them. */
  private rows: Rows | undefined;

  /**
   * `partOfVertex`: the part each vertex belongs to (an element of a merged mesh; -1 for none),
   * when a point is to be measured against its own part of the surface only: how far an element
   * strays from its own full surface, not from a neighbour's. Every triangle's corners, of the
   * surface and of the versions measured, lie in one part (a merged mesh welded within its
   * elements). Without it the surface is one part.
   */
  constructor(
    private readonly surface: TriangleMesh,
    partOfVertex?: Int32Array,
  ) {
    this.parts = new SurfaceParts(surface, partOfVertex);
  }

  /**
   * Farthest point of the triangles `indices` from the surface, sampled at each triangle's edge
   * midpoints and centroid (its corners are the surface's own vertices when it is simplified from
   * it): exact.
   */
  farthest(indices: Uint32Array): number {
    return this.measure(indices, Infinity).max();
  }

  /**
   * The triangles `indices` measured at their edge midpoints and centroid: each triangle's
   * farthest point exact beyond `cap` and bounded within it, so what strays is known at the cost
   * of what does; the exact farthest of any subset follows on request ({@link DeviationMeasurement.max}).
   */
  measure(indices: Uint32Array, cap: number): DeviationMeasurement {
    const points = new SamplePoints(this.surface.positions, indices, this.rowsFor(indices.length / 3), this.surface.indices);
    // Beyond the cap every point is tightened until it is sure to be within it, or exact.
    for (let i = 0; i < points.count; i++) if (points.bound[i]! > cap) this.tighten(points, i, cap);
    return new DeviationMeasurement(points, (i, within) => this.tighten(points, i, within));
  }

  /**
   * An upper bound on the distance from every point of the triangles `indices` (not only chosen
   * points) to the surface, each against its own part; triangles of a part the surface has
   * nothing of are left out (the caller counts such a part by its size). Tight to a few percent
   * (see `farthestOnTriangle`), and to `absolute` (the surface's units) for triangles lying on it.
   * A triangle sure to be within `enough` is not refined further: the caller knows a larger
   * distance elsewhere, so the bound may come out anywhere up to it.
   */
  bound(indices: Uint32Array, enough = 0, absolute = 0): number {
    let worst = enough;
    // Each triangle's bound raises the line the next ones settle at.
    this.boundEach(
      indices,
      () => worst,
      absolute,
      (_, upper) => (worst = Math.max(worst, upper)),
    );
    return worst;
  }

  /**
   * Which triangles of `indices` may have a point farther than `cap` from the surface (1), by
   * the bound over whole triangles of {@link bound}: those sure to be within it are 0.
   */
  exceeding(indices: Uint32Array, cap: number): Uint8Array {
    const over = new Uint8Array(indices.length / 3);
    this.boundEach(
      indices,
      () => cap,
      0,
      (t, upper) => (over[t] = upper > cap ? 1 : 0),
    );
    return over;
  }

  /**
   * Bounds each triangle of `indices` the surface does not have, of a part it has, and tells
   * `visit` those that may exceed `line()` (their bound; the rest settle under the line).
   */
  private boundEach(indices: Uint32Array, line: () => number, absolute: number, visit: (triangle: number, upper: number) => void): void {
    // Rows always repay here: each triangle they settle or seed spares a refinement.
    const rows = this.rowsFor(Infinity)!;
    const known = new CornerDistances(this.surface.positions.length / 3);
    const corners = new Float64Array(9);
    const distances: [number, number, number] = [0, 0, 0];
    const candidates: number[] = [];
    const at = (t: number) => {
      candidates.length = 0;
      for (let k = 0; k < 3; k++)
        distances[k] = this.cornerDistance(indices[t * 3 + k]!, indices[t * 3]!, rows, known, candidates, corners, k);
      // Every point of the triangle is within its covering radius of a corner.
      return Math.max(...distances) + longestSide(corners) / Math.sqrt(3);
    };
    // Triangles by that cheap bound, largest first: the farthest is met early, and once the cheap
    // bound is under the line, so is every triangle after.
    const open: number[] = [],
      cheap = new Float64Array(indices.length / 3);
    for (let t = 0; t < indices.length / 3; t++) {
      if (hasTriangle(rows, this.surface.indices, indices, t * 3) || !this.parts.has(indices[t * 3]!)) continue;
      cheap[t] = at(t);
      if (cheap[t]! > line()) open.push(t);
    }
    open.sort((a, b) => cheap[b]! - cheap[a]!);
    for (const t of open) {
      const enough = line();
      if (cheap[t]! <= enough) break;
      at(t);
      const first = indices[t * 3]!;
      const { upper } = farthestOnTriangle(corners, this.surface, (x, y, z) => this.parts.nearestTriangle(first, x, y, z), {
        enough,
        absolute,
        candidates,
        cornerDistances: distances,
      });
      visit(t, upper);
    }
  }

  /**
   * Distance from vertex `v` (put in `corners` as corner `k`) to the surface of the part of
   * vertex `of`, its nearest triangles added to `candidates`: 0 for a corner of a triangle of that part, else searched (once per
   * vertex of that part, kept in `known`).
   */
  private cornerDistance(
    v: number,
    of: number,
    rows: Rows,
    known: CornerDistances,
    candidates: number[],
    corners: Float64Array,
    k: number,
  ): number {
    const p = this.surface.positions;
    for (let c = 0; c < 3; c++) corners[k * 3 + c] = p[v * 3 + c]!;
    let on = false;
    for (let r = rows.start[v]!; r < rows.start[v + 1]!; r++) {
      const f = rows.triangles[r]!;
      if (!this.parts.samePart(this.surface.indices[f * 3]!, of)) continue;
      on = true;
      if (candidates.length < MAX_CANDIDATES) candidates.push(f);
    }
    if (on) return 0;
    const own = this.parts.samePart(v, of);
    if (!own || !known.has(v)) {
      const idx = this.surface.indices;
      const f = this.parts.nearestTriangle(of, p[v * 3]!, p[v * 3 + 1]!, p[v * 3 + 2]!);
      const d =
        f < 0
          ? Infinity
          : Math.sqrt(
              triangleDistanceSquared(
                p,
                idx[f * 3]! * 3,
                idx[f * 3 + 1]! * 3,
                idx[f * 3 + 2]! * 3,
                p[v * 3]!,
                p[v * 3 + 1]!,
                p[v * 3 + 2]!,
              ),
            );
      if (!own) {
        if (f >= 0) candidates.push(f);
        return d;
      }
      known.set(v, d, f);
    }
    if (known.nearest[v]! >= 0 && !candidates.includes(known.nearest[v]!)) candidates.push(known.nearest[v]!);
    return known.distance[v]!;
  }

  /**
   * Largest distance from every `stride`th triangle of `indices` to the surface, sampled at its
   * corners and centroid: the full mesh measured against a simplified surface, where what was
   * taken away shows. Triangles of a part the surface has nothing of are left out: a part
   * simplified away is the caller's to count (by its size, not by the distance to another).
   */
  farthestCorners(indices: Uint32Array, stride: number): number {
    const p = this.surface.positions;
    const rows = this.rowsFor(indices.length / 3 / stride);
    let worst = 0;
    for (let t = 0; t < indices.length; t += 3 * stride) {
      if (rows && hasTriangle(rows, this.surface.indices, indices, t)) continue;
      const first = indices[t]!;
      if (!this.parts.has(first)) continue;
      const [x, y, z] = centroid(p, indices, t);
      let bound = Infinity;
      for (let k = 0; k < 3; k++) {
        const v = indices[t + k]!;
        // A vertex the surface still uses is on it, and bounds the centroid's distance.
        if (rows && rows.start[v + 1]! > rows.start[v]!) bound = Math.min(bound, distanceTo(p, v, x, y, z));
        else worst = Math.max(worst, this.distance(first, p[v * 3]!, p[v * 3 + 1]!, p[v * 3 + 2]!, Infinity, worst));
      }
      worst = Math.max(worst, this.distance(first, x, y, z, bound, worst));
    }
    return worst;
  }

  /**
   * Brings point `i`'s bound to `within` or below, or makes it exact: first the surface's
   * triangles at its corners, then the BVH.
   */
  private tighten(points: SamplePoints, i: number, within: number): void {
    if (points.state[i] === EXACT) return;
    const [x, y, z] = points.at(i);
    if (points.state[i] === TRIVIAL && this.rows) {
      points.bound[i] = Math.min(points.bound[i]!, this.nearCorners(points, i, x, y, z));
      points.state[i] = LOCAL;
    }
    if (points.bound[i]! <= within) return;
    const d = this.parts.nearest(points.corners(i)[0]!, x, y, z, within);
    // Beyond `within` the search went to the end: the distance is exact.
    if (d > within) points.state[i] = EXACT;
    points.bound[i] = Math.min(points.bound[i]!, d);
  }

  /** Distance from a point of triangle `i >> 2` to the surface's triangles at the corners it lies between. */
  private nearCorners(points: SamplePoints, i: number, x: number, y: number, z: number): number {
    const rows = this.rows!,
      idx = this.surface.indices,
      p = this.surface.positions;
    let best = Infinity;
    for (const v of points.corners(i)) {
      for (let r = rows.start[v]!; r < rows.start[v + 1]!; r++) {
        const f = rows.triangles[r]! * 3;
        const d = triangleDistanceSquared(p, idx[f]! * 3, idx[f + 1]! * 3, idx[f + 2]! * 3, x, y, z);
        if (d < best) best = d;
      }
    }
    return Math.sqrt(best);
  }

  /**
   * Distance from a point to the surface (the part of vertex `of`), knowing it is at most
   * `bound`; or a bound on it no larger than `within` when it is within that.
   */
  private distance(of: number, x: number, y: number, z: number, bound: number, within: number): number {
    if (bound <= within) return bound;
    return Math.min(bound, this.parts.nearest(of, x, y, z, within));
  }

  /**
   * The rows, built when `measured` triangles will use them enough: they cost a pass over the
   * surface, 4 bytes per vertex and 12 per triangle of it, which a few thousand points on a large
   * merged mesh (a rail's 600 k triangles simplified to 4 k) would not repay.
   */
  private rowsFor(measured: number): Rows | undefined {
    const vertices = this.surface.positions.length / 3;
    if (this.rows || measured * ROWS_REPAID_PER_TRIANGLE < vertices) return this.rows;
    const idx = this.surface.indices;
    const start = new Uint32Array(vertices + 1);
    for (let i = 0; i < idx.length; i++) start[idx[i]! + 1]!++;
    for (let v = 0; v < vertices; v++) start[v + 1]! += start[v]!;
    const fill = start.slice(0, vertices);
    const triangles = new Uint32Array(idx.length);
    for (let i = 0; i < idx.length; i++) triangles[fill[idx[i]!]!++] = Math.floor(i / 3);
    this.rows = { start, triangles };
    return this.rows;
  }
}

/**
 * A version's triangles measured against a surface ({@link DeviationProbe.measure}): each
 * triangle's farthest sample point, and the exact farthest over any subset of them.
 */
export class DeviationMeasurement {
  /**
   * Per triangle, its farthest sample point from the surface: exact beyond the cap measured
   * with, within it a bound never nearer than the truth (0 for a triangle the surface has).
   */
  readonly triangles: Float64Array;

  /** @internal */
  constructor(
    private readonly points: SamplePoints,
    private readonly tighten: (point: number, within: number) => void,
  ) {
    this.triangles = new Float64Array(points.count / POINTS_PER_TRIANGLE);
    for (let i = 0; i < points.count; i++) {
      const t = i >> 2;
      if (points.bound[i]! > this.triangles[t]!) this.triangles[t] = points.bound[i]!;
    }
  }

  /**
   * The farthest sample point of the triangles `include` accepts (all by default), exact. Points
   * are tightened largest bound first, and only while a bound could still exceed the farthest
   * found: on a surface simplified little, most never need a search.
   */
  max(include: (triangle: number) => boolean = () => true): number {
    const { points } = this;
    let best = 0;
    const buckets = points.bucketsByBound((i) => include(i >> 2));
    for (const bucket of buckets) {
      if (bucket.upTo <= best) break;
      for (const i of bucket.points) {
        if (points.bound[i]! <= best) continue;
        this.tighten(i, best);
        if (points.bound[i]! > best) best = points.bound[i]!;
      }
    }
    return best;
  }
}

/** Sample points per triangle: three edge midpoints and the centroid. */
const POINTS_PER_TRIANGLE = 4;
/** How a point's bound was found: its distance to a corner, to the surface's triangles at its corners, or the surface's nearest (exact). */
const TRIVIAL = 0,
  LOCAL = 1,
  EXACT = 2;
/**
 * Bounds are ordered in steps of {@link BOUND_STEP} from the largest, this many; the rest share
 * the last. Fine steps stop the search soon after the farthest point is found.
 */
const BOUND_BUCKETS = 160;
/** Ratio of one bucket's largest bound to the next's: an eighth of a halving. */
const BOUND_STEP = 2 ** (1 / 8);

/**
 * The sample points of a version's triangles (point `4t + k`: the midpoint of edge k, or the
 * centroid for k = 3), each with an upper bound on its distance to the surface; 0 for a point
 * known to lie on it (a triangle or an edge the surface has).
 */
class SamplePoints {
  readonly count: number;
  readonly bound: Float64Array;
  readonly state: Uint8Array;

  constructor(
    private readonly p: Float32Array,
    private readonly indices: Uint32Array,
    rows: Rows | undefined,
    surface: Uint32Array,
  ) {
    this.count = (indices.length / 3) * POINTS_PER_TRIANGLE;
    this.bound = new Float64Array(this.count);
    this.state = new Uint8Array(this.count);
    for (let t = 0; t < indices.length / 3; t++) {
      if (rows && hasTriangle(rows, surface, indices, t * 3)) continue;
      for (let k = 0; k < 3; k++) {
        const a = indices[t * 3 + k]!,
          b = indices[t * 3 + ((k + 1) % 3)]!;
        if (rows && hasEdge(rows, surface, a, b)) continue;
        // A midpoint is no farther from the surface than from the edge's ends, which are on it.
        this.bound[t * 4 + k] = distance(p, a, b) / 2;
      }
      const [x, y, z] = centroid(p, indices, t * 3);
      this.bound[t * 4 + 3] = Math.min(
        distanceTo(p, indices[t * 3]!, x, y, z),
        distanceTo(p, indices[t * 3 + 1]!, x, y, z),
        distanceTo(p, indices[t * 3 + 2]!, x, y, z),
      );
    }
  }

  /** Where point `i` is. */
  at(i: number): [number, number, number] {
    const t = (i >> 2) * 3,
      k = i & 3;
    if (k === 3) return centroid(this.p, this.indices, t);
    const a = this.indices[t + k]! * 3,
      b = this.indices[t + ((k + 1) % 3)]! * 3,
      p = this.p;
    return [(p[a]! + p[b]!) / 2, (p[a + 1]! + p[b + 1]!) / 2, (p[a + 2]! + p[b + 2]!) / 2];
  }

  /** The corners point `i` lies between: an edge's two ends, or all three for the centroid. */
  corners(i: number): number[] {
    const t = (i >> 2) * 3,
      k = i & 3;
    return k === 3
      ? [this.indices[t]!, this.indices[t + 1]!, this.indices[t + 2]!]
      : [this.indices[t + k]!, this.indices[t + ((k + 1) % 3)]!];
  }

  /**
   * The points with a bound above 0 that `include` accepts, in buckets of falling bounds from
   * the largest (each with the largest bound it may hold): a counting sort, two passes.
   */
  bucketsByBound(include: (point: number) => boolean): Array<{ upTo: number; points: Uint32Array }> {
    let top = 0;
    for (let i = 0; i < this.count; i++) if (this.bound[i]! > top && include(i)) top = this.bound[i]!;
    if (top === 0) return [];
    const bucketOf = new Uint8Array(this.count).fill(BOUND_BUCKETS);
    const start = new Uint32Array(BOUND_BUCKETS + 1);
    for (let i = 0; i < this.count; i++) {
      if (!(this.bound[i]! > 0) || !include(i)) continue;
      let b = Math.min(BOUND_BUCKETS - 1, Math.floor(-Math.log2(this.bound[i]! / top) * 8));
      // log2 may round a bound just above a step into the bucket below it.
      while (b > 0 && this.bound[i]! > top / BOUND_STEP ** b) b--;
      bucketOf[i] = b;
      start[b + 1]!++;
    }
    for (let b = 0; b < BOUND_BUCKETS; b++) start[b + 1]! += start[b]!;
    const fill = start.slice(0, BOUND_BUCKETS);
    const order = new Uint32Array(start[BOUND_BUCKETS]!);
    for (let i = 0; i < this.count; i++) if (bucketOf[i]! < BOUND_BUCKETS) order[fill[bucketOf[i]!]!++] = i;
    return Array.from({ length: BOUND_BUCKETS }, (_, b) => ({
      upTo: top / BOUND_STEP ** b,
      points: order.subarray(start[b]!, start[b + 1]!),
    }));
  }
}

/**
 * The surface's triangles grouped by part (of their first corner), each part searched on its own:
 * a BVH built for a part the first time it is searched, only when it is large enough to repay
 * one (smaller parts are tried triangle by triangle). A measurement the free bounds settle
 * builds none. The last-resort (sloppy) reduction can leave a triangle whose corners lie in two
 * parts; it counts for its first corner's part only, so a point of the other part is measured
 * against fewer triangles than it could be: its distance can only come out larger, and the
 * deviation stays an upper bound.
 */
class SurfaceParts {
  /** Triangles of the surface ordered by part, and where each part's begin (part p at p + 1; -1, in none, at 0). */
  private readonly order: Uint32Array | undefined;
  private readonly start: Uint32Array | undefined;
  private readonly searched = new Map<number, { mesh: TriangleMesh; bvh: Bvh | undefined }>();

  constructor(
    private readonly surface: TriangleMesh,
    private readonly partOfVertex: Int32Array | undefined,
  ) {
    if (!partOfVertex) return;
    const idx = surface.indices,
      count = idx.length / 3;
    let parts = 0;
    for (let v = 0; v < partOfVertex.length; v++) parts = Math.max(parts, partOfVertex[v]! + 1);
    this.start = new Uint32Array(parts + 2);
    for (let t = 0; t < count; t++) this.start[partOfVertex[idx[t * 3]!]! + 2]!++;
    for (let k = 0; k <= parts; k++) this.start[k + 1]! += this.start[k]!;
    const fill = this.start.slice(0, parts + 1);
    this.order = new Uint32Array(count);
    for (let t = 0; t < count; t++) this.order[fill[partOfVertex[idx[t * 3]!]! + 1]!++] = t;
  }

  /** Whether vertices `a` and `b` lie in one part. */
  samePart(a: number, b: number): boolean {
    return !this.partOfVertex || this.partOfVertex[a] === this.partOfVertex[b];
  }

  /** Whether the surface has any triangle in the part of vertex `of`. */
  has(of: number): boolean {
    if (!this.partOfVertex) return this.surface.indices.length > 0;
    const k = this.partOfVertex[of]! + 1;
    return this.start![k + 1]! > this.start![k]!;
  }

  /** Distance from a point to the part of vertex `of` (see `nearestDistance` for `within`); Infinity when the part has none. */
  nearest(of: number, x: number, y: number, z: number, within: number): number {
    const { mesh, bvh } = this.searchedPart(of);
    if (bvh) return nearestDistance(bvh, mesh, x, y, z, within);
    const f = this.nearestTriangle(of, x, y, z);
    if (f < 0) return Infinity;
    const p = this.surface.positions,
      idx = this.surface.indices;
    return Math.sqrt(triangleDistanceSquared(p, idx[f * 3]! * 3, idx[f * 3 + 1]! * 3, idx[f * 3 + 2]! * 3, x, y, z));
  }

  /** The part vertex `of` lies in (0 for a surface of one part). */
  private partOf(of: number): number {
    return this.partOfVertex ? this.partOfVertex[of]! : 0;
  }

  /** The part of vertex `of`, its triangles as a mesh and their BVH, built the first time. */
  private searchedPart(of: number): { mesh: TriangleMesh; bvh: Bvh | undefined } {
    const part = this.partOf(of);
    let searched = this.searched.get(part);
    if (!searched) {
      const mesh = this.meshOf(part);
      searched = { mesh, bvh: mesh.indices.length / 3 > BRUTE_FORCE_TRIANGLES ? buildBvh(mesh) : undefined };
      this.searched.set(part, searched);
    }
    return searched;
  }

  /** The surface's triangle (its index in the whole surface) nearest a point, of the part of vertex `of`; -1 when the part has none. */
  nearestTriangle(of: number, x: number, y: number, z: number): number {
    const { mesh, bvh } = this.searchedPart(of);
    let local = -1;
    if (bvh) local = nearestTriangle(bvh, mesh, x, y, z);
    else {
      let best = Infinity;
      const p = mesh.positions,
        idx = mesh.indices;
      for (let f = 0; f < idx.length; f += 3) {
        const d = triangleDistanceSquared(p, idx[f]! * 3, idx[f + 1]! * 3, idx[f + 2]! * 3, x, y, z);
        if (d < best) [best, local] = [d, f / 3];
      }
    }
    return local < 0 || !this.order ? local : this.order[this.start![this.partOf(of) + 1]! + local]!;
  }

  /** One part's triangles as a mesh of their own (the surface itself when it is one part). */
  private meshOf(part: number): TriangleMesh {
    if (!this.order) return this.surface;
    const from = this.start![part + 1]!,
      to = this.start![part + 2]!;
    const indices = new Uint32Array((to - from) * 3);
    const all = this.surface.indices,
      order = this.order;
    for (let k = from, o = 0; k < to; k++, o += 3) {
      const t = order[k]! * 3;
      indices[o] = all[t]!;
      indices[o + 1] = all[t + 1]!;
      indices[o + 2] = all[t + 2]!;
    }
    return { positions: this.surface.positions, indices };
  }
}

/** Surface triangles at a measured triangle's corners tried as its first convex pieces, at most. */
const MAX_CANDIDATES = 6;

/** Each vertex's distance to the surface and nearest triangle, once searched (NaN before). */
class CornerDistances {
  readonly distance: Float64Array;
  readonly nearest: Int32Array;

  constructor(vertices: number) {
    this.distance = new Float64Array(vertices).fill(Number.NaN);
    this.nearest = new Int32Array(vertices).fill(-1);
  }

  has(v: number): boolean {
    return !Number.isNaN(this.distance[v]!);
  }

  set(v: number, distance: number, nearest: number): void {
    this.distance[v] = distance;
    this.nearest[v] = nearest;
  }
}

/** Parts of up to this many triangles are searched triangle by triangle: a BVH would not repay its build. */
const BRUTE_FORCE_TRIANGLES = 32;

/** Vertices of the surface one measured triangle repays in rows: each saves a few searches. */
const ROWS_REPAID_PER_TRIANGLE = 16;

type Rows = { start: Uint32Array; triangles: Uint32Array };

/** Whether the surface (`surface` indices, its `rows`) has an edge from `a` to `b`. */
function hasEdge(rows: Rows, surface: Uint32Array, a: number, b: number): boolean {
  for (let r = rows.start[a]!; r < rows.start[a + 1]!; r++) {
    const f = rows.triangles[r]! * 3;
    if (surface[f] === b || surface[f + 1] === b || surface[f + 2] === b) return true;
  }
  return false;
}

/** Whether the surface has triangle `t` of `indices` (its corners in any order). */
function hasTriangle(rows: Rows, surface: Uint32Array, indices: Uint32Array, t: number): boolean {
  const a = indices[t]!,
    b = indices[t + 1]!,
    c = indices[t + 2]!;
  for (let r = rows.start[a]!; r < rows.start[a + 1]!; r++) {
    const f = rows.triangles[r]! * 3;
    const fa = surface[f]!,
      fb = surface[f + 1]!,
      fc = surface[f + 2]!;
    if ((fa === b || fb === b || fc === b) && (fa === c || fb === c || fc === c)) return true;
  }
  return false;
}

/**
 * Longest side of the triangle `q` (x y z per corner): over √3, no point of the triangle is
 * farther than that from its nearest corner (the circumradius of an acute triangle, half the
 * longest side of any other).
 */
function longestSide(q: Float64Array): number {
  return Math.max(
    vectorLength(q[3]! - q[0]!, q[4]! - q[1]!, q[5]! - q[2]!),
    vectorLength(q[6]! - q[3]!, q[7]! - q[4]!, q[8]! - q[5]!),
    vectorLength(q[0]! - q[6]!, q[1]! - q[7]!, q[2]! - q[8]!),
  );
}

function centroid(p: Float32Array, indices: Uint32Array, t: number): [number, number, number] {
  const a = indices[t]! * 3,
    b = indices[t + 1]! * 3,
    c = indices[t + 2]! * 3;
  return [(p[a]! + p[b]! + p[c]!) / 3, (p[a + 1]! + p[b + 1]! + p[c + 1]!) / 3, (p[a + 2]! + p[b + 2]! + p[c + 2]!) / 3];
}

function distanceTo(p: Float32Array, v: number, x: number, y: number, z: number): number {
  return vectorLength(p[v * 3]! - x, p[v * 3 + 1]! - y, p[v * 3 + 2]! - z);
}

function distance(p: Float32Array, a: number, b: number): number {
  return vectorLength(p[a * 3]! - p[b * 3]!, p[a * 3 + 1]! - p[b * 3 + 1]!, p[a * 3 + 2]! - p[b * 3 + 2]!);
}
