import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertModel, geometryBytesWithin, ModelTooLargeError, readModel } from '../src/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';

const geometryBytes = (scene: Awaited<ReturnType<typeof readModel>>) =>
  scene.meshes.reduce(
    (n, m) => n + m.positions.byteLength + (m.normals?.byteLength ?? 0) + (m.uvs?.byteLength ?? 0) + m.indices.byteLength,
    0,
  );

describe('the geometry bound of a conversion', () => {
  it('an IFC is read within any bound it fits, and refused past any it does not, naming both figures', async () => {
    const bytes = corpusBytes('ifc', 'ISSUE_021_Mini_Project.ifc');
    const needed = geometryBytes(await readModel(bytes));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 2 * needed }), async (bound) => {
        const outcome = await readModel(corpusBytes('ifc', 'ISSUE_021_Mini_Project.ifc'), {
          fileName: 'big.ifc',
          maxGeometryBytes: bound,
        }).then(
          (scene) => ({ scene }),
          (error: unknown) => ({ error }),
        );
        if ('scene' in outcome) {
          expect(geometryBytes(outcome.scene)).toBeLessThanOrEqual(bound);
          return;
        }
        expect(outcome.error).toBeInstanceOf(ModelTooLargeError);
        const e = outcome.error as ModelTooLargeError;
        expect(e).toMatchObject({ code: 'model_too_large', limit: bound, fileName: 'big.ifc', field: 'model_file' });
        expect(e.count).toBeGreaterThan(bound);
        // Stopped while streaming: never more than the whole model's geometry held.
        expect(e.count).toBeLessThanOrEqual(needed);
        expect(e.message).toMatch(/^big\.ifc: its geometry needs more than \d+ MB of memory/);
      }),
      { numRuns: 12 },
    );
  });

  it('a GLB over the bound is refused once read', async () => {
    await expect(
      readModel(corpusBytes('glb', 'DamagedHelmet.glb'), { fileName: 'helmet.glb', maxGeometryBytes: 100_000 }),
    ).rejects.toMatchObject({ code: 'model_too_large', limit: 100_000 });
    await expect(readModel(corpusBytes('glb', 'DamagedHelmet.glb'), { maxGeometryBytes: 10_000_000 })).resolves.toBeDefined();
  });

  it('the refusal crosses from the conversion worker as its own class, with its figures', async () => {
    const err = await convertModel(corpusBytes('ifc', 'ISSUE_021_Mini_Project.ifc'), {
      fileName: 'big.ifc',
      maxGeometryBytes: 1_000_000,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelTooLargeError);
    expect(err).toMatchObject({ limit: 1_000_000, fileName: 'big.ifc' });
    // The worker is fine: the next model converts.
    expect((await convertModel(corpusBytes('glb', 'Box.glb'))).stats.triangles).toBe(12);
  });

  it('the geometry allowed grows with the memory bound, and nothing is allowed below the base a process needs', () => {
    fc.assert(
      fc.property(fc.nat(2 ** 36), fc.nat(2 ** 36), (a, b) => {
        if (a <= b) expect(geometryBytesWithin(a)).toBeLessThanOrEqual(geometryBytesWithin(b));
        expect(geometryBytesWithin(a)).toBeGreaterThanOrEqual(0);
      }),
    );
    expect(geometryBytesWithin(64 * 2 ** 20)).toBe(0);
  });
});
