import { buildBvh, nearestDistance, type Bvh, type TriangleMesh } from '@arsession/geometry';

/**
 * One surface of a mesh, to measure how far another version of the same mesh (triangles over the
 * same vertices) is from it: a simplified version measured against the full surface, or the full
 * one against the simplified. Points are measured with a BVH, with what is known for free first:
 * a triangle or an edge the surface has, or a vertex it uses, lies on it; a point is no farther
 * from the surface than from a corner on it.
 *
 * @example
 * ```ts
 * const probe = new DeviationProbe(full);
 * probe.farthest(simplified.indices, 0.02, (t, d) => d > 0.02 && strayed.push(t)); // → 0.004
 * ```
 */
export class DeviationProbe {
  private readonly bvh: Bvh;
  /** The surface's triangles at each vertex (compressed rows), once a measurement is large enough to repay them. */
  private rows: Rows | undefined;

  constructor(private readonly surface: TriangleMesh) {
    this.bvh = buildBvh(surface);
  }

  /**
   * Largest distance from the triangles `indices` to the surface, sampled at each triangle's edge
   * midpoints and centroid (its corners are the surface's own vertices when it is simplified from
   * it). `each` hears of every triangle measured, with its farthest point: exact beyond `cap`,
   * within it a bound no smaller than the truth and no larger than the largest returned.
   */
  farthest(indices: Uint32Array, cap: number, each?: (triangle: number, farthest: number) => void): number {
    const p = this.surface.positions;
    const rows = this.rowsFor(indices.length / 3);
    // Points within `cap` only raise `below`: a query may stop once it is sure a point is no
    // farther than that. Points beyond `cap` are measured in full, so each is exact.
    let below = 0, above = 0;
    let triangle = 0;
    const sample = (x: number, y: number, z: number, bound: number): void => {
      const d = this.distance(x, y, z, bound, below);
      if (d > triangle) triangle = d;
      if (d > cap) above = Math.max(above, d);
      else if (d > below) below = d;
    };
    for (let t = 0; t < indices.length; t += 3) {
      if (rows && hasTriangle(rows, this.surface.indices, indices, t)) continue;
      triangle = 0;
      for (let k = 0; k < 3; k++) {
        const a = indices[t + k]!, b = indices[t + ((k + 1) % 3)]!;
        if (rows && hasEdge(rows, this.surface.indices, a, b)) continue;
        // A midpoint is no farther from the surface than from the edge's ends, which are on it.
        const x = (p[a * 3]! + p[b * 3]!) / 2, y = (p[a * 3 + 1]! + p[b * 3 + 1]!) / 2, z = (p[a * 3 + 2]! + p[b * 3 + 2]!) / 2;
        sample(x, y, z, distanceTo(p, a, x, y, z));
      }
      const [x, y, z] = centroid(p, indices, t);
      sample(x, y, z, Math.min(distanceTo(p, indices[t]!, x, y, z), distanceTo(p, indices[t + 1]!, x, y, z), distanceTo(p, indices[t + 2]!, x, y, z)));
      each?.(t / 3, triangle);
    }
    return Math.max(below, above);
  }

  /**
   * Largest distance from every `stride`th triangle of `indices` to the surface, sampled at its
   * corners and centroid: the full mesh measured against a simplified surface, where what was
   * taken away shows.
   */
  farthestCorners(indices: Uint32Array, stride: number): number {
    const p = this.surface.positions;
    const rows = this.rowsFor(indices.length / 3 / stride);
    let worst = 0;
    for (let t = 0; t < indices.length; t += 3 * stride) {
      if (rows && hasTriangle(rows, this.surface.indices, indices, t)) continue;
      const [x, y, z] = centroid(p, indices, t);
      let bound = Infinity;
      for (let k = 0; k < 3; k++) {
        const v = indices[t + k]!;
        // A vertex the surface still uses is on it, and bounds the centroid's distance.
        if (rows && rows.start[v + 1]! > rows.start[v]!) bound = Math.min(bound, distanceTo(p, v, x, y, z));
        else worst = Math.max(worst, this.distance(p[v * 3]!, p[v * 3 + 1]!, p[v * 3 + 2]!, Infinity, worst));
      }
      worst = Math.max(worst, this.distance(x, y, z, bound, worst));
    }
    return worst;
  }

  /**
   * Distance from a point to the surface, knowing it is at most `bound`; or a bound on it no
   * larger than `within` when it is within that.
   */
  private distance(x: number, y: number, z: number, bound: number, within: number): number {
    if (bound <= within) return bound;
    return Math.min(bound, nearestDistance(this.bvh, this.surface, x, y, z, within));
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
  const a = indices[t]!, b = indices[t + 1]!, c = indices[t + 2]!;
  for (let r = rows.start[a]!; r < rows.start[a + 1]!; r++) {
    const f = rows.triangles[r]! * 3;
    const fa = surface[f]!, fb = surface[f + 1]!, fc = surface[f + 2]!;
    if ((fa === b || fb === b || fc === b) && (fa === c || fb === c || fc === c)) return true;
  }
  return false;
}

function centroid(p: Float32Array, indices: Uint32Array, t: number): [number, number, number] {
  const a = indices[t]! * 3, b = indices[t + 1]! * 3, c = indices[t + 2]! * 3;
  return [(p[a]! + p[b]! + p[c]!) / 3, (p[a + 1]! + p[b + 1]! + p[c + 1]!) / 3, (p[a + 2]! + p[b + 2]! + p[c + 2]!) / 3];
}

function distanceTo(p: Float32Array, v: number, x: number, y: number, z: number): number {
  return Math.hypot(p[v * 3]! - x, p[v * 3 + 1]! - y, p[v * 3 + 2]! - z);
}
