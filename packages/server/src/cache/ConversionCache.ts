import { CONVERTER_VERSION, type ArBudget } from '@arsession/convert';
import type { Logger } from 'pino';
import type { ObjectStore } from '../objects/ObjectStore.js';
import { cachedFilesOf, type CachedConversion, type CachedFilePlaces } from './CachedConversion.js';
import type { CacheIndex, CacheLimits } from './CacheIndex.js';

/** Options of {@link openConversionCache}. */
export interface ConversionCacheOptions extends CacheLimits {
  /** Which entries are kept, and when each was last used. */
  index: CacheIndex;
  /** Where their files are (`cache/<key>/`). */
  objects: ObjectStore;
  /** The converter whose output is kept: entries of another version are never reused. */
  converterVersion: string;
  log?: Logger;
}

/** Defaults of {@link openConversionCache}. */
export const CONVERSION_CACHE_DEFAULTS: Readonly<Pick<ConversionCacheOptions, 'converterVersion'>> = {
  converterVersion: CONVERTER_VERSION,
};

/**
 * Converted models by the SHA-256 of their source and the converter's version: a model uploaded
 * again is linked, not converted again. Conversion is deterministic (same bytes in, same bytes
 * out), which is what makes reuse equal to converting again.
 */
export interface ConversionCache {
  /** The index's engine (`memory`, `postgres`). */
  readonly engine: string;
  /**
   * The cached conversion of `sourceSha256`, its files placed at the given local paths; or
   * `undefined` when it is not kept (or its files went meanwhile: then it is forgotten).
   */
  reuse(sourceSha256: string, into: CachedFilePlaces): Promise<CachedConversion | undefined>;
  /**
   * Keeps the conversion of `sourceSha256` from a committed session's files (`names`: each
   * cached file's name in the session), then evicts what is over the limits.
   */
  keep(sourceSha256: string, sessionId: string, names: CachedFilePlaces, entry: CachedConversion): Promise<void>;
  /**
   * Deletes cache files that belong to no entry and are older than `graceMs` (left by a crash, or by an earlier process's memory index).
   */
  removeOrphans(graceMs: number, now?: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * The conversion cache over an index ({@link CacheIndex}) and the object store: the embedded server
 * keeps its index in memory and its files in the data directory (hard links of session files),
 * a cluster its index in PostgreSQL and its files in the bucket, shared by every node. A file is
 * placed for a session (a link, or a download) before the session needs it, so eviction never takes
 * a file a session uses; a hit whose files were evicted meanwhile is a miss. The cache is an
 * optimisation: when it fails, the model is converted.
 *
 * @example
 * ```ts
 * const cache = openConversionCache({ index: memoryCacheIndex(), objects, maxEntries: 512, maxBytes: 2 ** 31 });
 * const entry = await cache.reuse(sha256, { 'model.usdz': staged.usdz, 'model.glb': staged.glb });
 * ```
 */
export function openConversionCache(
  options: Omit<ConversionCacheOptions, 'converterVersion'> & Partial<Pick<ConversionCacheOptions, 'converterVersion'>>,
): ConversionCache {
  const { index, objects, maxEntries, maxBytes, converterVersion, log } = { ...CONVERSION_CACHE_DEFAULTS, ...options };
  const keyOf = (sha256: string) => `${sha256}.${converterVersion}`;
  return {
    engine: index.engine,
    async reuse(sourceSha256, into) {
      if (maxEntries === 0) return undefined;
      const key = keyOf(sourceSha256);
      try {
        const entry = await index.lookup(key);
        if (!entry) return undefined;
        for (const name of cachedFilesOf(entry)) {
          const path = into[name];
          // A caller with nowhere to put the parts takes the entry as a miss: its files are one whole.
          if (path === undefined) return undefined;
          if (await objects.fetchCached(key, name, path)) continue;
          await index.forget(key);
          return undefined;
        }
        return entry;
      } catch (err) {
        log?.warn({ err, key }, 'conversion cache unreadable; converting');
        return undefined;
      }
    },
    async keep(sourceSha256, sessionId, names, entry) {
      if (maxEntries === 0) return;
      const bytes = entry.usdzFileBytes + entry.glbFileBytes + (entry.parts?.bytes ?? 0) + (entry.elements?.bytes ?? 0);
      if (bytes > maxBytes) return;
      const key = keyOf(sourceSha256);
      try {
        // Already kept (a node that converted the same model at the same time): nothing to add.
        if (await index.lookup(key)) return;
        const files = cachedFilesOf(entry).map((name) => [name, names[name]] as const);
        if (files.some(([, from]) => from === undefined)) return;
        for (const [name, from] of files) await objects.cacheSessionFile(sessionId, from!, key, name);
        // Files first, then the entry: an entry never names files that are not there yet.
        if (!(await index.record(key, entry, bytes))) return;
        const evicted = await index.evict({ maxEntries, maxBytes });
        if (evicted.length) await objects.deleteCached(evicted);
      } catch (err) {
        log?.warn({ err, key }, 'conversion not kept in the cache');
      }
    },
    async removeOrphans(graceMs, now = Date.now()) {
      const owned = await index.keys();
      const orphans = [...(await objects.cachedEntries())]
        .filter(([key, newestAt]) => !owned.has(key) && newestAt < now - graceMs)
        .map(([key]) => key);
      if (orphans.length) await objects.deleteCached(orphans);
      return orphans.length;
    },
    close: () => index.close(),
  };
}

/**
 * The cache's version key for conversions made under an AR budget: the converter's version and
 * the budget's limits, so a change of either never serves a conversion made otherwise.
 *
 * @example
 * ```ts
 * conversionCacheVersion(false); // → '0.1.0+13.nobudget'
 * ```
 */
export function conversionCacheVersion(budget: ArBudget | false): string {
  const limits = budget ? `budget-${budget.triangles}-${budget.meshPrims}-${budget.textureSize}-${budget.packageBytes}` : 'nobudget';
  return `${CONVERTER_VERSION}.${limits}`;
}
