import { MeshoptSimplifier } from 'meshoptimizer';
import { beforeAll, describe, expect, it } from 'vitest';
import { SceneSimplification } from '../src/budget/SceneSimplification.js';
import { sceneStats } from '../src/scene/sceneStats.js';
import type { SceneData, SceneMesh } from '../src/scene/SceneData.js';

beforeAll(async () => {
  await MeshoptSimplifier.ready;
});

/** A wavy terrain of `n` × `n` quads, 10 cm apart. */
function terrain(n: number): SceneMesh {
  const positions = new Float32Array((n + 1) * (n + 1) * 3);
  for (let i = 0; i <= n; i++)
    for (let j = 0; j <= n; j++) positions.set([i * 0.1, 0.3 * Math.sin(i * 0.05) * Math.cos(j * 0.05), j * 0.1], (i * (n + 1) + j) * 3);
  const indices: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const a = i * (n + 1) + j,
        c = a + n + 1;
      indices.push(a, c, a + 1, a + 1, c, c + 1);
    }
  }
  return { name: 'terrain', positions, indices: new Uint32Array(indices), material: 0 };
}

/** A rail: a long thin strip of `segments` quads along x, `length` metres. */
function rail(length: number, segments: number, z: number): SceneMesh {
  const positions: number[] = [],
    indices: number[] = [];
  for (let i = 0; i <= segments; i++) positions.push((i / segments) * length, 0.2, z, (i / segments) * length, 0.2, z + 0.07);
  for (let i = 0; i < segments; i++) indices.push(i * 2, i * 2 + 1, i * 2 + 2, i * 2 + 1, i * 2 + 3, i * 2 + 2);
  return { name: 'rail', positions: new Float32Array(positions), indices: new Uint32Array(indices), material: 1 };
}

function scene(meshes: SceneMesh[]): SceneData {
  const identity = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  const base = {
    nodes: meshes.map((_, m) => ({ name: `n${m}`, parent: -1, matrix: identity, meshes: [m], metadata: {} })),
    meshes,
    materials: [],
    textures: [],
  };
  return {
    source: { format: 'glb' },
    ...base,
    offset: [0, 0, 0],
    bounds: { min: [0, -1, 0], max: [300, 1, 30] },
    warnings: [],
    stats: sceneStats(base),
  };
}

describe('SceneSimplification.reduceToFit (the last resort)', () => {
  it('keeps small meshes whole and takes what the budget needs from the largest', () => {
    // 245,000 triangles of terrain beside two 300 m rails of 400 triangles each.
    const simplification = new SceneSimplification(scene([terrain(350), rail(300, 200, 0), rail(300, 200, 1.5)]));
    simplification.reduceToFit(10_000);
    expect(simplification.drawn).toBeLessThanOrEqual(10_000);
    expect(simplification.drawn).toBeGreaterThan(9_000);
    const delivered = simplification.deliver(1000, 1).scene.meshes;
    expect(delivered.map((m) => m.indices.length / 3).slice(1)).toEqual([400, 400]);
  });

  it('when every mesh must give, each keeps the same number of triangles per draw at most', () => {
    const simplification = new SceneSimplification(scene([terrain(100), terrain(60), rail(300, 200, 0)]));
    simplification.reduceToFit(3_000);
    const delivered = simplification.deliver(1000, 1).scene.meshes.map((m) => m.indices.length / 3);
    expect(delivered.reduce((a, b) => a + b)).toBeLessThanOrEqual(3_000);
    // 400 + 2 × 1,300: the rail whole, the two terrains alike, whatever their sizes before.
    expect(delivered[2]).toBe(400);
    expect(Math.abs(delivered[0]! - delivered[1]!)).toBeLessThan(200);
  });
});
