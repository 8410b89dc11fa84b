import type { ReadonlyVec3 } from '../types/vector.js';
import { INNER_NODE, type Bvh, type TriangleMesh } from './Bvh.js';

/** The nearest hit of a ray. */
export interface RayHit {
  /** Distance along the (normalised) direction. */
  distance: number;
  /** Triangle index into the mesh's index buffer (triangle t uses indices 3t … 3t+2). */
  triangle: number;
  /** Barycentric coordinates of the hit on that triangle (weights of its 2nd and 3rd vertex). */
  u: number;
  v: number;
}

const EPSILON = 1e-9;
// Reused between calls: a traversal never nests, and this keeps the hot path allocation-free.
let stack = new Uint32Array(128);

/**
 * The first triangle a ray hits, from either side (walls are seen from both rooms), within
 * `maxDistance`. `direction` need not be normalised; distances are in its length units. With
 * `accept`, triangles it rejects are passed through (e.g. to see only one element's surfaces).
 * Fills and returns `out`, or returns `undefined` when nothing is hit.
 *
 * @example
 * ```ts
 * const hit = raycastFirst(bvh, mesh, [0, 1.6, 0], [0, 0, -1], 50);
 * hit?.distance; // metres to the wall in front
 * ```
 */
export function raycastFirst(
  bvh: Bvh,
  mesh: TriangleMesh,
  origin: ReadonlyVec3,
  direction: ReadonlyVec3,
  maxDistance = Infinity,
  out: RayHit = { distance: 0, triangle: -1, u: 0, v: 0 },
  accept?: (triangle: number) => boolean,
): RayHit | undefined {
  const { bounds, links, triangles } = bvh;
  if (links.length === 0) return undefined;
  const p = mesh.positions,
    idx = mesh.indices;
  const len = Math.sqrt(direction[0] * direction[0] + direction[1] * direction[1] + direction[2] * direction[2]);
  if (!(len > 0)) return undefined;
  const ox = origin[0],
    oy = origin[1],
    oz = origin[2];
  const dx = direction[0] / len,
    dy = direction[1] / len,
    dz = direction[2] / len;
  const ix = 1 / dx,
    iy = 1 / dy,
    iz = 1 / dz;
  let best = maxDistance,
    bestTri = -1,
    bestU = 0,
    bestV = 0;

  let top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const node = stack[--top]!;
    // Slab test against the node's box, clipped to the best hit so far.
    const b = node * 6;
    let t0 = ((ix >= 0 ? bounds[b]! : bounds[b + 3]!) - ox) * ix;
    let t1 = ((ix >= 0 ? bounds[b + 3]! : bounds[b]!) - ox) * ix;
    const ty0 = ((iy >= 0 ? bounds[b + 1]! : bounds[b + 4]!) - oy) * iy;
    const ty1 = ((iy >= 0 ? bounds[b + 4]! : bounds[b + 1]!) - oy) * iy;
    if (ty0 > t0) t0 = ty0;
    if (ty1 < t1) t1 = ty1;
    const tz0 = ((iz >= 0 ? bounds[b + 2]! : bounds[b + 5]!) - oz) * iz;
    const tz1 = ((iz >= 0 ? bounds[b + 5]! : bounds[b + 2]!) - oz) * iz;
    if (tz0 > t0) t0 = tz0;
    if (tz1 < t1) t1 = tz1;
    // A NaN (0 × ∞: origin on a slab plane with a zero direction component) fails every
    // comparison, so the box is kept rather than wrongly skipped; the triangle test decides.
    if (t0 > t1 || t1 < 0 || t0 > best) continue;

    const count = links[node * 2 + 1]!;
    if (count !== INNER_NODE) {
      const first = links[node * 2]!;
      for (let k = first; k < first + count; k++) {
        const t = triangles[k]!;
        const a = idx[t * 3]! * 3,
          bb = idx[t * 3 + 1]! * 3,
          c = idx[t * 3 + 2]! * 3;
        const ax = p[a]!,
          ay = p[a + 1]!,
          az = p[a + 2]!;
        const e1x = p[bb]! - ax,
          e1y = p[bb + 1]! - ay,
          e1z = p[bb + 2]! - az;
        const e2x = p[c]! - ax,
          e2y = p[c + 1]! - ay,
          e2z = p[c + 2]! - az;
        // Möller–Trumbore, no culling: the determinant's sign only says which side was hit.
        const px = dy * e2z - dz * e2y,
          py = dz * e2x - dx * e2z,
          pz = dx * e2y - dy * e2x;
        const det = e1x * px + e1y * py + e1z * pz;
        if (det > -EPSILON && det < EPSILON) continue;
        const inv = 1 / det;
        const sx = ox - ax,
          sy = oy - ay,
          sz = oz - az;
        const u = (sx * px + sy * py + sz * pz) * inv;
        if (u < 0 || u > 1) continue;
        const qx = sy * e1z - sz * e1y,
          qy = sz * e1x - sx * e1z,
          qz = sx * e1y - sy * e1x;
        const v = (dx * qx + dy * qy + dz * qz) * inv;
        if (v < 0 || u + v > 1) continue;
        const dist = (e2x * qx + e2y * qy + e2z * qz) * inv;
        if (dist >= 0 && dist < best && (accept === undefined || accept(t))) {
          best = dist;
          bestTri = t;
          bestU = u;
          bestV = v;
        }
      }
      continue;
    }
    if (top + 2 > stack.length) {
      const grown = new Uint32Array(stack.length * 2);
      grown.set(stack);
      stack = grown;
    }
    // Visit the nearer child first (pushed last), so the best distance shrinks early.
    const left = node + 1,
      right = links[node * 2]!;
    const axisDir = Math.abs(dx) >= Math.abs(dy) && Math.abs(dx) >= Math.abs(dz) ? 0 : Math.abs(dy) >= Math.abs(dz) ? 1 : 2;
    const dirPositive = (axisDir === 0 ? dx : axisDir === 1 ? dy : dz) >= 0;
    const leftFirst = dirPositive === bounds[left * 6 + axisDir]! <= bounds[right * 6 + axisDir]!;
    if (leftFirst) {
      stack[top++] = right;
      stack[top++] = left;
    } else {
      stack[top++] = left;
      stack[top++] = right;
    }
  }
  if (bestTri < 0) return undefined;
  out.distance = best;
  out.triangle = bestTri;
  out.u = bestU;
  out.v = bestV;
  return out;
}
