// The conversion cache's loans: a hit's file stays on disk until the request that borrowed it is done.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openConversionCache, type CachedConversion, type ConversionCache } from '../src/cache/ConversionCache.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arsession-cache-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const entry = (bytes: number) => ({ usdzFileBytes: bytes, usdzFileSha256: '0'.repeat(64) }) as CachedConversion;
/** Converts (writes a USDZ) and keeps it under `key`. */
async function keep(cache: ConversionCache, key: string, bytes = 10): Promise<void> {
  const written = join(root, `${key}.written.usdz`);
  writeFileSync(written, key);
  await cache.keep(key, written, entry(bytes));
}
/** Lets the unlinks the cache started (it does not wait for them) finish. */
const settle = () => new Promise((done) => setTimeout(done, 50));

describe('ConversionCache', () => {
  it('lends a kept conversion, most recent first in line to stay', async () => {
    const cache = await openConversionCache({ dir: join(root, 'cache'), maxEntries: 2, maxBytes: 1e9 });
    await keep(cache, 'a');
    await keep(cache, 'b');
    const hit = cache.reuse('a')!;
    expect(hit.entry).toEqual(entry(10));
    expect(existsSync(hit.path)).toBe(true);
    hit.release();
    // 'a' was used last, so 'b' is the one evicted by a third entry.
    await keep(cache, 'c');
    await settle();
    expect(cache.reuse('b')).toBeUndefined();
    expect(cache.reuse('a')?.entry).toEqual(entry(10));
    expect(cache.reuse('unknown')).toBeUndefined();
  });

  it('keeps the file of an evicted entry while it is on loan, and removes it when the last loan ends', async () => {
    const cache = await openConversionCache({ dir: join(root, 'cache'), maxEntries: 1, maxBytes: 1e9 });
    await keep(cache, 'a');
    const first = cache.reuse('a')!, second = cache.reuse('a')!;
    await keep(cache, 'b'); // evicts 'a'
    await settle();
    expect(cache.reuse('a')).toBeUndefined();
    expect(existsSync(first.path)).toBe(true);
    first.release();
    first.release(); // a second release of the same loan counts once
    await settle();
    expect(existsSync(first.path)).toBe(true);
    second.release();
    await settle();
    expect(existsSync(first.path)).toBe(false);
  });

  it('removes an evicted entry that is not on loan at once, also when over its byte budget', async () => {
    const cache = await openConversionCache({ dir: join(root, 'cache'), maxEntries: 10, maxBytes: 15 });
    await keep(cache, 'a', 10);
    const path = cache.reuse('a')!;
    path.release();
    await keep(cache, 'b', 10); // 20 bytes > 15: 'a' goes, off the disk before keep() resolves
    expect(existsSync(path.path)).toBe(false);
    expect(cache.entries).toBe(1);
  });
});
