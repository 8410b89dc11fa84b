import { savedModelOf, savedModelPage, type SavedModelRow } from '../savedModelPage.js';
import type { EndSessionOutcome, SavedModel, SavedModelCursor, SavedModelPage, SavedModelUsage } from '../SessionStore.js';
import type { Db } from './openDatabase.js';
import { prepared } from './prepared.js';

const COLUMNS = 'id, session_id, source_name, format, bytes, sha256, created_at';

/** A page of an account's saved models, newest first (ties by id): `limit` of them after `after`. */
export function listSavedModels(db: Db, accountId: number, { limit, after }: { limit: number; after?: SavedModelCursor }): SavedModelPage {
  // One more than asked for tells whether a next page exists.
  const rows = (
    after
      ? prepared(
          db,
          `SELECT ${COLUMNS} FROM saved_models WHERE account_id = ? AND (created_at ` +
            `< ? OR (created_at = ? AND id > ?)) ORDER BY created_at DESC, id LIMIT ?`,
        ).all(accountId, after.createdAt, after.createdAt, after.id, limit + 1)
      : prepared(db, `SELECT ${COLUMNS} FROM saved_models WHERE account_id = ? ORDER BY created_at DESC, id LIMIT ?`).all(
          accountId,
          limit + 1,
        )
  ) as SavedModelRow[];
  return savedModelPage(rows, limit);
}

/** How much an account keeps, and which of `sha256s` it has saved already. */
export function savedModelUsage(db: Db, accountId: number, sha256s: readonly string[]): SavedModelUsage {
  const total = prepared(db, 'SELECT COUNT(*) AS count, COALESCE(SUM(bytes), 0) AS bytes FROM saved_models WHERE account_id = ?').get(
    accountId,
  ) as { count: number; bytes: number };
  const present =
    sha256s.length === 0
      ? []
      : (prepared(db, 'SELECT sha256 FROM saved_models WHERE account_id = ? AND sha256 IN (SELECT value FROM json_each(?))').all(
          accountId,
          JSON.stringify(sha256s),
        ) as Array<{ sha256: string }>);
  return { count: total.count, bytes: total.bytes, present: new Set(present.map((r) => r.sha256)) };
}

/** Forgets one of an account's saved models; its path under the models store, or `undefined`. */
export function deleteSavedModel(db: Db, accountId: number, id: string): string | undefined {
  const row = prepared(db, 'DELETE FROM saved_models WHERE id = ? AND account_id = ? RETURNING stored_as').get(id, accountId) as
    | { stored_as: string }
    | undefined;
  return row?.stored_as;
}

/** Ends a live session of this account now ({@link SessionStore.endSession}). */
export function endSession(db: Db, id: string, accountId: number, now = Date.now()): EndSessionOutcome {
  return db.transaction((): EndSessionOutcome => {
    const row = prepared(db, 'SELECT account_id, expires_at, files FROM sessions WHERE id = ?').get(id) as
      | { account_id: number | null; expires_at: number; files: string }
      | undefined;
    if (!row) return { ended: false, reason: 'unknown' };
    if (row.account_id !== accountId) return { ended: false, reason: 'not_yours' };
    if (row.expires_at <= now) return { ended: false, reason: 'expired' };
    prepared(db, 'UPDATE sessions SET expires_at = ? WHERE id = ?').run(now, id);
    return { ended: true, files: (JSON.parse(row.files) as Array<{ name: string }>).map((f) => f.name) };
  })();
}

/** One of an account's saved models with its path under the models store. */
export function findSavedModel(db: Db, accountId: number, id: string): (SavedModel & { storedAs: string }) | undefined {
  const row = prepared(db, `SELECT ${COLUMNS}, stored_as FROM saved_models WHERE id = ? AND account_id = ?`).get(id, accountId) as
    | (SavedModelRow & { stored_as: string })
    | undefined;
  return row && { ...savedModelOf(row), storedAs: row.stored_as };
}
