import { newOnetimeCode } from '../../session/onetimeCode.js';
import { rmSync } from 'node:fs';
import { placeStagedFiles, removeFiles } from '../../files/placeStagedFiles.js';
import { sessionFilePath } from '../../files/sessionFiles.js';
import type { AssetInfo, ModelFrame } from '../../records/AssetInfo.js';
import type { StoredPlacement } from '../../records/Placement.js';
import { checkedAccountName, keyIdOf, newApiKey, presentedKeyId, secretMatches } from '../apiKeySecrets.js';
import { savedModelOf, savedModelPage, type SavedModelRow } from '../savedModelPage.js';
import type { AddFileOutcome, EndSessionOutcome, SessionFile, SessionStore } from '../SessionStore.js';
import { POSTGRES_MIGRATIONS } from './migrations.js';
import { openPostgresPool } from './postgresPool.js';

/** Options of {@link openPostgresSessionStore}. */
export interface PostgresSessionStoreOptions {
  /** `postgres://user:password@host:port/database`. */
  url: string;
  /** Where committed sessions' files go. */
  sessionsDir: string;
  /** Connections in the pool. */
  maxConnections?: number;
}

// Keys of the advisory locks the store takes (two 32-bit numbers each). One-time codes take a first
// key of their own: under the shared one, drawing code 000001 or 000002 would wait on a migration
// or a whole sweep.
const LOCK_MIGRATIONS = [0x61727365, 1] as const;
const LOCK_SWEEP = [0x61727365, 2] as const;
const LOCK_CODE = 0x61727366;

interface SessionRow {
  id: string;
  method: string;
  created_at: number;
  expires_at: number;
  onetime_code: string;
  code_claimed: boolean;
  account_id: number | null;
  placement: StoredPlacement;
  model_frame: ModelFrame;
  files: SessionFile[];
  files_deleted: boolean;
}

/**
 * The session store on PostgreSQL, shared by every node of a cluster. Migrations run on open. A
 * one-time code is drawn under an advisory lock on the code itself, so two nodes committing at
 * once never hand out the same live code; a claim is one UPDATE … RETURNING, so of two concurrent
 * claims exactly one wins; revoking a key is seen by the next request on any node (nothing is
 * cached). A database that cannot be reached makes every operation fail with a 503 (`store_unavailable`,
 * `Retry-After`), and the next one after it is back works: the pool reconnects by itself.
 *
 * @example
 * ```ts
 * const store = await openPostgresSessionStore({ url: 'postgres://arsession@db/arsession', sessionsDir: paths.sessions });
 * const session = await store.find(id);
 * await store.close();
 * ```
 */
