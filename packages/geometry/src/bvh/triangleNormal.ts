import type { Vec3 } from '../types/vector.js';
import type { TriangleMesh } from './Bvh.js';

/**
 * The unit normal of triangle `t` (right-hand rule over its vertex order), written to `out`.
 * A degenerate triangle gives `[0, 0, 0]`.
 *
 * @example
 * ```ts
 * const hit = raycastFirst(bvh, mesh, eye, gaze);
 * if (hit) triangleNormal(mesh, hit.triangle, normal);
 * ```
 */
export function triangleNormal(mesh: TriangleMesh, t: number, out: Vec3): Vec3 {
  const p = mesh.positions,
    idx = mesh.indices;
  const a = idx[t * 3]! * 3,
    b = idx[t * 3 + 1]! * 3,
    c = idx[t * 3 + 2]! * 3;
  const e1x = p[b]! - p[a]!,
    e1y = p[b + 1]! - p[a + 1]!,
    e1z = p[b + 2]! - p[a + 2]!;
  const e2x = p[c]! - p[a]!,
    e2y = p[c + 1]! - p[a + 1]!,
    e2z = p[c + 2]! - p[a + 2]!;
  const nx = e1y * e2z - e1z * e2y,
    ny = e1z * e2x - e1x * e2z,
    nz = e1x * e2y - e1y * e2x;
  const len = Math.hypot(nx, ny, nz);
  if (len === 0) {
    out[0] = 0;
    out[1] = 0;
    out[2] = 0;
    return out;
  }
  out[0] = nx / len;
  out[1] = ny / len;
  out[2] = nz / len;
  return out;
}
