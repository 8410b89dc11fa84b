import { buildBvh, nearestDistance, type Bvh, type TriangleMesh } from '@arsession/geometry';

/**
 * One surface of a mesh, to measure how far another version of the same mesh (triangles over the
 * same vertices) is from it: a simplified version measured against the full surface, or the full
 * one against the simplified. Points are measured with a BVH, but first against the triangles
 * the surface has at the point's own corners: a point of a version that changed little is within
 * reach of those, and needs no search. A triangle the surface has as it is lies on it, and a
 * vertex it uses is on it: neither is measured.
 *
 * @example
 * ```ts
 * const probe = new DeviationProbe(full);
 * probe.farthest(simplified.indices, 0.02, (t, d) => d > 0.02 && strayed.push(t)); // → 0.004
 * ```
 */
export class DeviationProbe {
  private readonly bvh: Bvh;
  /** The surface's triangles at each vertex (compressed rows). */
  private readonly rowStart: Uint32Array;
  private readonly rowTriangles: Uint32Array;

  constructor(private readonly surface: TriangleMesh) {
    this.bvh = buildBvh(surface);
    const idx = surface.indices, vertices = surface.positions.length / 3;
    this.rowStart = new Uint32Array(vertices + 1);
    for (let i = 0; i < idx.length; i++) this.rowStart[idx[i]! + 1]!++;
    for (let v = 0; v < vertices; v++) this.rowStart[v + 1]! += this.rowStart[v]!;
    const fill = this.rowStart.slice(0, vertices);
    this.rowTriangles = new Uint32Array(idx.length);
    for (let i = 0; i < idx.length; i++) this.rowTriangles[fill[idx[i]!]!++] = Math.floor(i / 3);
  }

  /**
   * Largest distance from the triangles `indices` to the surface, sampled at each triangle's edge
   * midpoints and centroid (its corners are the surface's own vertices when it is simplified from
   * it). `each` hears of every triangle measured, with its farthest point: exact beyond `cap`,
   * within it a bound no smaller than the truth and no larger than the largest returned.
   */
  farthest(indices: Uint32Array, cap: number, each?: (triangle: number, farthest: number) => void): number {
    const p = this.surface.positions;
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
      if (this.hasTriangle(indices, t)) continue;
      triangle = 0;
      for (let k = 0; k < 3; k++) {
        const a = indices[t + k]!, b = indices[t + ((k + 1) % 3)]!;
        if (this.hasEdge(a, b)) continue;
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
    let worst = 0;
    for (let t = 0; t < indices.length; t += 3 * stride) {
      if (this.hasTriangle(indices, t)) continue;
      const [x, y, z] = centroid(p, indices, t);
      let bound = Infinity;
      for (let k = 0; k < 3; k++) {
        const v = indices[t + k]!;
        // A vertex the surface still uses is on it, and bounds the centroid's distance.
        if (this.uses(v)) bound = Math.min(bound, distanceTo(p, v, x, y, z));
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

  /** Whether the surface uses vertex `v`. */
  private uses(v: number): boolean {
    return this.rowStart[v + 1]! > this.rowStart[v]!;
  }

  /** Whether the surface has an edge from `a` to `b`. */
  private hasEdge(a: number, b: number): boolean {
    const idx = this.surface.indices;
    for (let r = this.rowStart[a]!; r < this.rowStart[a + 1]!; r++) {
      const f = this.rowTriangles[r]! * 3;
      if (idx[f] === b || idx[f + 1] === b || idx[f + 2] === b) return true;
    }
    return false;
  }

  /** Whether the surface has triangle `t` of `indices` (its corners in any order). */
  private hasTriangle(indices: Uint32Array, t: number): boolean {
    const a = indices[t]!, b = indices[t + 1]!, c = indices[t + 2]!;
    const idx = this.surface.indices;
    for (let r = this.rowStart[a]!; r < this.rowStart[a + 1]!; r++) {
      const f = this.rowTriangles[r]! * 3;
      const fa = idx[f]!, fb = idx[f + 1]!, fc = idx[f + 2]!;
      if ((fa === b || fb === b || fc === b) && (fa === c || fb === c || fc === c)) return true;
    }
    return false;
  }
}

function centroid(p: Float32Array, indices: Uint32Array, t: number): [number, number, number] {
  const a = indices[t]! * 3, b = indices[t + 1]! * 3, c = indices[t + 2]! * 3;
  return [(p[a]! + p[b]! + p[c]!) / 3, (p[a + 1]! + p[b + 1]! + p[c + 1]!) / 3, (p[a + 2]! + p[b + 2]! + p[c + 2]!) / 3];
}

function distanceTo(p: Float32Array, v: number, x: number, y: number, z: number): number {
  return Math.hypot(p[v * 3]! - x, p[v * 3 + 1]! - y, p[v * 3 + 2]! - z);
}
