import type BetterSqlite3 from 'better-sqlite3';
import { Database } from './sqliteDriver.js';

/** An open SQLite database (better-sqlite3). */
export type Db = BetterSqlite3.Database;

/**
 * Schema changes in order; a database records how many it has applied (`user_version`), so a
 * server started on an older data directory brings it up to date before serving.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE accounts (
     id INTEGER PRIMARY KEY,
     name TEXT NOT NULL UNIQUE,
     created_at INTEGER NOT NULL
   );
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     account_id INTEGER NOT NULL REFERENCES accounts(id),
     secret_hash BLOB NOT NULL,
     created_at INTEGER NOT NULL,
     revoked_at INTEGER
   );
   CREATE TABLE sessions (
     id TEXT PRIMARY KEY,
     method TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     onetime_code TEXT NOT NULL,
     code_claimed INTEGER NOT NULL DEFAULT 0,
     account_id INTEGER REFERENCES accounts(id),
     placement TEXT NOT NULL,
     model_frame TEXT NOT NULL,
     files TEXT NOT NULL,
     files_deleted INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX sessions_code ON sessions(onetime_code);
   CREATE INDEX sessions_expiry ON sessions(expires_at);
   CREATE TABLE assets (
     session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
     ord INTEGER NOT NULL,
     source_name TEXT NOT NULL,
     info TEXT NOT NULL,
     PRIMARY KEY (session_id, ord)
   );
   CREATE TABLE saved_models (
     id TEXT PRIMARY KEY,
     account_id INTEGER NOT NULL REFERENCES accounts(id),
     session_id TEXT NOT NULL,
     source_name TEXT NOT NULL,
     format TEXT NOT NULL,
     bytes INTEGER NOT NULL,
     sha256 TEXT NOT NULL,
     stored_as TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE INDEX saved_models_account ON saved_models(account_id, created_at);`,
  // A saved model is stored once per content and account: copies saved before are dropped (the
  // first kept); their files, which no row names any more, go with the start-up clean-up.
  `DELETE FROM saved_models WHERE rowid NOT IN (SELECT MIN(rowid) FROM saved_models GROUP BY account_id, sha256);
   CREATE UNIQUE INDEX saved_models_content ON saved_models(account_id, sha256);`,
  // Who claimed a code and when, so the same client's retry is answered again (claimRoute).
  `ALTER TABLE sessions ADD COLUMN claimed_at INTEGER;
   ALTER TABLE sessions ADD COLUMN claimed_by TEXT;`,
];

/** How {@link openDatabase} opens the file. */
export interface OpenDatabaseOptions {
  /**
   * `'automatic'` (default): SQLite copies the write-ahead log into the database after the commit
   * that grows it past 1000 pages, on the committing thread. `'external'`: never on this
   * connection; a `startWalCheckpointer` thread does it.
   */
  checkpoints?: 'automatic' | 'external';
}

/** The write-ahead log is cut back to this size when it restarts (it is otherwise left at its largest). */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Opens (creating if needed) the server's SQLite file in WAL mode — readers never wait for the
 * writer, and a killed process loses at most the transaction in flight — and applies pending
 * migrations in one transaction each.
 *
 * @example
 * ```ts
 * const db = openDatabase('./data/arsession.sqlite');
 * ```
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Db {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode is durable against a process crash (only a power loss can drop the last commits).
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  if (options.checkpoints === 'external') db.pragma('wal_autocheckpoint = 0');
  const applied = db.pragma('user_version', { simple: true }) as number;
  for (let i = applied; i < MIGRATIONS.length; i++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[i]!);
      db.pragma(`user_version = ${i + 1}`);
    })();
  }
  return db;
}