export async function openPostgresSessionStore(options: PostgresSessionStoreOptions): Promise<SessionStore> {
  const pool = openPostgresPool({ url: options.url, maxConnections: options.maxConnections ?? 10 });
  const { query, transaction } = pool;

  await transaction(async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [...LOCK_MIGRATIONS]);
    await client.query('CREATE TABLE IF NOT EXISTS arsession_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)');
    const { rows } = await client.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM arsession_migrations');
    for (let i = rows[0]!.n; i < POSTGRES_MIGRATIONS.length; i++) {
      await client.query(POSTGRES_MIGRATIONS[i]!);
      await client.query('INSERT INTO arsession_migrations (version, applied_at) VALUES ($1, $2)', [i + 1, Date.now()]);
    }
  });

  return {
    engine: 'postgres',
    async authenticate(presented) {
      const id = presentedKeyId(presented);
      const row =
        id === undefined
          ? undefined
          : (
              await query<{ secret_hash: Buffer; revoked_at: number | null; id: number; name: string }>(
                'SELECT k.secret_hash, k.revoked_at, a.id, a.name FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = $1',
                [id],
              )
            ).rows[0];
      return secretMatches(presented, row?.secret_hash) && row && row.revoked_at === null ? { id: row.id, name: row.name } : undefined;
    },
    async commit({ record, saved, files }) {
      // Files first, then rows: a crash between leaves files no row owns, which start-up removes.
      const placed = placeStagedFiles(options.sessionsDir, record.id, files);
      try {
        return await transaction(async (client) => {
          let code = '';
          for (let attempt = 0; ; attempt++) {
            code = newOnetimeCode();
            // The lock's key is an int4: the code's last nine digits (codes alike there wait for each other, harmlessly).
            await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_CODE, Number(code.slice(-9))]);
            const taken = await client.query('SELECT 1 FROM sessions WHERE onetime_code = $1 AND expires_at > $2', [
              code,
              record.createdAt,
            ]);
            if (taken.rowCount === 0) break;
            if (attempt > 1000) throw new Error('no free one-time code after 1,000 draws');
          }
          await client.query(
            `INSERT INTO sessions (id, method, created_at, expires_at, onetime_code, account_id, placement, model_frame, files)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
            [
              record.id,
              record.method,
              record.createdAt,
              record.expiresAt,
              code,
              record.accountId,
              JSON.stringify(record.placement),
              JSON.stringify(record.modelFrame),
              JSON.stringify(record.files),
            ],
          );
          for (const a of record.assets) {
            await client.query('INSERT INTO assets (session_id, ord, source_name, info) VALUES ($1, $2, $3, $4)', [
              record.id,
              a.order,
              a.sourceName,
              JSON.stringify(a.info),
            ]);
          }
          for (const m of saved) {
            await client.query(
              `INSERT INTO saved_models (id, account_id, session_id, source_name, format, bytes, sha256, stored_as, created_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (account_id, sha256) DO NOTHING`,
              [m.id, record.accountId, record.id, m.sourceName, m.format, m.bytes, m.sha256, m.storedAs, record.createdAt],
            );
          }
          return code;
        });
      } catch (err) {
        removeFiles(placed);
        throw err;
      }
    },
    async addFile(id, file, staged, now = Date.now()) {
      let placed: string[] = [];
      try {
        return await transaction(async (client): Promise<AddFileOutcome> => {
          const row = (
            await client.query<{ files: SessionFile[]; files_deleted: boolean; expires_at: number }>(
              'SELECT files, files_deleted, expires_at FROM sessions WHERE id = $1 FOR UPDATE',
              [id],
            )
          ).rows[0];
          if (!row || row.files_deleted || row.expires_at <= now) return 'gone';
          if (row.files.some((f) => f.name === file.name)) return 'present';
          // A file of that name no row lists is what a crash between placing and listing left: replaced.
          for (const s of staged) rmSync(sessionFilePath(options.sessionsDir, id, s.name), { force: true });
          placed = placeStagedFiles(options.sessionsDir, id, staged);
          await client.query('UPDATE sessions SET files = files || $2::jsonb WHERE id = $1', [id, JSON.stringify([file])]);
          return 'added';
        });
      } catch (err) {
        removeFiles(placed);
        throw err;
      }
    },
    async find(id) {
      const row = (await query<SessionRow>('SELECT * FROM sessions WHERE id = $1', [id])).rows[0];
      if (!row) return undefined;
      const assets = (
        await query<{ ord: number; source_name: string; info: AssetInfo }>(
          'SELECT ord, source_name, info FROM assets WHERE session_id = $1 ORDER BY ord',
          [id],
        )
      ).rows.map((a) => ({ order: a.ord, sourceName: a.source_name, info: a.info }));
      return {
        id: row.id,
        method: row.method,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        onetimeCode: row.onetime_code,
        codeClaimed: row.code_claimed,
        accountId: row.account_id,
        placement: row.placement,
        modelFrame: row.model_frame,
        files: row.files,
        filesDeleted: row.files_deleted,
        assets,
      };
    },
    async claim(code, now = Date.now(), issuedAfter = -1, claimant) {
      const row = (
        await query<{ id: string; expires_at: number }>(
          'UPDATE sessions SET code_claimed = TRUE, claimed_at = $4, claimed_by = $5 WHERE onetime_code = $1 AND NOT ' +
            'code_claimed AND expires_at > $2 AND created_at > $3 RETURNING id, expires_at',
          [code, now, Number.isFinite(issuedAfter) ? issuedAfter : -1, now, claimant?.key ?? null],
        )
      ).rows[0];
      if (row) return { ok: true, session: { id: row.id, expiresAt: row.expires_at } };
      if (!claimant) return { ok: false };
      // The same client's own claim, retried: answered again (see SessionStore.claim).
      const again = (
        await query<{ id: string; expires_at: number }>(
          'SELECT id, expires_at FROM sessions WHERE onetime_code = $1 AND code_claimed AND claimed_by = $2 ' +
            'AND claimed_at >= $3 AND expires_at > $4',
          [code, claimant.key, claimant.retrySince, now],
        )
      ).rows[0];
      return again ? { ok: true, session: { id: again.id, expiresAt: again.expires_at }, retried: true } : { ok: false };
    },
    async savedModels(accountId, { limit, after }) {
      const columns = 'id, session_id, source_name, format, bytes, sha256, created_at';
      const { rows } = after
        ? await query<SavedModelRow>(
            `SELECT ${columns} FROM saved_models WHERE account_id = $1 AND (created_at < ` +
              `$2 OR (created_at = $2 AND id > $3)) ORDER BY created_at DESC, id LIMIT $4`,
            [accountId, after.createdAt, after.id, limit + 1],
          )
        : await query<SavedModelRow>(`SELECT ${columns} FROM saved_models WHERE account_id = $1 ORDER BY created_at DESC, id LIMIT $2`, [
            accountId,
            limit + 1,
          ]);
      return savedModelPage(rows, limit);
    },
    async savedModel(accountId, id) {
      const row = (
        await query<SavedModelRow & { stored_as: string }>(
          'SELECT id, session_id, source_name, format, bytes, sha256, created_at, ' +
            'stored_as FROM saved_models WHERE id = $1 AND account_id = $2',
          [id, accountId],
        )
      ).rows[0];
      return row && { ...savedModelOf(row), storedAs: row.stored_as };
    },
    async savedModelUsage(accountId, sha256s) {
      const total = (
        await query<{ count: string; bytes: string }>(
          'SELECT COUNT(*) AS count, COALESCE(SUM(bytes), 0) AS bytes FROM saved_models WHERE account_id = $1',
          [accountId],
        )
      ).rows[0]!;
      const present =
        sha256s.length === 0
          ? []
          : (
              await query<{ sha256: string }>('SELECT sha256 FROM saved_models WHERE account_id = $1 AND sha256 = ANY($2::text[])', [
                accountId,
                sha256s,
              ])
            ).rows;
      return { count: Number(total.count), bytes: Number(total.bytes), present: new Set(present.map((r) => r.sha256)) };
    },
    async deleteSavedModel(accountId, id) {
      return (
        await query<{ stored_as: string }>('DELETE FROM saved_models WHERE id = $1 AND account_id = $2 RETURNING stored_as', [
          id,
          accountId,
        ])
      ).rows[0]?.stored_as;
    },
    async endSession(id, accountId, now = Date.now()) {
      return transaction(async (client): Promise<EndSessionOutcome> => {
        const row = (
          await client.query<{ account_id: number | null; expires_at: number; files: SessionFile[] }>(
            'SELECT account_id, expires_at, files FROM sessions WHERE id = $1 FOR UPDATE',
            [id],
          )
        ).rows[0];
        if (!row) return { ended: false, reason: 'unknown' };
        if (row.account_id === null || Number(row.account_id) !== accountId) return { ended: false, reason: 'not_yours' };
        if (Number(row.expires_at) <= now) return { ended: false, reason: 'expired' };
        await client.query('UPDATE sessions SET expires_at = $2 WHERE id = $1', [id, now]);
        return { ended: true, files: row.files.map((f) => f.name) };
      });
    },
    async createApiKey(accountName) {
      const name = checkedAccountName(accountName);
      const { id, secretHash, key } = newApiKey();
      const now = Date.now();
      await transaction(async (client) => {
        await client.query('INSERT INTO accounts (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, now]);
        const account = (await client.query<{ id: number }>('SELECT id FROM accounts WHERE name = $1', [name])).rows[0]!;
        await client.query('INSERT INTO api_keys (id, account_id, secret_hash, created_at) VALUES ($1, $2, $3, $4)', [
          id,
          account.id,
          secretHash,
          now,
        ]);
      });
      return key;
    },
    async revokeApiKey(keyOrId) {
      return (
        (await query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [Date.now(), keyIdOf(keyOrId)]))
          .rowCount === 1
      );
    },
    async listApiKeys() {
      const { rows } = await query<{ id: string; account: string; created_at: number; revoked_at: number | null }>(
        'SELECT k.id, a.name AS account, k.created_at, k.revoked_at FROM api_keys ' +
          'k JOIN accounts a ON a.id = k.account_id ORDER BY k.created_at DESC, k.id',
      );
      return rows.map((r) => ({
        id: r.id,
        account: r.account,
        createdAt: new Date(r.created_at).toISOString(),
        revokedAt: r.revoked_at === null ? null : new Date(r.revoked_at).toISOString(),
      }));
    },
    async expiredWithFiles(now = Date.now()) {
      const { rows } = await query<{ id: string; files: SessionFile[] }>(
        'SELECT id, files FROM sessions WHERE expires_at <= $1 AND NOT files_deleted',
        [now],
      );
      return rows.map((r) => ({ id: r.id, files: r.files.map((f) => f.name) }));
    },
    async markFilesDeleted(id) {
      await query('UPDATE sessions SET files_deleted = TRUE WHERE id = $1', [id]);
    },
    async forgetOldSessions(retainMs, now = Date.now()) {
      return (await query('DELETE FROM sessions WHERE expires_at <= $1 AND files_deleted', [now - retainMs])).rowCount ?? 0;
    },
    async existingSessions(ids) {
      const { rows } = await query<{ id: string }>('SELECT id FROM sessions WHERE id = ANY($1::text[])', [ids]);
      return new Set(rows.map((r) => r.id));
    },
    async savedModelFiles() {
      return new Set((await query<{ stored_as: string }>('SELECT stored_as FROM saved_models')).rows.map((r) => r.stored_as));
    },
    async leadSweep(work) {
      // A session-level advisory lock on a connection of its own, held while the sweep runs: a
      // node that dies mid-sweep loses its connection, and with it the lead.
      const client = await pool.connect();
      try {
        const { rows } = await client.query<{ led: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS led', [...LOCK_SWEEP]);
        if (!rows[0]!.led) return undefined;
        try {
          return await work();
        } finally {
          await client.query('SELECT pg_advisory_unlock($1, $2)', [...LOCK_SWEEP]);
        }
      } finally {
        client.release();
      }
    },
    async ping() {
      await query('SELECT 1');
    },
    async close() {
      await pool.end();
    },
  };
}
