import { INNER_NODE, type Bvh, type TriangleMesh } from './Bvh.js';

// Reused between calls: a query never nests, and this keeps the hot path allocation-free.
let stack = new Uint32Array(128);

/**
 * Distance from a point to the nearest triangle of a mesh, or `Infinity` for an empty mesh; a
 * query stops early once it is sure the answer is below `within` (then it returns a distance
 * ≤ `within`, not necessarily the nearest). Boxes farther than the best distance so far are
 * skipped, nearer child first, so a point on the surface costs a handful of leaves.
 *
 * @example
 * ```ts
 * const bvh = buildBvh(mesh);
 * nearestDistance(bvh, mesh, 0, 2, 0); // → 1 for the unit cube at the origin
 * ```
 */
export function nearestDistance(bvh: Bvh, mesh: TriangleMesh, x: number, y: number, z: number, within = 0): number {
  return Math.sqrt(searchNearest(bvh, mesh, x, y, z, within * within));
}

/**
 * The nearest triangle of a mesh to a point (its index into the mesh's triangles), or -1 for an
 * empty mesh: what a bound over a whole region needs, a convex piece of the surface to measure
 * the region's corners against (see {@link farthestOnTriangle}).
 *
 * @example
 * ```ts
 * const t = nearestTriangle(bvh, mesh, 0, 2, 0); // a triangle of the cube's top face
 * Math.sqrt(triangleDistanceSquared(mesh.positions, …t's corners…, 0, 2, 0)); // → 1
 * ```
 */
export function nearestTriangle(bvh: Bvh, mesh: TriangleMesh, x: number, y: number, z: number): number {
  if (bvh.links.length === 0) return -1;
  searchNearest(bvh, mesh, x, y, z, 0);
  return found;
}

/** The triangle the last {@link searchNearest} ended on. */
let found = -1;

/**
 * Squared distance to the nearest triangle (setting {@link found}), or a squared distance no
 * larger than `enough` once one is sure. Boxes farther than the best distance so far are
 * skipped, nearer child first, so a point on the surface costs a handful of leaves.
 */
function searchNearest(bvh: Bvh, mesh: TriangleMesh, x: number, y: number, z: number, enough: number): number {
  const { bounds, links, triangles } = bvh;
  found = -1;
  if (links.length === 0) return Infinity;
  const p = mesh.positions,
    idx = mesh.indices;
  let best = Infinity; // squared
  let top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const node = stack[--top]!;
    if (boxDistanceSquared(bounds, node, x, y, z) >= best) continue;
    const count = links[node * 2 + 1]!;
    if (count !== INNER_NODE) {
      const first = links[node * 2]!;
      for (let k = first; k < first + count; k++) {
        const t = triangles[k]!;
        const d = triangleDistanceSquared(p, idx[t * 3]! * 3, idx[t * 3 + 1]! * 3, idx[t * 3 + 2]! * 3, x, y, z);
        if (d < best) {
          best = d;
          found = t;
        }
      }
      if (best <= enough) break;
      continue;
    }
    if (top + 2 > stack.length) {
      const grown = new Uint32Array(stack.length * 2);
      grown.set(stack);
      stack = grown;
    }
    const left = node + 1,
      right = links[node * 2]!;
    if (boxDistanceSquared(bounds, left, x, y, z) <= boxDistanceSquared(bounds, right, x, y, z)) {
      stack[top++] = right;
      stack[top++] = left;
    } else {
      stack[top++] = left;
      stack[top++] = right;
    }
  }
  return best;
}

function boxDistanceSquared(bounds: Float32Array, node: number, x: number, y: number, z: number): number {
  const b = node * 6;
  const dx = Math.max(bounds[b]! - x, 0, x - bounds[b + 3]!);
  const dy = Math.max(bounds[b + 1]! - y, 0, y - bounds[b + 4]!);
  const dz = Math.max(bounds[b + 2]! - z, 0, z - bounds[b + 5]!);
  return dx * dx + dy * dy + dz * dz;
}

/**
 * Squared distance from a point to a triangle (the closest-point regions of Ericson, Real-Time
 * Collision Detection §5.1.5). Degenerate triangles fall into an edge or vertex region.
 */
