// A part's figures are its own elements': what the budget did to each mesh is kept, carried to
// each product through the reader's stream reduction, and summed per part, so a part of a storey
// the reduction left alone states so, and every part names each category it draws.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AR_BUDGET_DEFAULTS } from '../src/budget/ArBudget.js';
import { simplifyToBudget } from '../src/budget/simplifyToBudget.js';
import { StreamReduction } from '../src/budget/StreamReduction.js';
import { readIfc } from '../src/ifc/readIfc.js';
import { deliverParts, partStrays } from '../src/parts/deliverParts.js';
import { splitIntoParts } from '../src/parts/splitIntoParts.js';
import type { SceneData } from '../src/scene/SceneData.js';
import { corpusBytes } from '../../../test/support/corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'arsession-part-figures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Office_A read with its overview at 8k triangles and its parts' level at 20k: both reduced as it streams. Read once. */
let office: ReturnType<typeof readOffice> | undefined;
const officeWithParts = () => (office ??= readOffice());

async function readOffice() {
  const bytes = corpusBytes('ifc', 'Office_A_20110811.ifc');
  const partsReduction = new StreamReduction({ triangles: 20_000, startTriangles: 20_000 });
  const scene = await readIfc(bytes, { reduction: new StreamReduction({ triangles: 8_000, startTriangles: 8_000 }), partsReduction });
  return { scene, partsReduction, source: scene.partsSource! };
}

describe("each mesh's figures (simplifyToBudget's meshStrays)", () => {
  it.each([
    ['duplex.ifc', 1_500],
    ['Office_A_20110811.ifc', 15_000],
  ])('%s at %i triangles: each category states the farthest of its meshes, and a mesh with none is as read', async (name, triangles) => {
    const scene = await readIfc(corpusBytes('ifc', name));
    const simplified = await simplifyToBudget(scene, { triangles });
    expect(simplified.meshStrays).toHaveLength(scene.meshes.length);
    for (const c of simplified.categories) {
      const own = simplified.meshStrays.filter((s) => s?.category === c.category);
      expect(Math.max(0, ...own.map((s) => s!.deviation))).toBe(c.maxDeviation);
      expect(Math.max(0, ...own.map((s) => s!.uncovered))).toBe(c.maxUncovered);
    }
    simplified.meshStrays.forEach((stray, m) => {
      if (stray) return;
      expect(simplified.scene.meshes[m]!.indices).toEqual(scene.meshes[m]!.indices);
      expect(simplified.scene.meshes[m]!.positions).toEqual(scene.meshes[m]!.positions);
    });
  });
});

describe("the reader's stream reduction, element by element", () => {
  it("gives each node of the parts' level its element's figures, within the whole's, none to an element as read", async () => {
    const { scene, partsReduction, source } = await officeWithParts();
    const streamed = source.streamReduced!;
    expect(streamed.nodeStrays).toHaveLength(source.nodes.length);
    const whole = new Map(partsReduction.categories.map((c) => [c.category, c]));
    let touched = 0,
      untouched = 0;
    source.nodes.forEach((node, n) => {
      const strays = streamed.nodeStrays![n];
      if (node.meshes.length === 0) return;
      if (strays) touched++;
      else untouched++;
      for (const s of strays ?? []) {
        expect(s.deviation).toBeLessThanOrEqual(whole.get(s.category)!.maxDeviation);
        expect(s.uncovered).toBeLessThanOrEqual(whole.get(s.category)!.maxUncovered);
      }
    });
    expect(touched).toBeGreaterThan(0);
    expect(untouched).toBeGreaterThan(0);
    // An element the reduction left alone draws what the model draws in full. A product's node has
    // the same index in the full read; its placements of shared geometry come after the products.
    const full = await readIfc(corpusBytes('ifc', 'Office_A_20110811.ifc'));
    const products = full.nodes.length;
    const drawn = (s: SceneData, n: number) => s.nodes[n]!.meshes.reduce((t, m) => t + s.meshes[m]!.indices.length, 0);
    const withPlacements = (n: number) =>
      source.nodes.reduce((t, node, i) => t + (i === n || (i >= products && node.parent === n) ? drawn(source, i) : 0), 0);
    let compared = 0;
    for (let n = 0; n < products; n++) {
      expect(source.nodes[n]!.metadata.globalId).toBe(full.nodes[n]!.metadata.globalId);
      if (streamed.nodeStrays![n] || full.nodes[n]!.meshes.length === 0) continue;
      expect(withPlacements(n)).toBe(drawn(full, n));
      compared++;
    }
    expect(compared).toBeGreaterThan(0);
    // The overview's own read states no nodes: only the parts' level is split.
    expect(scene.streamReduced!.nodeStrays).toBeUndefined();
  });

  it("a part states its own elements' figures: never more than the whole's, less where the reduction spared it", async () => {
    const { scene, source } = await officeWithParts();
    const split = splitIntoParts(source, scene.levels, { triangles: 8_000 });
    expect(split.length).toBeGreaterThan(2);
    const budget = { ...AR_BUDGET_DEFAULTS, triangles: 8_000 };
    const own = await deliverParts(source, split, join(dir, 'own.zip'), { budget, streamReduced: source.streamReduced! });
    const { nodeStrays: _n, ...wholeOnly } = source.streamReduced!;
    const whole = await deliverParts(source, split, join(dir, 'whole.zip'), { budget, streamReduced: wholeOnly });
    // The same files: only the figures change.
    expect(own.sha256).toBe(whole.sha256);
    let spared = 0;
    own.parts.forEach((part, i) => {
      const before = whole.parts[i]!.budget;
      expect(part.budget.maxDeviation).toBeLessThanOrEqual(before.maxDeviation);
      expect(part.budget.maxUncovered).toBeLessThanOrEqual(before.maxUncovered);
      if (part.budget.maxDeviation < before.maxDeviation) spared++;
      for (const c of part.budget.categories) {
        const was = before.categories.find((b) => b.category === c.category);
        if (was) expect(c.maxDeviation).toBeLessThanOrEqual(was.maxDeviation);
      }
      // Every category the part draws is stated, and together they draw the part.
      expect(part.budget.categories.length).toBeGreaterThan(0);
      expect(part.budget.categories.reduce((t, c) => t + c.sourceTriangles, 0)).toBe(part.budget.source.triangles);
      expect(part.budget.categories.reduce((t, c) => t + c.deliveredTriangles, 0)).toBe(part.budget.delivered.triangles);
    });
    expect(spared).toBeGreaterThan(0);
  });

  it('partStrays: each category the farthest of its elements, and its triangles', async () => {
    const { scene, source } = await officeWithParts();
    const [part] = splitIntoParts(source, scene.levels, { triangles: 8_000 });
    const figures = partStrays(source, part!, source.streamReduced!);
    const drawn = part!.nodes.reduce(
      (t, n) => t + source.nodes[n]!.meshes.reduce((s, m) => s + source.meshes[m]!.indices.length / 3, 0),
      0,
    );
    expect(figures.categories.reduce((t, c) => t + c.triangles, 0)).toBe(drawn);
    const strays = part!.nodes.flatMap((n) => source.streamReduced!.nodeStrays![n] ?? []);
    expect(figures.maxDeviation).toBe(Math.max(0, ...strays.map((s) => s.deviation)));
    expect(figures.maxUncovered).toBe(Math.max(0, ...strays.map((s) => s.uncovered)));
  });
});
