import { describe, expect, it } from 'vitest';
import {
  defaultBudgetSteps,
  fitArBudget,
  MERGE_PRIMS_DEFAULTS,
  readModel,
  SIMPLIFICATION_POLICY_DEFAULTS,
  SIMPLIFY_TRIANGLES_DEFAULTS,
  sceneBounds,
  sceneStats,
  writeUsdz,
  type SceneData,
} from '../src/index.js';
import { MERGE_TO_PRIM_BUDGET_DEFAULTS, mergeToPrimBudget, type MergeToPrimBudgetOptions } from '../src/budget/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';

const read = (name: string) => readModel(corpusBytes('ifc', name), { fileName: name });
const furniture = (report: Awaited<ReturnType<typeof fitArBudget>>['report']) => report.categories.find((c) => c.category === 'furniture')!;

describe("the budget's policy, reached through the steps' options", () => {
  it('its defaults are the steps’ defaults: stated or not, the same delivery byte for byte', async () => {
    const scene = await read('duplex.ifc');
    expect(SIMPLIFY_TRIANGLES_DEFAULTS).toMatchObject(SIMPLIFICATION_POLICY_DEFAULTS);
    const implicit = await fitArBudget(scene, { triangles: 15_000 });
    const stated = await fitArBudget(
      scene,
      { triangles: 15_000 },
      {
        steps: defaultBudgetSteps({ simplify: { ...SIMPLIFY_TRIANGLES_DEFAULTS }, merge: { ...MERGE_PRIMS_DEFAULTS } }),
      },
    );
    expect(stated.report).toEqual(implicit.report);
    expect(Buffer.concat(writeUsdz(stated.scene)).equals(Buffer.concat(writeUsdz(implicit.scene)))).toBe(true);
  });

  it('proxyMaxSize: no furniture stands as a box when none may be one', async () => {
    const scene = await read('duplex.ifc');
    const boxed = furniture((await fitArBudget(scene, { triangles: 15_000 })).report);
    expect(boxed.proxiedElements).toBeGreaterThan(0);
    const none = await fitArBudget(scene, { triangles: 15_000 }, { steps: defaultBudgetSteps({ simplify: { proxyMaxSize: 0 } }) });
    expect(furniture(none.report).proxiedElements).toBe(0);
    expect(none.report.delivered.triangles).toBeLessThanOrEqual(15_000);
  });

  it('clutterFirstShare: clutter coarsened from a larger share of its size moves farther', async () => {
    const scene = await read('SampleHouse4.ifc');
    const fine = furniture((await fitArBudget(scene, { triangles: 15_000 })).report);
    const coarse = furniture(
      (await fitArBudget(scene, { triangles: 15_000 }, { steps: defaultBudgetSteps({ simplify: { clutterFirstShare: 0.04 } }) })).report,
    );
    expect(coarse.maxDeviation).toBeGreaterThan(fine.maxDeviation * 2);
  });

  it('instanceMinTriangles and instancingMinSaving: a light mesh drawn twice stays shared only when they allow it', () => {
    // Two slabs, and a column drawn at two places from one mesh, in one storey: four draws, three prims allowed.
    const mesh = (name: string) => ({
      name,
      positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
      indices: new Uint32Array([0, 1, 2]),
      material: 0,
    });
    const at = (x: number) => new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 0, 0, 1]);
    const node = (name: string, x: number, meshes: number[]) => ({ name, parent: -1, matrix: at(x), meshes, metadata: { storey: 'L1' } });
    const base = {
      nodes: [node('slab', 0, [0]), node('slab 2', 6, [0]), node('column A', 2, [1]), node('column B', 4, [1])],
      meshes: [mesh('slab'), mesh('column')],
      textures: [],
      materials: [
        {
          name: 'm',
          baseColor: [1, 1, 1] as [number, number, number],
          opacity: 1,
          metallic: 0,
          roughness: 1,
          emissive: [0, 0, 0] as [number, number, number],
          doubleSided: false,
        },
      ],
    };
    const scene: SceneData = {
      source: { format: 'ifc' },
      ...base,
      offset: [0, 0, 0],
      bounds: sceneBounds(base),
      stats: sceneStats(base),
      warnings: [],
    };
    const shared = (options: Partial<MergeToPrimBudgetOptions>) =>
      mergeToPrimBudget(scene, 3, options).grouping.includes('kept as instances');
    // By default a one-triangle mesh is cheaper copied than drawn on its own.
    expect(shared({})).toBe(false);
    expect(shared({ instanceMinTriangles: 1 })).toBe(true);
    // Sharing it saves one triangle of four: not worth its prims when half must be saved.
    expect(shared({ instanceMinTriangles: 1, instancingMinSaving: 0.5 })).toBe(false);
    expect(MERGE_TO_PRIM_BUDGET_DEFAULTS).toMatchObject({ instanceMinTriangles: 100, instancingMinSaving: 0.25 });
  });
});
