import { MeshoptSimplifier } from 'meshoptimizer';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { MeshSimplification } from '../src/budget/MeshSimplification.js';
import type { SceneMesh } from '../src/scene/SceneData.js';

beforeAll(async () => {
  await MeshoptSimplifier.ready;
});

/** A wavy square terrain of `n` × `n` quads, 10 cm apart, rows laid out in order (as a merge lays elements). */
function terrain(n: number, amplitude: number, wavelength: number): SceneMesh {
  const positions = new Float32Array((n + 1) * (n + 1) * 3);
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) {
      const v = (i * (n + 1) + j) * 3;
      positions.set([i * 0.1, amplitude * Math.sin((i * 0.1) / wavelength) * Math.cos((j * 0.1) / wavelength), j * 0.1], v);
    }
  }
  const indices = new Uint32Array(n * n * 6);
  for (let i = 0, k = 0; i < n; i++) {
    for (let j = 0; j < n; j++, k += 6) {
      const a = i * (n + 1) + j, c = a + n + 1;
      indices.set([a, c, a + 1, a + 1, c, c + 1], k);
    }
  }
  return { name: 'terrain', positions, indices, material: 0 };
}

/** Edges used by one triangle only, as their two end points. */
function openEdges(mesh: SceneMesh): Array<[number[], number[]]> {
  const uses = new Map<string, number>();
  const key = (a: number, b: number) => (a < b ? `${a},${b}` : `${b},${a}`);
  for (let t = 0; t < mesh.indices.length; t += 3) {
    for (const [a, b] of [[0, 1], [1, 2], [2, 0]] as const) {
      const k = key(mesh.indices[t + a]!, mesh.indices[t + b]!);
      uses.set(k, (uses.get(k) ?? 0) + 1);
    }
  }
  const at = (v: number) => [...mesh.positions.subarray(v * 3, v * 3 + 3)];
  return [...uses].filter(([, n]) => n === 1).map(([k]) => k.split(',').map(Number)).map(([a, b]) => [at(a!), at(b!)]);
}

describe('MeshSimplification of a mesh larger than one simplifier call takes', () => {
  it('is simplified in runs that meet without a crack: every open edge of the result is on the terrain\'s own border', () => {
    // 350 × 350 quads: 245,000 triangles, over the 200,000 one call takes.
    fc.assert(fc.property(fc.double({ min: 0.05, max: 0.5, noNaN: true }), fc.double({ min: 2, max: 8, noNaN: true }), (amplitude, wavelength) => {
      const n = 350, side = n * 0.1;
      const mesh = terrain(n, amplitude, wavelength);
      const work = new MeshSimplification(mesh);
      work.tighten(0.01);
      expect(work.triangles).toBeLessThan(mesh.indices.length / 3 / 4);
      const onBorder = (p: number[]) => Math.abs(p[0]!) < 1e-4 || Math.abs(p[0]! - side) < 1e-3 || Math.abs(p[2]!) < 1e-4 || Math.abs(p[2]! - side) < 1e-3;
      for (const [a, b] of openEdges(work.result())) expect(onBorder(a) && onBorder(b), `open edge ${a} – ${b} inside the terrain`).toBe(true);
    }), { numRuns: 3 });
  });
});
