import fc from 'fast-check';
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

/** A scene drawing each mesh once, or `draws[m]` times (each draw a node of class `ifcClass`, when given). */
function scene(meshes: SceneMesh[], draws: number[] = [], ifcClass?: string): SceneData {
  const identity = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  const metadata: Record<string, string> = ifcClass ? { ifcClass } : {};
  const base = {
    nodes: meshes.flatMap((_, m) =>
      Array.from({ length: draws[m] ?? 1 }, (_, k) => ({ name: `n${m}.${k}`, parent: -1, matrix: identity, meshes: [m], metadata })),
    ),
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

describe('SceneSimplification.restoreWithin (the room under the budget)', () => {
  /** A slab drawn once and a smaller one drawn 30 times, both simplified at 5 cm. */
  const simplified = () => {
    const s = new SceneSimplification(scene([terrain(60), terrain(20)], [1, 30], 'IfcSlab'));
    s.round(0.05);
    return s;
  };
  /** What each mesh saved by the round, in drawn triangles, and the triangles drawn after it. */
  const savings = async () => {
    const s = simplified();
    const delivered = (await s.deliver(1000, 0.05)).scene.meshes;
    return { drawn: s.drawn, once: 7200 - delivered[0]!.indices.length / 3, thirty: (800 - delivered[1]!.indices.length / 3) * 30 };
  };

  it('gives back first the mesh that saved the fewest drawn triangles for what it costs to measure, never past the budget', async () => {
    const { drawn, once, thirty } = await savings();
    expect(once).toBeGreaterThan(0);
    expect(thirty).toBeGreaterThan(once);
    // Room for either, not both: the slab drawn once comes back whole, the one drawn 30 times stays simplified.
    const s = simplified();
    s.restoreWithin(drawn + thirty);
    expect(s.drawn).toBe(drawn + once);
    const { scene: delivered } = await s.deliver(1000, 0.05);
    expect(delivered.meshes[0]!.indices).toEqual(terrain(60).indices);
    expect(delivered.meshes[1]!.indices.length / 3).toBe(800 - thirty / 30);
  });

  it('with room for all, every mesh is delivered as read and nothing is counted as moved', async () => {
    const s = simplified();
    s.restoreWithin(7200 + 800 * 30);
    const { scene: delivered, maxDeviation, maxUncovered, categories } = await s.deliver(1000, 0.05);
    expect(delivered.meshes.map((m) => m.indices)).toEqual([terrain(60).indices, terrain(20).indices]);
    expect([maxDeviation, maxUncovered]).toEqual([0, 0]);
    expect(categories).toEqual([expect.objectContaining({ category: 'envelope', sourceTriangles: 31_200, deliveredTriangles: 31_200 })]);
  });

  it('whatever the room, the drawn total stays within the budget and a mesh not given back is delivered as simplified', async () => {
    const { drawn, once, thirty } = await savings();
    const without = (await simplified().deliver(1000, 0.05)).scene.meshes.map((m) => m.indices);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: drawn - 10, max: drawn + once + thirty + 10 }), async (budget) => {
        const s = simplified();
        s.restoreWithin(budget);
        expect(s.drawn).toBeLessThanOrEqual(Math.max(budget, drawn));
        const delivered = (await s.deliver(1000, 0.05)).scene.meshes;
        delivered.forEach((mesh, m) => {
          const full = [terrain(60), terrain(20)][m]!.indices;
          expect([full, without[m]]).toContainEqual(mesh.indices);
        });
      }),
      { numRuns: 12 },
    );
  });
});
