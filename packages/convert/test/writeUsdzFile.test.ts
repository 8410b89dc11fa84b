import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertModel, mergeByMaterial, readGlb, readIfc, writeUsdz, writeUsdzFile } from '../src/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';

describe('writeUsdzFile streams the same package to disk', () => {
  it.each([
    ['glb', 'DamagedHelmet.glb', 'usdc'],
    ['ifc', 'Office_A_20110811.ifc', 'usdc'],
    ['glb', 'DamagedHelmet.glb', 'usda'],
    ['ifc', 'Office_A_20110811.ifc', 'usda'],
  ] as const)('%s/%s, %s layer: byte-identical to writeUsdz, nothing left behind', async (kind, name, layerFormat) => {
    const dir = mkdtempSync(join(tmpdir(), 'arsession-usdz-'));
    const scene = mergeByMaterial(kind === 'glb' ? await readGlb(corpusBytes(kind, name)) : await readIfc(corpusBytes(kind, name)));
    const path = join(dir, 'out.usdz');
    const written = writeUsdzFile(scene, path, { layerFormat });
    const inMemory = Buffer.concat(writeUsdz(scene, { layerFormat }));
    expect(inMemory.subarray(30, 30 + 'model.usdX'.length).toString()).toBe(`model.${layerFormat}`);
    const onDisk = readFileSync(path);
    expect(written.bytes).toBe(onDisk.length);
    expect(written.sha256).toBe(createHash('sha256').update(onDisk).digest('hex'));
    expect(onDisk.equals(inMemory)).toBe(true);
    expect(readdirSync(dir)).toEqual(['out.usdz']);
  });

  it('convertModel can stream its USDZ to a path instead of returning it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arsession-usdz-'));
    const path = join(dir, 'box.usdz');
    const r = await convertModel(corpusBytes('glb', 'BoxTextured.glb'), { usdzPath: path });
    expect(r.usdz).toBeUndefined();
    expect(readFileSync(path).length).toBe(r.usdzFileBytes);
    expect(createHash('sha256').update(readFileSync(path)).digest('hex')).toBe(r.usdzFileSha256);
    expect(readFileSync(path).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  });
});
