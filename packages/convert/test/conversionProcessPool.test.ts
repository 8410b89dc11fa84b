// Conversions in worker processes (isolation 'process'): the same files as in a thread, and a
// memory bound the operating system enforces on everything a conversion allocates — a model past
// it is refused by name and costs only its own process.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConversionMemoryError, createConversionPool, type ConversionPool } from '../src/index.js';
import { corpusPath } from '../../../test/support/corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'arsession-process-pool-'));
const pools: ConversionPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  rmSync(dir, { recursive: true, force: true });
});

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Converts a corpus file (read by the worker from its path) to USDZ and GLB files under `tag`. */
function convert(pool: ConversionPool, path: string, tag: string) {
  return pool.convert(new Uint8Array(0), {
    inputPath: path,
    fileName: path.split('/').pop()!,
    field: 'model_file',
    outputs: ['usdz', 'glb'],
    usdzPath: join(dir, `${tag}.usdz`),
    glbPath: join(dir, `${tag}.glb`),
  });
}

describe('a conversion pool of worker processes', () => {
  it('writes the same files as a worker thread does', async () => {
    const processes = createConversionPool({ isolation: 'process', memoryLimitMb: 2048 });
    const threads = createConversionPool({ isolation: 'thread' });
    pools.push(processes, threads);
    const model = corpusPath('ifc', 'AC20-FZK-Haus.ifc');
    const [a, b] = [await convert(processes, model, 'process'), await convert(threads, model, 'thread')];
    expect(a.stats).toEqual(b.stats);
    expect(a.usdzFileSha256).toBe(sha256(join(dir, 'process.usdz')));
    expect(sha256(join(dir, 'process.usdz'))).toBe(sha256(join(dir, 'thread.usdz')));
    expect(sha256(join(dir, 'process.glb'))).toBe(sha256(join(dir, 'thread.glb')));
  });

  it('refuses a model past its memory bound by name, and the next model converts', async () => {
    // 250 MB holds Node and a small GLB, not the 261,069-triangle IFC (it needs some 450 MB).
    const pool = createConversionPool({ isolation: 'process', memoryLimitMb: 250 });
    pools.push(pool);
    const refused = await convert(pool, corpusPath('ifc', 'ISSUE_021_Mini_Project.ifc'), 'big').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(ConversionMemoryError);
    expect(refused).toMatchObject({
      code: 'model_too_large',
      field: 'model_file',
      fileName: 'ISSUE_021_Mini_Project.ifc',
      limit: 250 * 2 ** 20,
    });
    expect((refused as Error).message).toMatch(/^ISSUE_021_Mini_Project\.ifc: its conversion needed more than the 250 MB/);
    const next = await convert(pool, corpusPath('glb', 'Box.glb'), 'box');
    expect(next.stats.triangles).toBe(12);
    expect(pool.stats().exited).toBeGreaterThanOrEqual(1);
  });

  it('stops a worker past the deadline, refuses that model by name, and converts the next', async () => {
    const pool = createConversionPool({ isolation: 'process', memoryLimitMb: 2048 });
    pools.push(pool);
    const late = await pool
      .convert(new Uint8Array(0), {
        inputPath: corpusPath('ifc', 'ISSUE_021_Mini_Project.ifc'),
        fileName: 'ISSUE_021_Mini_Project.ifc',
        usdzPath: join(dir, 'late.usdz'),
        timeoutMs: 50,
      })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(late).toMatchObject({
      code: 'model_unreadable',
      message: 'ISSUE_021_Mini_Project.ifc: the parser did not finish within 50 ms; the file is malformed or too complex',
    });
    expect((await convert(pool, corpusPath('glb', 'Box.glb'), 'after-late')).stats.triangles).toBe(12);
    expect(pool.stats()).toMatchObject({ busy: 0, exited: 1 });
  });
});
