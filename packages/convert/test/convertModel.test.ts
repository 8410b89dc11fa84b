import { describe, expect, it } from 'vitest';
import { convertModel, MeshNodeLimitError, ModelUnreadableError, readModel, UnsupportedFormatError } from '../src/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';
import { sharedFrom } from '../src/io/readSharedFile.js';
import { readUsdzBack } from '../../../test/support/usdReader.js';

describe('convertModel: the contained pipeline', () => {
  it('converts an IFC in a worker: USDZ that TinyUSDZ reads, stats, door index', async () => {
    const r = await convertModel(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'), { fileName: 'AC20-FZK-Haus.ifc' });
    expect(r.format).toBe('ifc');
    expect(r.doorOpenings).toHaveLength(5);
    expect(r.stats.drawCalls).toBeGreaterThan(0);
    const back = await readUsdzBack(r.usdz!);
    expect(back.upAxis).toBe('Y');
    expect(back.meshes.reduce((s, m) => s + m.triangles, 0)).toBe(r.stats.triangles);
    expect(back.meshes).toHaveLength(r.stats.drawCalls);
    // Element identity travels into the USD as customData (read back from the binary layer): its
    // 245 mesh prims are over the AR budget, so they are merged and each mesh names its elements.
    expect(r.budget!.steps).toEqual(['merged']);
    expect(back.text).toMatch(/string\[\] elementClasses = \[[^\]]*"IfcDoor"/);
  });

  it('a model the parser cannot finish in time costs its timeout, nothing more', async () => {
    // A real building (about a second of parsing here) against a deadline far shorter than that.
    // (Inputs that made web-ifc spin, like `#1=IFCWALL(((((;`, are now refused before it runs.)
    const started = Date.now();
    await expect(convertModel(corpusBytes('ifc', 'ISSUE_021_Mini_Project.ifc'), { fileName: 'slow.ifc', timeoutMs: 150 })).rejects.toThrow(
      /slow\.ifc: the parser did not finish within 150 ms/,
    );
    expect(Date.now() - started).toBeLessThan(30_000);
    // The process is fine: the next conversion works.
    const ok = await convertModel(corpusBytes('glb', 'Box.glb'));
    expect(ok.stats.triangles).toBe(12);
  });

  it('typed errors cross the thread boundary intact', async () => {
    const err = await convertModel(corpusBytes('glb', 'Synthetic_5001MeshNodes_shared.glb'), {
      fileName: 'big.glb',
      field: 'model_files',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeshNodeLimitError);
    expect(err).toMatchObject({ count: 5001, limit: 5000, fileName: 'big.glb', field: 'model_files', code: 'mesh_node_limit' });
    await expect(convertModel(new TextEncoder().encode('not a model at all'), { fileName: 'x.txt' })).rejects.toBeInstanceOf(
      UnsupportedFormatError,
    );
    await expect(convertModel(corpusBytes('ifc', 'AC20-FZK-Haus.ifc').subarray(0, 5000))).rejects.toBeInstanceOf(ModelUnreadableError);
  });

  it('bytes already handed to a conversion (detached) are an empty input: refused at once, not a hang', async () => {
    const bytes = corpusBytes('glb', 'Box.glb');
    await convertModel(bytes, { fileName: 'box.glb' });
    expect(bytes.byteLength).toBe(0);
    const again = await convertModel(bytes, { fileName: 'box.glb', timeoutMs: 20_000 }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(UnsupportedFormatError);
    expect((again as Error).message).toMatch(/box\.glb/);
  });
});

describe('convertModel: bytes in shared memory', () => {
  // IfcOpenHouse with 9 MiB of STEP comment before its data: past the size from which a worker
  // checks the file's syntax on a helper thread of its own while web-ifc parses it.
  const padded = (data: (text: string) => string) => {
    const text = data(new TextDecoder('latin1').decode(corpusBytes('ifc', 'IfcOpenHouse_IFC4.ifc')));
    const big = text.replace('DATA;\n', `DATA;\n/*${' padding'.repeat(9 * 2 ** 17)}*/\n`);
    return sharedFrom(Buffer.from(big, 'latin1'), 0);
  };

  it("are shared with the worker, not moved: converted, and still the caller's", async () => {
    const bytes = padded((t) => t);
    expect(bytes.length).toBeGreaterThan(9 * 2 ** 20);
    const r = await convertModel(bytes, { fileName: 'padded.ifc' });
    const plain = await convertModel(corpusBytes('ifc', 'IfcOpenHouse_IFC4.ifc'), { fileName: 'padded.ifc' });
    expect(r.stats).toEqual(plain.stats);
    expect(bytes.byteLength).toBeGreaterThan(9 * 2 ** 20);
  });

  it('a large file web-ifc must not read is refused by the check, by name', async () => {
    const bytes = padded((t) => t.replace('#40=IFCWALLSTANDARDCASE(', '#40=IFCWALLSTANDARDCASE(('));
    await expect(convertModel(bytes, { fileName: 'padded.ifc', timeoutMs: 60_000 })).rejects.toThrow(
      /padded\.ifc: not a well-formed STEP file: line \d+: entity #40 has 1 unclosed parenthesis/,
    );
  });
});

describe('a USDZ delivered as uploaded', () => {
  it("carries no warning about what converting would have changed: its prims are the uploader's", async () => {
    const read = await readModel(corpusBytes('usdz', 'clean_clean_arkit.usdz'), { fileName: 'arkit.usdz' });
    expect(read.warnings.map((w) => w.code)).toContain('prims_dropped');
    const delivered = await convertModel(corpusBytes('usdz', 'clean_clean_arkit.usdz'), { fileName: 'arkit.usdz' });
    expect(delivered.delivery).toBe('as_uploaded');
    expect(delivered.warnings.map((w) => w.code)).not.toContain('prims_dropped');
  });
});

describe('createConversionPool', () => {
  it('pools are independent: each counts and closes its own workers', async () => {
    const { createConversionPool } = await import('../src/index.js');
    const [a, b] = [createConversionPool({ maxIdle: 1 }), createConversionPool({ maxIdle: 1 })];
    const box = await a.convert(corpusBytes('glb', 'Box.glb'));
    expect(box.stats.triangles).toBe(12);
    expect([a.stats(), b.stats()]).toEqual([
      { idle: 1, busy: 0, started: 1, exited: 0 },
      { idle: 0, busy: 0, started: 0, exited: 0 },
    ]);
    b.warm({ workers: 3 });
    expect(b.stats()).toMatchObject({ idle: 1, started: 1 }); // at most maxIdle
    await Promise.all([a.close(), b.close()]);
    expect([a.stats().idle, b.stats().idle]).toEqual([0, 0]);
  });
});