export function triangleDistanceSquared(p: ArrayLike<number>, a: number, b: number, c: number, x: number, y: number, z: number): number {
  const ax = p[a]!,
    ay = p[a + 1]!,
    az = p[a + 2]!;
  const abx = p[b]! - ax,
    aby = p[b + 1]! - ay,
    abz = p[b + 2]! - az;
  const acx = p[c]! - ax,
    acy = p[c + 1]! - ay,
    acz = p[c + 2]! - az;
  const apx = x - ax,
    apy = y - ay,
    apz = z - az;
  // Ericson's regions assume a triangle with area: their signs are differences of products that
  // cancel on a sliver (an edge a millionth of the longest, or corners in a line), where they
  // would give a point on the triangle a distance. Such a triangle is measured as its three edges,
  // which are within its width (under a millionth of its longest edge) of every point of it.
  const nx = aby * acz - abz * acy,
    ny = abz * acx - abx * acz,
    nz = abx * acy - aby * acx;
  const bcx = p[c]! - p[b]!,
    bcy = p[c + 1]! - p[b + 1]!,
    bcz = p[c + 2]! - p[b + 2]!;
  if (
    isSliver(
      nx * nx + ny * ny + nz * nz,
      abx * abx + aby * aby + abz * abz,
      acx * acx + acy * acy + acz * acz,
      bcx * bcx + bcy * bcy + bcz * bcz,
    )
  ) {
    return Math.min(
      segmentDistanceSquared(apx, apy, apz, abx, aby, abz),
      segmentDistanceSquared(apx, apy, apz, acx, acy, acz),
      segmentDistanceSquared(x - p[b]!, y - p[b + 1]!, z - p[b + 2]!, bcx, bcy, bcz),
    );
  }
  const d1 = abx * apx + aby * apy + abz * apz,
    d2 = acx * apx + acy * apy + acz * apz;
  if (d1 <= 0 && d2 <= 0) return apx * apx + apy * apy + apz * apz;
  const bpx = x - p[b]!,
    bpy = y - p[b + 1]!,
    bpz = z - p[b + 2]!;
  const d3 = abx * bpx + aby * bpy + abz * bpz,
    d4 = acx * bpx + acy * bpy + acz * bpz;
  if (d3 >= 0 && d4 <= d3) return bpx * bpx + bpy * bpy + bpz * bpz;
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return along(apx, apy, apz, abx, aby, abz, ratio(d1, d1 - d3));
  const cpx = x - p[c]!,
    cpy = y - p[c + 1]!,
    cpz = z - p[c + 2]!;
  const d5 = abx * cpx + aby * cpy + abz * cpz,
    d6 = acx * cpx + acy * cpy + acz * cpz;
  if (d6 >= 0 && d5 <= d6) return cpx * cpx + cpy * cpy + cpz * cpz;
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return along(apx, apy, apz, acx, acy, acz, ratio(d2, d2 - d6));
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const bcx = p[c]! - p[b]!,
      bcy = p[c + 1]! - p[b + 1]!,
      bcz = p[c + 2]! - p[b + 2]!;
    return along(bpx, bpy, bpz, bcx, bcy, bcz, ratio(d4 - d3, d4 - d3 + (d5 - d6)));
  }
  // Inside the face: the distance to the plane.
  const denom = va + vb + vc;
  if (!(denom > 0)) return apx * apx + apy * apy + apz * apz;
  const v = vb / denom,
    w = vc / denom;
  const qx = apx - abx * v - acx * w,
    qy = apy - aby * v - acy * w,
    qz = apz - abz * v - acz * w;
  return qx * qx + qy * qy + qz * qz;
}

/**
 * Whether a triangle is too thin for Ericson's regions: twice its area (`n2`, its normal's squared
 * length) under a millionth of its longest edge squared (`ab2`, `ac2`, `bc2`, its edges' squares).
 */
export function isSliver(n2: number, ab2: number, ac2: number, bc2: number): boolean {
  const longest = Math.max(ab2, ac2, bc2);
  return !(n2 > 1e-12 * longest * longest);
}

/** Squared distance from a point at offset `d` from a segment's start to the segment along `e`. */
function segmentDistanceSquared(dx: number, dy: number, dz: number, ex: number, ey: number, ez: number): number {
  const e2 = ex * ex + ey * ey + ez * ez;
  const t = e2 > 0 ? Math.min(1, Math.max(0, (dx * ex + dy * ey + dz * ez) / e2)) : 0;
  return along(dx, dy, dz, ex, ey, ez, t);
}

/** `a / b`, or 0 for a zero-length edge (a degenerate triangle), where 0 / 0 would give NaN. */
function ratio(a: number, b: number): number {
  return b === 0 ? 0 : a / b;
}

/** Squared length of `d − t·e`: the offset from a point to the point at `t` along an edge. */
function along(dx: number, dy: number, dz: number, ex: number, ey: number, ez: number, t: number): number {
  const qx = dx - ex * t,
    qy = dy - ey * t,
    qz = dz - ez * t;
  return qx * qx + qy * qy + qz * qz;
}
