import type { SceneMesh } from './SceneData.js';

/**
 * The area of a mesh's triangles, in its own units squared: how much surface it covers.
 *
 * @example
 * ```ts
 * meshArea({ positions: new Float32Array([0, 0, 0, 2, 0, 0, 0, 3, 0]), indices: new Uint32Array([0, 1, 2]) }); // → 3
 * ```
 */
export function meshArea({ positions: p, indices }: Pick<SceneMesh, 'positions' | 'indices'>): number {
  let area = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3,
      b = indices[t + 1]! * 3,
      c = indices[t + 2]! * 3;
    const [ux, uy, uz] = [p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!];
    const [vx, vy, vz] = [p[c]! - p[a]!, p[c + 1]! - p[a + 1]!, p[c + 2]! - p[a + 2]!];
    area += Math.sqrt((uy * vz - uz * vy) ** 2 + (uz * vx - ux * vz) ** 2 + (ux * vy - uy * vx) ** 2) / 2;
  }
  return area;
}
