import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { readZipDirectory } from '@arsession/usd';
import { afterAll, describe, expect, it } from 'vitest';
import { readUsdz } from '../src/index.js';
import { runConversion } from '../src/worker/runConversion.js';
import { corpusBytes } from '../../../test/support/corpus.js';
import { checkUsdzPackage } from '../src/usdz/checkUsdzPackage.js';

const dir = mkdtempSync(join(tmpdir(), 'arsession-parts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('deliverParts, through runConversion', () => {
  it('Office_A over a small budget: a stored zip of ARKit-ready parts, each within the budget, in the whole frame', async () => {
    const partsPath = join(dir, 'office.parts.zip');
    const budget = { triangles: 15_000, meshPrims: 60 };
    const result = await runConversion({
      bytes: corpusBytes('ifc', 'Office_A_20110811.ifc'),
      fileName: 'Office_A_20110811.ifc',
      usdzPath: join(dir, 'office.usdz'),
      partsPath,
      budget,
    });
    const archive = new Uint8Array(readFileSync(partsPath));
    const parts = result.parts!;
    expect(parts.bytes).toBe(archive.length);
    expect(parts.sha256).toBe(sha256(archive));
    const entries = readZipDirectory(archive);
    expect(entries.map((e) => e.name)).toEqual(parts.parts.map((p) => p.entry));
    expect(parts.parts.length).toBeGreaterThan(3);
    let triangles = 0;
    for (const [i, part] of parts.parts.entries()) {
      const entry = entries[i]!;
      // Stored and 64-byte aligned: a part is a byte range of the archive, served as it is.
      expect(entry.method).toBe(0);
      expect(entry.dataOffset % 64).toBe(0);
      expect(part.offset).toBe(entry.dataOffset);
      const usdz = archive.subarray(entry.dataOffset, entry.dataOffset + entry.size);
      expect(crc32(usdz) >>> 0).toBe(entry.crc);
      expect(usdz.length).toBe(part.bytes);
      expect(sha256(usdz)).toBe(part.sha256);
      checkUsdzPackage(usdz);
      const back = await readUsdz(usdz);
      expect(back.stats.triangles).toBe(part.triangles);
      expect(part.triangles).toBeLessThanOrEqual(budget.triangles);
      expect(part.drawCalls).toBeLessThanOrEqual(budget.meshPrims);
      expect(part.budget.withinBudget).toBe(true);
      expect(part.budget.delivered.bytes).toBe(part.bytes);
      // Within the whole's bounds: the same frame as the overview.
      for (let k = 0; k < 3; k++) {
        expect(back.bounds.min[k]).toBeGreaterThanOrEqual(result.bounds.min[k]! - 1e-3);
        expect(back.bounds.max[k]).toBeLessThanOrEqual(result.bounds.max[k]! + 1e-3);
      }
      triangles += part.budget.source.triangles;
    }
    // Together the parts draw the whole model as read: nothing is lost between them.
    expect(triangles).toBe(result.budget!.source.triangles);
    expect(new Set(parts.parts.map((p) => p.storey?.name))).toEqual(new Set(['Level 1', 'Level 2', 'Roof']));
  });

  it('a model within the budget has no parts, and writes no archive', async () => {
    const partsPath = join(dir, 'house.parts.zip');
    const result = await runConversion({
      bytes: corpusBytes('ifc', 'IfcOpenHouse_IFC4.ifc'),
      fileName: 'IfcOpenHouse_IFC4.ifc',
      usdzPath: join(dir, 'house.usdz'),
      partsPath,
      budget: {},
    });
    expect(result.parts).toBeUndefined();
    expect(() => readFileSync(partsPath)).toThrow(/ENOENT/);
  });

  it('the overview is the same file whether parts are asked for or not, for a model read in full', async () => {
    const bytes = corpusBytes('ifc', 'duplex.ifc');
    const budget = { triangles: 20_000 };
    const plain = await runConversion({ bytes, fileName: 'duplex.ifc', usdzPath: join(dir, 'a.usdz'), budget });
    const parted = await runConversion({
      bytes,
      fileName: 'duplex.ifc',
      usdzPath: join(dir, 'b.usdz'),
      partsPath: join(dir, 'b.zip'),
      budget,
    });
    expect(parted.parts!.parts.length).toBe(4);
    expect(parted.usdzFileSha256).toBe(plain.usdzFileSha256);
  });
});
