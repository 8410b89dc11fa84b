import pg from 'pg';
import { storeUnavailable } from './storeUnavailable.js';

/** Options of {@link openPostgresPool}. */
export interface PostgresPoolOptions {
  /** `postgres://…` (`ARSESSION_DATABASE_URL`). */
  url: string;
  /** Connections in the pool. */
  maxConnections: number;
}

/** A pool whose every failure to reach the database is the 503 `store_unavailable`. */
export interface PostgresPool {
  query<R extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  /** Runs `work` in one transaction (BEGIN … COMMIT, ROLLBACK when it throws). */
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /** A connection of its own (a session-level advisory lock); the caller releases it. */
  connect(): Promise<pg.PoolClient>;
  end(): Promise<void>;
}

// BIGINT (times in ms, ids, sizes) arrives as text by default; every value we keep fits a double.
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * The connection pool of what the server keeps in PostgreSQL (the session store, the conversion
 * cache's index): BIGINT read as numbers, a failure to reach the database thrown as
 * `store_unavailable` (503 + `Retry-After`), and a connection that breaks while idle (the server
 * restarts) dropped rather than crashing the process; the next query reconnects.
 *
 * @example
 * ```ts
 * const db = openPostgresPool({ url: config.databaseUrl, maxConnections: 10 });
 * const { rows } = await db.query<{ id: string }>('SELECT id FROM sessions WHERE id = $1', [id]);
 * ```
 */
export function openPostgresPool(options: PostgresPoolOptions): PostgresPool {
  const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections, types: TYPES, connectionTimeoutMillis: 5000 });
  pool.on('error', () => {});
  const connect = () =>
    pool.connect().catch((err: unknown) => {
      throw storeUnavailable(err);
    });
  return {
    async query<R extends pg.QueryResultRow>(sql: string, values: unknown[] = []) {
      try {
        return await pool.query<R>(sql, values);
      } catch (err) {
        throw storeUnavailable(err);
      }
    },
    async transaction(work) {
      const client = await connect();
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw storeUnavailable(err);
      } finally {
        client.release();
      }
    },
    connect,
    end: () => pool.end(),
  };
}
