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

/** A cached conversion lent to a request: its file stays on disk until the request releases it. */
export interface CacheHit {
  entry: CachedConversion;
  /** The cached USDZ, to be hard-linked where the session needs it. */
  path: string;
  /** Ends the loan; an entry evicted meanwhile loses its file now. */
  release(): void;
}

/** A content-addressed store of converted models, keyed by the SHA-256 of the uploaded bytes. */
export interface ConversionCache {
  /**
   * The cached conversion of `sourceSha256`, or `undefined` when the model was not seen. Its
   * file is kept (even through eviction) until `release()`, so the session can link it later.
   */
  reuse(sourceSha256: string): CacheHit | undefined;
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
 * sweeper deleting a session never touches the cache. The link is made when the session is
 * committed (by the store thread, off the event loop); until then the hit is a loan that
 * eviction respects. Conversion is deterministic (same bytes in,
 * same bytes out), which is what makes reuse equal to converting again.
 *
 * @example
 * ```ts
 * const cache = await openConversionCache({ dir: '/var/lib/arsession/cache', maxEntries: 512, maxBytes: 2 ** 31 });
 * const hit = cache.reuse(sha256);
 * try { if (hit) linkSync(hit.path, sessionFilePath(sessionsDir, sessionId, '0.usdz')); } finally { hit?.release(); }
 * ```
 */
export async function openConversionCache(options: ConversionCacheOptions): Promise<ConversionCache> {
  await rm(options.dir, { recursive: true, force: true });
  await mkdir(options.dir, { recursive: true });
  // Map order is recency order: a hit moves its key to the end, eviction takes from the front.
  const lru = new Map<string, CachedConversion>();
  // Loans per key; an evicted key still on loan keeps its file until the last one ends.
  const loans = new Map<string, number>();
  let bytes = 0;
  const pathOf = (key: string) => join(options.dir, `${key}.usdz`);
  const removeFile = (key: string) => unlink(pathOf(key)).catch(() => undefined);
  // Awaited: when keep() resolves, what it evicted is gone from disk.
  const evict = async () => {
    while (lru.size > options.maxEntries || (bytes > options.maxBytes && lru.size > 0)) {
      const [oldest, entry] = lru.entries().next().value as [string, CachedConversion];
      lru.delete(oldest);
      bytes -= entry.usdzFileBytes;
      if (!loans.has(oldest)) await removeFile(oldest);
    }
  };
  return {
    get entries() {
      return lru.size;
    },
    reuse(key) {
      const entry = lru.get(key);
      if (!entry) return undefined;
      lru.delete(key);
      lru.set(key, entry);
      loans.set(key, (loans.get(key) ?? 0) + 1);
      let released = false;
      return {
        entry,
        path: pathOf(key),
        release() {
          if (released) return;
          released = true;
          const left = loans.get(key)! - 1;
          if (left > 0) {
            loans.set(key, left);
            return;
          }
          loans.delete(key);
          // Evicted while on loan (and not cached again since: its file would then be in use).
          if (!lru.has(key)) void removeFile(key);
        },
      };
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
