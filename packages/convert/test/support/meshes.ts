import { triangleDistanceSquared } from '@arsession/geometry';
import { boxProxy } from '../../src/budget/boxProxy.js';
import type { SceneMesh } from '../../src/index.js';

/** A point or size in x, y, z. */
export type Vec = [number, number, number];

/** An axis-aligned box from `min` to `max`, 12 triangles facing out. */
export function box(min: Vec, max: Vec): SceneMesh {
  const unit = boxProxy({ name: '', positions: new Float32Array([0, 0, 0, 1, 1, 1]), indices: new Uint32Array(0), material: 0 });
  return { ...unit, name: 'box', positions: unit.positions.map((v, i) => (v === 0 ? min[i % 3]! : max[i % 3]!)) };
}

/** Two meshes as one: `b`'s triangles after `a`'s (a frame and its glass, a frame and its mullion). */
export function joined(a: SceneMesh, b: SceneMesh): SceneMesh {
  return {
    ...a,
    positions: new Float32Array([...a.positions, ...b.positions]),
    indices: new Uint32Array([...a.indices, ...[...b.indices].map((i) => i + a.positions.length / 3)]),
  };
}

/** Meshes as one, each after the one before. */
export function joinedAll(meshes: readonly SceneMesh[]): SceneMesh {
  return meshes.reduce((a, b) => joined(a, b));
}

/** Distance from a point to the nearest triangle of a mesh, by brute force. */
export function distanceTo(mesh: Pick<SceneMesh, 'positions' | 'indices'>, x: number, y: number, z: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let t = 0; t < mesh.indices.length; t += 3)
    best = Math.min(
      best,
      triangleDistanceSquared(mesh.positions, mesh.indices[t]! * 3, mesh.indices[t + 1]! * 3, mesh.indices[t + 2]! * 3, x, y, z),
    );
  return Math.sqrt(best);
}

/** `perTriangle` points on each triangle of a mesh, spread by a fixed sequence (corners, edge midpoints, centroids and beyond). */
export function pointsOn(mesh: Pick<SceneMesh, 'positions' | 'indices'>, perTriangle: number): Vec[] {
  const out: Vec[] = [];
  const p = mesh.positions;
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const [a, b, c] = [0, 1, 2].map((k) => mesh.indices[t + k]! * 3) as Vec;
    for (let s = 0; s < perTriangle; s++) {
      // Barycentric points on a fixed low-discrepancy sequence, folded into the triangle.
      let u = (s * 0.618034) % 1,
        v = (s * 0.754878) % 1;
      if (u + v > 1) [u, v] = [1 - u, 1 - v];
      out.push([0, 1, 2].map((k) => p[a + k]! + u * (p[b + k]! - p[a + k]!) + v * (p[c + k]! - p[a + k]!)) as Vec);
    }
  }
  return out;
}
