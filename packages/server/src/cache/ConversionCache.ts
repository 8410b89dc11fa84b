import { link, mkdir, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConversionResult } from '@arsession/convert';

/**
 * What a model's conversion left that a later request with the same bytes can reuse: its result
 * without the per-request parts (the detected door, inline bytes), with the USDZ's size and hash.
 */
export type CachedConversion = Omit<ConversionResult, 'door' | 'usdz' | 'glb'> & Pick<Required<ConversionResult>, 'usdzFileBytes' | 'usdzFileSha256'>;

/** Sizes of {@link openConversionCache}. */
export interface ConversionCacheOptions {
  /** Where the cached USDZ files live; emptied when the cache opens. */
  dir: string;
  /** Most entries kept; 0 turns the cache off. */
  maxEntries: number;
  /** Most USDZ bytes kept (counted per entry, shared links included). */
  maxBytes: number;
}

/** A content-addressed store of converted models, keyed by the SHA-256 of the uploaded bytes. */
export interface ConversionCache {
  /**
   * Hard-links the cached USDZ of `sourceSha256` to `usdzPath` and returns what it was made from,
   * or `undefined` when the model was not seen (or its entry was evicted meanwhile).
   */
  reuse(sourceSha256: string, usdzPath: string): Promise<CachedConversion | undefined>;
  /** Keeps the USDZ just written at `usdzPath` (by a hard link) for later requests with the same bytes. */
  keep(sourceSha256: string, usdzPath: string, entry: CachedConversion): Promise<void>;
  readonly entries: number;
}

/**
 * Opens the cache in `dir`, emptied first: entries live only as long as the process, so a cached
 * file can never outlive the converter version that made it.
 *
 * Why hard links: a session's USDZ and the cache entry share one inode, so a hit costs one
 * `link()` instead of a copy, eviction can never remove a file a live session serves, and the
 * sweeper deleting a session never touches the cache. Conversion is deterministic (same bytes in,
 * same bytes out), which is what makes reuse equal to converting again.
 *
 * @example
 * ```ts
 * const cache = await openConversionCache({ dir: '/var/lib/arsession/cache', maxEntries: 512, maxBytes: 2 ** 31 });
 * const hit = await cache.reuse(sha256, join(sessionDir, '0.usdz'));
 * ```
 */
export async function openConversionCache(options: ConversionCacheOptions): Promise<ConversionCache> {
  await rm(options.dir, { recursive: true, force: true });
  await mkdir(options.dir, { recursive: true });
  // Map order is recency order: a hit moves its key to the end, eviction takes from the front.
  const lru = new Map<string, CachedConversion>();
  let bytes = 0;
  const pathOf = (key: string) => join(options.dir, `${key}.usdz`);
  const evict = async () => {
    while (lru.size > options.maxEntries || (bytes > options.maxBytes && lru.size > 0)) {
      const [oldest, entry] = lru.entries().next().value as [string, CachedConversion];
      lru.delete(oldest);
      bytes -= entry.usdzFileBytes;
      await unlink(pathOf(oldest)).catch(() => undefined);
    }
  };
  return {
    get entries() {
      return lru.size;
    },
    async reuse(key, usdzPath) {
      const entry = lru.get(key);
      if (!entry) return undefined;
      try {
        await link(pathOf(key), usdzPath);
      } catch {
        // Evicted between the lookup and the link: convert as if never seen.
        return undefined;
      }
      lru.delete(key);
      lru.set(key, entry);
      return entry;
    },
    async keep(key, usdzPath, entry) {
      if (options.maxEntries === 0 || entry.usdzFileBytes > options.maxBytes || lru.has(key)) return;
      try {
        await link(usdzPath, pathOf(key));
      } catch {
        // Two requests with the same new model both converted; the first one's link stands.
        return;
      }
      lru.set(key, entry);
      bytes += entry.usdzFileBytes;
      await evict();
    },
  };
}
