import type { CachedConversion } from '../CachedConversion.js';
import type { CacheIndex } from '../CacheIndex.js';

/**
 * The embedded cache index: this process's memory. Entries live as long as the process (its
 * files are removed at the next start as belonging to no entry).
 *
 * @example
 * ```ts
 * const index = memoryCacheIndex();
 * ```
 */
export function memoryCacheIndex(): CacheIndex {
  // Map order is recency order: a lookup moves its key to the end, eviction takes from the front.
  const lru = new Map<string, { entry: CachedConversion; bytes: number }>();
  let total = 0;
  return {
    engine: 'memory',
    async lookup(key) {
      const found = lru.get(key);
      if (!found) return undefined;
      lru.delete(key);
      lru.set(key, found);
      return found.entry;
    },
    async record(key, entry, bytes) {
      if (lru.has(key)) return false;
      lru.set(key, { entry, bytes });
      total += bytes;
      return true;
    },
    async evict({ maxEntries, maxBytes }) {
      const evicted: string[] = [];
      for (const [key, { bytes }] of lru) {
        if (lru.size <= maxEntries && total <= maxBytes) break;
        lru.delete(key);
        total -= bytes;
        evicted.push(key);
      }
      return evicted;
    },
    async forget(key) {
      const found = lru.get(key);
      if (!found) return;
      lru.delete(key);
      total -= found.bytes;
    },
    keys: async () => new Set(lru.keys()),
    close: async () => undefined,
  };
}
