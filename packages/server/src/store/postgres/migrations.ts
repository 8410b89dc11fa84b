/**
 * The PostgreSQL schema, in order: the same data model as the SQLite engine's (store/sqlite/
 * openDatabase.ts), and the cluster's conversion-cache index, with JSONB for the records and BIGINT milliseconds for times. A database
 * records what it has applied in `arsession_migrations`; every node applies what is missing on
 * start, one node at a time (an advisory lock).
 */
export const POSTGRES_MIGRATIONS: readonly string[] = [
  `CREATE TABLE accounts (
     id BIGSERIAL PRIMARY KEY,
     name TEXT NOT NULL UNIQUE,
     created_at BIGINT NOT NULL
   );
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     account_id BIGINT NOT NULL REFERENCES accounts(id),
     secret_hash BYTEA NOT NULL,
     created_at BIGINT NOT NULL,
     revoked_at BIGINT
   );
   CREATE TABLE sessions (
     id TEXT PRIMARY KEY,
     method TEXT NOT NULL,
     created_at BIGINT NOT NULL,
     expires_at BIGINT NOT NULL,
     onetime_code TEXT NOT NULL,
     code_claimed BOOLEAN NOT NULL DEFAULT FALSE,
     account_id BIGINT REFERENCES accounts(id),
     placement JSONB NOT NULL,
     model_frame JSONB NOT NULL,
     files JSONB NOT NULL,
     files_deleted BOOLEAN NOT NULL DEFAULT FALSE
   );
   CREATE INDEX sessions_code ON sessions(onetime_code);
   CREATE INDEX sessions_expiry ON sessions(expires_at);
   CREATE TABLE assets (
     session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
     ord INTEGER NOT NULL,
     source_name TEXT NOT NULL,
     info JSONB NOT NULL,
     PRIMARY KEY (session_id, ord)
   );
   CREATE TABLE saved_models (
     id TEXT PRIMARY KEY,
     account_id BIGINT NOT NULL REFERENCES accounts(id),
     session_id TEXT NOT NULL,
     source_name TEXT NOT NULL,
     format TEXT NOT NULL,
     bytes BIGINT NOT NULL,
     sha256 TEXT NOT NULL,
     stored_as TEXT NOT NULL,
     created_at BIGINT NOT NULL
   );
   CREATE INDEX saved_models_account ON saved_models(account_id, created_at);`,
  // The conversion cache's index (cache/postgres): the files are the object store's, `cache/<key>/`.
  `CREATE TABLE conversion_cache (
     key TEXT PRIMARY KEY,
     entry JSONB NOT NULL,
     bytes BIGINT NOT NULL,
     created_at BIGINT NOT NULL,
     used_at BIGINT NOT NULL
   );
   CREATE INDEX conversion_cache_used ON conversion_cache(used_at);`,
  // A saved model is stored once per content and account: copies saved before are dropped (the
  // oldest kept); their objects, which no row names any more, go with the orphan sweep.
  `DELETE FROM saved_models a USING saved_models b
     WHERE a.account_id = b.account_id AND a.sha256 = b.sha256 AND (a.created_at, a.id) > (b.created_at, b.id);
   CREATE UNIQUE INDEX saved_models_content ON saved_models(account_id, sha256);`,
  // Who claimed a code and when, so the same client's retry is answered again (claimRoute).
  'ALTER TABLE sessions ADD COLUMN claimed_at BIGINT, ADD COLUMN claimed_by TEXT',
];
