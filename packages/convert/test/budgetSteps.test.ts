// The AR budget as composable steps: fitArBudget runs a sequence of BudgetTransforms, by default
// simplifyTriangles, scaleTextures, mergePrims; a caller may drop, reorder or add steps.
import { describe, expect, it } from 'vitest';
import {
  defaultBudgetSteps,
  drawCalls,
  fitArBudget,
  mergePrims,
  readModel,
  scaleTextures,
  sceneBounds,
  sceneStats,
  simplifyTriangles,
  writeUsdz,
  type BudgetTransform,
  type SceneData,
} from '../src/index.js';
import { ifcClassOfNode } from '../src/budget/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';

const ISSUE_021 = 'ISSUE_021_Mini_Project.ifc';
const read = () => readModel(corpusBytes('ifc', ISSUE_021), { fileName: ISSUE_021 });
const usdzOf = (scene: SceneData) => Buffer.concat(writeUsdz(scene, { instanceable: true }));

describe("the AR budget's steps", () => {
  it('the default sequence, given or not, delivers the same bytes and the same report', async () => {
    const scene = await read();
    const implicit = await fitArBudget(scene, { triangles: 30_000 }, { fileName: ISSUE_021 });
    const explicit = await fitArBudget(
      scene,
      { triangles: 30_000 },
      { fileName: ISSUE_021, steps: [simplifyTriangles(), scaleTextures(), mergePrims()] },
    );
    const listed = await fitArBudget(scene, { triangles: 30_000 }, { fileName: ISSUE_021, steps: defaultBudgetSteps() });
    expect(implicit.report.steps).toEqual(['merged', 'simplified']);
    for (const other of [explicit, listed]) {
      expect(other.report).toEqual(implicit.report);
      expect(other.scene.warnings).toEqual(implicit.scene.warnings);
      expect(usdzOf(other.scene).equals(usdzOf(implicit.scene))).toBe(true);
    }
  });

  it('a sequence without the merge leaves the prims as simplified, and says so', async () => {
    const { scene, report } = await fitArBudget(await read(), { triangles: 30_000 }, { steps: [simplifyTriangles()] });
    expect(report.steps).toEqual(['simplified']);
    expect(report.delivered.triangles).toBeLessThanOrEqual(30_000);
    expect(drawCalls(scene)).toBeGreaterThan(200);
    expect(report.withinBudget).toBe(false);
    expect(scene.warnings.map((w) => w.code)).not.toContain('budget_merged');
  });

  it("steps of the caller's own run where they are put, see the targets, and what they do is delivered", async () => {
    const seen: number[] = [];
    // Before the simplification: every IfcMember left out, so the triangles it drew go elsewhere.
    const withoutMembers: BudgetTransform = (scene, ledger) => {
      seen.push(ledger.targets.triangles);
      const nodes = scene.nodes.map((n, i) => (ifcClassOfNode(scene.nodes, i)?.toUpperCase() === 'IFCMEMBER' ? { ...n, meshes: [] } : n));
      return { ...scene, nodes, stats: sceneStats({ ...scene, nodes }) };
    };
    // After the merge: one colour for the whole building.
    const white: BudgetTransform = (scene) => ({
      ...scene,
      materials: scene.materials.map((m) => ({ ...m, baseColor: [1, 1, 1] as [number, number, number] })),
    });
    const scene = await read();
    const memberTriangles = sceneStats({
      ...scene,
      nodes: scene.nodes.filter((_, i) => ifcClassOfNode(scene.nodes, i)?.toUpperCase() === 'IFCMEMBER'),
    }).triangles;
    expect(memberTriangles).toBeGreaterThan(1000);
    const plain = await fitArBudget(scene, {}, { steps: [simplifyTriangles(), mergePrims()] });
    const own = await fitArBudget(scene, {}, { steps: [withoutMembers, simplifyTriangles(), mergePrims(), white] });
    expect(seen).toEqual([100_000]);
    expect(own.report.withinBudget).toBe(true);
    expect(own.scene.materials.every((m) => m.baseColor.every((c) => c === 1))).toBe(true);
    expect(plain.scene.materials.some((m) => m.baseColor.some((c) => c !== 1))).toBe(true);
    // The members the budget left out before (IfcMember ×227) are the step's now, not the budget's.
    expect(plain.report.categories.flatMap((c) => c.leftOut).some((l) => l.ifcClass.toUpperCase() === 'IFCMEMBER')).toBe(true);
    expect(own.report.categories.flatMap((c) => c.leftOut).some((l) => l.ifcClass.toUpperCase() === 'IFCMEMBER')).toBe(false);
  });

  it('a model far from the origin, re-centred as its prims are merged, says so as it does without a budget', async () => {
    const glb = await readModel(corpusBytes('glb', 'SimpleInstancing.glb'), { fileName: 'SimpleInstancing.glb' });
    // 100 km east: every root node moved (the frame of a georeferenced export).
    const moved = {
      ...glb,
      nodes: glb.nodes.map((n) =>
        n.parent >= 0 ? n : { ...n, matrix: Float64Array.from(n.matrix, (v, i) => (i === 12 ? v + 100_000 : v)) },
      ),
    };
    const { scene, report } = await fitArBudget({ ...moved, bounds: sceneBounds(moved) }, { meshPrims: 10 });
    expect(report.steps[0]).toBe('merged');
    expect(scene.offset[0]).toBeGreaterThan(99_000);
    expect(scene.warnings.map((w) => w.code)).toContain('recentred');
  });
});
