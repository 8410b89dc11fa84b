import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { convertModel, MeshNodeLimitError, UsdzPackageError } from '@arsession/convert';
import { corpusBytes, corpusFiles } from './support/corpus.js';
import { rawZipEntries, readUsdzBack } from './support/usdReader.js';

/** The corpus files that must be refused, and how. Everything else must convert. */
const REFUSED: Record<string, { error: new (...args: never[]) => Error; code: string }> = {
  'glb/Synthetic_5001MeshNodes_shared.glb': { error: MeshNodeLimitError, code: 'mesh_node_limit' },
  'usdz/bad_alembic.usdz': { error: UsdzPackageError, code: 'usdz_package_invalid' },
  'usdz/bad_refAbc.usdz': { error: UsdzPackageError, code: 'usdz_package_invalid' },
  'usdz/bad_unencapsulated_layer.usdz': { error: UsdzPackageError, code: 'usdz_package_invalid' },
  'usdz/first_file_not_usd.usdz': { error: UsdzPackageError, code: 'usdz_package_invalid' },
};

const all = (['ifc', 'glb', 'usdz'] as const).flatMap((kind) => corpusFiles(kind).map((name) => [kind, name] as const));

describe('every corpus file converts through the contained pipeline, or is refused with the right typed error', () => {
  it.each(all)('%s/%s', async (kind, name) => {
    const expected = REFUSED[`${kind}/${name}`];
    const run = convertModel(corpusBytes(kind, name), { fileName: name });
    if (expected) {
      const err = await run.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(expected.error);
      expect((err as { code: string }).code).toBe(expected.code);
      expect((err as { fileName: string }).fileName).toBe(name);
      return;
    }
    const result = await run;
    // Every delivered triangle answers "what is this?": its element survives the budget.
    expect(result.stats.trianglesWithoutElement).toBe(0);
    const usdz = result.usdz!;
    if (result.delivery === 'as_uploaded') {
      // A package that already meets ARKit's rules is delivered as the user sent it: nothing to re-check but identity.
      expect(Buffer.compare(Buffer.from(usdz), corpusBytes(kind, name))).toBe(0);
      expect(result.stats.triangles).toBeGreaterThan(0);
      return;
    }
    const entries = rawZipEntries(usdz);
    // The root layer is binary USD (a crate file).
    expect(entries[0]!.name).toMatch(/\.usdc$/);
    expect(new TextDecoder().decode(entries[0]!.data.subarray(0, 8))).toBe('PXR-USDC');
    for (const e of entries) {
      expect(e.method).toBe(0);
      expect(e.dataOffset % 64).toBe(0);
      expect(e.name).toMatch(/\.(usdc|png|jpg)$/);
      expect(crc32(e.data) >>> 0).toBe(e.crc);
    }
    const back = await readUsdzBack(usdz);
    expect(back.nativeUsdzAccepted).toBe(true);
    expect([back.upAxis, back.metersPerUnit]).toEqual(['Y', 1]);
    expect(back.meshes.reduce((s, m) => s + m.triangles, 0)).toBe(result.stats.triangles);
    expect(back.meshes).toHaveLength(result.stats.drawCalls);
    expect(result.stats.drawCalls).toBeLessThanOrEqual(300);
  });
});
