import type { SavedModel } from '../SessionStore.js';
import type { Db } from './openDatabase.js';
import { prepared } from './prepared.js';

/** An account's saved models, newest first. */
export function listSavedModels(db: Db, accountId: number): SavedModel[] {
  const rows = prepared(db, 
    'SELECT id, session_id, source_name, format, bytes, sha256, created_at FROM saved_models WHERE account_id = ? ORDER BY created_at DESC, id',
  ).all(accountId) as Array<{ id: string; session_id: string; source_name: string; format: string; bytes: number; sha256: string; created_at: number }>;
  return rows.map((r) => ({
    id: r.id, sessionId: r.session_id, sourceName: r.source_name, format: r.format, bytes: r.bytes, sha256: r.sha256,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
