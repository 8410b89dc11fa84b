// The large models of bench/LARGE-MODELS.md, delivered under the default AR budget and opened in
// the tests' OpenUSD oracle (OpenUSD 22 with Hydra, in Chromium): what it draws is what the
// detail states. They cannot be in the test suite (not ours to commit), so this is run by hand
// beside the bench, on a machine that has them:
//   node node_modules/vitest/vitest.mjs run --config bench/largeModelsOracle.vitest.config.mjs
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertModel, readUsdz } from '@arsession/convert';
import { inMetresYUp, startOpenUsd, type OpenUsd } from '../test/support/openUsd/openUsd.js';

const DIR = resolve(process.env.ARSESSION_LARGE_MODELS ?? join(import.meta.dirname, '..', '..', 'large-models'));
const MODELS = existsSync(DIR)
  ? readdirSync(DIR)
      .filter((f) => /\.(ifc|glb)$/i.test(f))
      .sort()
  : [];

let usd: OpenUsd;
beforeAll(async () => {
  usd = await startOpenUsd();
});
afterAll(async () => {
  await usd?.close();
});

describe(`OpenUSD opens every large model we deliver (${DIR})`, () => {
  it('has large models to open', () => expect(MODELS.length).toBeGreaterThan(0));
  it.each(MODELS)(
    '%s: within budget, the triangles and bounds we state',
    async (name) => {
      const result = await convertModel(new Uint8Array(readFileSync(join(DIR, name))), { fileName: name, timeoutMs: 600_000 });
      expect(result.budget!.withinBudget).toBe(true);
      const report = await usd.open(result.usdz!, `${name}.usdz`);
      expect(report.error).toBeUndefined();
      expect(report.diagnostics).toEqual([]);
      // Hydra draws an instanced prototype once, where this build cannot say: our reader composes the
      // instances for the count, and OpenUSD's bounds are checked only without them.
      expect((await readUsdz(result.usdz!)).stats.triangles).toBe(result.stats.triangles);
      console.log(
        `${name}: ${result.stats.triangles} triangles in ${result.stats.drawCalls} prims, ` +
          `${report.instances ?? 0} instances; OpenUSD drew ${report.triangles} in ${report.meshes} meshes`,
      );
      if (report.instances) return;
      expect(report.triangles).toBe(result.stats.triangles);
      const drawn = inMetresYUp(report);
      const shrink = result.budget!.maxUncovered + 5e-4;
      for (let k = 0; k < 3; k++) {
        expect(drawn.min[k]).toBeGreaterThanOrEqual(result.bounds.min[k]! - 5e-4);
        expect(drawn.max[k]).toBeLessThanOrEqual(result.bounds.max[k]! + 5e-4);
        expect(drawn.min[k]! - result.bounds.min[k]!).toBeLessThanOrEqual(shrink);
        expect(result.bounds.max[k]! - drawn.max[k]!).toBeLessThanOrEqual(shrink);
      }
    },
    600_000,
  );
});
