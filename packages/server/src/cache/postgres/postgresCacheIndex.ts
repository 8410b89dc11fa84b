import { openPostgresPool } from '../../store/postgres/postgresPool.js';
import type { CachedConversion } from '../CachedConversion.js';
import type { CacheIndex } from '../CacheIndex.js';

/** Options of {@link postgresCacheIndex}. */
export interface PostgresCacheIndexOptions {
  /** The session store's database (`ARSESSION_DATABASE_URL`), whose migrations made the table. */
  url: string;
  /** Connections of its own. */
  maxConnections?: number;
}

/**
 * `used_at` for a use at `$n` (ms): that time, or just after the latest use recorded when that is
 * as late (uses within one millisecond, or a node whose clock is behind), so uses are ordered as
 * they happened and the least recently used is evicted first, never a tie broken by the key.
 */
const usedAtAfterEveryUse = (n: number) => `GREATEST($${n}::bigint, (SELECT COALESCE(max(used_at), 0) + 1 FROM conversion_cache))`;

/**
 * The cluster's cache index: the `conversion_cache` table of the session store's PostgreSQL (made
 * by its migrations), shared by every node, so a model converted on one node is reused on all.
 * Use times are milliseconds, each after the last recorded; eviction takes the least recently used rows beyond the limits in one
 * statement, so nodes evicting at once each remove distinct rows.
 *
 * @example
 * ```ts
 * const index = postgresCacheIndex({ url: config.databaseUrl });
 * ```
 */
export function postgresCacheIndex(options: PostgresCacheIndexOptions): CacheIndex {
  const { query, end } = openPostgresPool({ url: options.url, maxConnections: options.maxConnections ?? 4 });
  return {
    engine: 'postgres',
    async lookup(key) {
      const { rows } = await query<{ entry: CachedConversion }>(
        `UPDATE conversion_cache SET used_at = ${usedAtAfterEveryUse(2)} WHERE key = $1 RETURNING entry`,
        [key, Date.now()],
      );
      return rows[0]?.entry;
    },
    async record(key, entry, bytes) {
      const now = Date.now();
      const { rowCount } = await query(
        `INSERT INTO conversion_cache (key, entry, bytes, created_at, used_at) VALUES ` +
          `($1, $2, $3, $4, ${usedAtAfterEveryUse(4)}) ON CONFLICT (key) DO NOTHING`,
        [key, JSON.stringify(entry), bytes, now],
      );
      return rowCount === 1;
    },
    async evict({ maxEntries, maxBytes }) {
      const { rows } = await query<{ key: string }>(
        `DELETE FROM conversion_cache WHERE key IN (
           SELECT key FROM (
             SELECT key, row_number() OVER newest AS n, sum(bytes) OVER newest AS total
             FROM conversion_cache WINDOW newest AS (ORDER BY used_at DESC, key)
           ) ranked WHERE n > $1 OR total > $2
         ) RETURNING key`,
        [maxEntries, maxBytes],
      );
      return rows.map((r) => r.key);
    },
    async forget(key) {
      await query('DELETE FROM conversion_cache WHERE key = $1', [key]);
    },
    keys: async () => new Set((await query<{ key: string }>('SELECT key FROM conversion_cache')).rows.map((r) => r.key)),
    close: end,
  };
}
