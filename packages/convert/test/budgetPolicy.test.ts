import { describe, expect, it } from 'vitest';
import {
  defaultBudgetSteps,
  fitArBudget,
  MERGE_PRIMS_DEFAULTS,
  readModel,
  SIMPLIFICATION_POLICY_DEFAULTS,
  SIMPLIFY_TRIANGLES_DEFAULTS,
  writeUsdz,
} from '../src/index.js';
import { MERGE_TO_PRIM_BUDGET_DEFAULTS, mergeToPrimBudget, type MergeToPrimBudgetOptions } from '../src/budget/index.js';
import { at, plainScene, triangleMesh } from './support/plainScene.js';
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
    const node = (name: string, x: number, meshes: number[]) => ({ name, parent: -1, matrix: at(x), meshes, metadata: { storey: 'L1' } });
    const scene = plainScene(
      [node('slab', 0, [0]), node('slab 2', 6, [0]), node('column A', 2, [1]), node('column B', 4, [1])],
      [triangleMesh('slab'), triangleMesh('column')],
    );
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
