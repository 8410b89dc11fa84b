import { newOnetimeCode } from '../../session/onetimeCode.js';
import { rmSync } from 'node:fs';
import { placeStagedFiles, removeFiles } from '../../files/placeStagedFiles.js';
import { sessionFilePath } from '../../files/sessionFiles.js';
import type { AssetInfo, ModelFrame } from '../../records/AssetInfo.js';
import type { StoredPlacement } from '../../records/Placement.js';
import type {
  AddFileOutcome,
  Claimant,
  ClaimOutcome,
  ExpiredSession,
  NewSession,
  SavedModelInput,
  SessionFile,
  SessionRecord,
  StagedFile,
} from '../SessionStore.js';
import type { Db } from './openDatabase.js';
import { prepared } from './prepared.js';

/**
 * Stores a finished session with its assets (and the account's saved models) in one transaction,
 * drawing its one-time code there too so that two live sessions never share one.
 *
 * @returns the one-time code (`newOnetimeCode`: 12 digits, leading zeros kept)
 */
export function insertSession(db: Db, record: NewSession, saved: readonly SavedModelInput[]): string {
  return db.transaction(() => {
    const taken = prepared(db, 'SELECT 1 FROM sessions WHERE onetime_code = ? AND expires_at > ?');
    let code = '';
    for (let attempt = 0; ; attempt++) {
      code = newOnetimeCode();
      if (!taken.get(code, record.createdAt)) break;
      if (attempt > 1000) throw new Error('no free one-time code after 1,000 draws');
    }
    prepared(
      db,
      `INSERT INTO sessions (id, method, created_at, expires_at, onetime_code, account_id, placement, model_frame, files)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      record.id,
      record.method,
      record.createdAt,
      record.expiresAt,
      code,
      record.accountId,
      JSON.stringify(record.placement),
      JSON.stringify(record.modelFrame),
      JSON.stringify(record.files),
    );
    const asset = prepared(db, 'INSERT INTO assets (session_id, ord, source_name, info) VALUES (?, ?, ?, ?)');
    for (const a of record.assets) asset.run(record.id, a.order, a.sourceName, JSON.stringify(a.info));
    const model = prepared(
      db,
      `INSERT INTO saved_models (id, account_id, session_id, source_name, format, bytes, sha256, stored_as, created_at)
                              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, sha256) DO NOTHING`,
    );
    for (const m of saved)
      model.run(m.id, record.accountId, record.id, m.sourceName, m.format, m.bytes, m.sha256, m.storedAs, record.createdAt);
    return code;
  })();
}

interface SessionRow {
  id: string;
  method: string;
  created_at: number;
  expires_at: number;
  onetime_code: string;
  code_claimed: number;
  account_id: number | null;
  placement: string;
  model_frame: string;
  files: string;
  files_deleted: number;
}

/** A session by id with its assets in upload order, or `undefined`. */
export function findSession(db: Db, id: string): SessionRecord | undefined {
  const row = prepared(db, 'SELECT * FROM sessions WHERE id = ?').get(id) as SessionRow | undefined;
  if (!row) return undefined;
  const assets = (
    prepared(db, 'SELECT ord, source_name, info FROM assets WHERE session_id = ? ORDER BY ord').all(id) as Array<{
      ord: number;
      source_name: string;
      info: string;
    }>
  ).map((a) => ({ order: a.ord, sourceName: a.source_name, info: JSON.parse(a.info) as AssetInfo }));
  return {
    id: row.id,
    method: row.method,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    onetimeCode: row.onetime_code,
    codeClaimed: row.code_claimed === 1,
    accountId: row.account_id,
    placement: JSON.parse(row.placement) as StoredPlacement,
    modelFrame: JSON.parse(row.model_frame) as ModelFrame,
    files: JSON.parse(row.files) as SessionFile[],
    filesDeleted: row.files_deleted === 1,
    assets,
  };
}

/**
 * Uses a one-time code: the live, unclaimed session holding it, made after `issuedAfter` (its
 * code still alive), is marked claimed (by `claimant`) in the same statement that finds it, so two
 * concurrent claims cannot both win; else the live session `claimant` itself claimed with it since
 * `claimant.retrySince` is answered again (see `SessionStore.claim`).
 */
export function claimOnetimeCode(db: Db, code: string, now = Date.now(), issuedAfter = -Infinity, claimant?: Claimant): ClaimOutcome {
  const row = prepared(
    db,
    'UPDATE sessions SET code_claimed = 1, claimed_at = ?, claimed_by = ? WHERE onetime_code = ? AND code_claimed ' +
      '= 0 AND expires_at > ? AND created_at > ? RETURNING id, expires_at',
  ).get(now, claimant?.key ?? null, code, now, Number.isFinite(issuedAfter) ? issuedAfter : -1) as
    | { id: string; expires_at: number }
    | undefined;
  if (row) return { ok: true, session: { id: row.id, expiresAt: row.expires_at } };
  if (!claimant) return { ok: false };
  const again = prepared(
    db,
    'SELECT id, expires_at FROM sessions WHERE onetime_code = ? AND code_claimed = 1 AND claimed_by = ? ' +
      'AND claimed_at >= ? AND expires_at > ?',
  ).get(code, claimant.key, claimant.retrySince, now) as { id: string; expires_at: number } | undefined;
  return again ? { ok: true, session: { id: again.id, expiresAt: again.expires_at }, retried: true } : { ok: false };
}

/** Adds a derived file to a live session ({@link SessionStore.addFile}), in one transaction with placing it. */
export function addSessionFile(
  db: Db,
  sessionsDir: string,
  id: string,
  file: SessionFile,
  staged: readonly StagedFile[],
  now = Date.now(),
): AddFileOutcome {
  let placed: string[] = [];
  try {
    return db.transaction((): AddFileOutcome => {
      const row = prepared(db, 'SELECT files, files_deleted, expires_at FROM sessions WHERE id = ?').get(id) as
        | { files: string; files_deleted: number; expires_at: number }
        | undefined;
      if (!row || row.files_deleted === 1 || row.expires_at <= now) return 'gone';
      const files = JSON.parse(row.files) as SessionFile[];
      if (files.some((f) => f.name === file.name)) return 'present';
      // A file of that name no row lists is what a crash between placing and listing left: replaced.
      for (const s of staged) rmSync(sessionFilePath(sessionsDir, id, s.name), { force: true });
      placed = placeStagedFiles(sessionsDir, id, staged);
      prepared(db, 'UPDATE sessions SET files = ? WHERE id = ?').run(JSON.stringify([...files, file]), id);
      return 'added';
    })();
  } catch (err) {
    removeFiles(placed);
    throw err;
  }
}

/** Sessions past their expiry whose files are still on disk, with the names of those files. */
export function expiredWithFiles(db: Db, now = Date.now()): ExpiredSession[] {
  return (
    prepared(db, 'SELECT id, files FROM sessions WHERE expires_at <= ? AND files_deleted = 0').all(now) as Array<{
      id: string;
      files: string;
    }>
  ).map((r) => ({ id: r.id, files: (JSON.parse(r.files) as SessionFile[]).map((f) => f.name) }));
}

/** Records that a session's files are gone. */
export function markFilesDeleted(db: Db, id: string): void {
  prepared(db, 'UPDATE sessions SET files_deleted = 1 WHERE id = ?').run(id);
}

/** Forgets sessions expired longer ago than `retainMs` (until then they answer 410, after that 404). */
export function forgetOldSessions(db: Db, retainMs: number, now = Date.now()): number {
  return prepared(db, 'DELETE FROM sessions WHERE expires_at <= ? AND files_deleted = 1').run(now - retainMs).changes;
}
