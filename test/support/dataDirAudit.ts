import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { openDatabase, sessionFilePath, sessionOfEntry } from '@arsession/server';

/** What a data directory holds against what its database says (all lists empty: consistent). */
export interface DataDirAudit {
  /** `PRAGMA integrity_check`: `ok` or SQLite's list of problems. */
  integrity: string;
  /** Rows of `PRAGMA foreign_key_check`. */
  foreignKeyViolations: number;
  /** Session ids with a row. */
  sessionIds: string[];
  /** Files under `uploads/` (requests in progress; none once a server has started). */
  uploads: string[];
  /** Entries of `sessions/` that no session row owns. */
  unownedSessionEntries: string[];
  /** Files of `models/` that no saved-model row owns. */
  unownedModelFiles: string[];
  /** `<session>/<file>` listed by a live session row whose file is missing or differs in size or SHA-256. */
  damagedSessionFiles: string[];
  /** Saved-model rows whose file is missing or differs in size or SHA-256. */
  damagedModelFiles: string[];
}

const sha256Of = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

/**
 * Opens the server's SQLite file and checks it against the files on disk: the database is sound,
 * every file a row lists is there with the size and SHA-256 the row records, and nothing is on disk
 * that no row owns.
 */
export function auditDataDir(dataDir: string): DataDirAudit {
  const db = openDatabase(join(dataDir, 'arsession.sqlite'));
  try {
    const integrity = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check).join('; ');
    const foreignKeyViolations = (db.pragma('foreign_key_check') as unknown[]).length;
    const sessions = db.prepare('SELECT id, files, files_deleted FROM sessions').all() as Array<{
      id: string;
      files: string;
      files_deleted: number;
    }>;
    const models = db.prepare('SELECT stored_as, bytes, sha256 FROM saved_models').all() as Array<{
      stored_as: string;
      bytes: number;
      sha256: string;
    }>;
    const sessionIds = sessions.map((s) => s.id);
    const damagedSessionFiles: string[] = [];
    for (const s of sessions.filter((row) => row.files_deleted === 0)) {
      for (const f of JSON.parse(s.files) as Array<{ name: string; bytes: number; sha256: string }>) {
        const path = sessionFilePath(join(dataDir, 'sessions'), s.id, f.name);
        if (!existsSync(path) || statSync(path).size !== f.bytes || sha256Of(path) !== f.sha256)
          damagedSessionFiles.push(`${s.id}/${f.name}`);
      }
    }
    const damagedModelFiles = models
      .filter((m) => {
        const path = join(dataDir, 'models', m.stored_as);
        return !existsSync(path) || statSync(path).size !== m.bytes || sha256Of(path) !== m.sha256;
      })
      .map((m) => m.stored_as);
    const owned = new Set(models.map((m) => m.stored_as));
    return {
      integrity,
      foreignKeyViolations,
      sessionIds,
      uploads: filesUnder(join(dataDir, 'uploads')),
      unownedSessionEntries: readdirSync(join(dataDir, 'sessions')).filter((e) => !sessionIds.includes(sessionOfEntry(e))),
      unownedModelFiles: filesUnder(join(dataDir, 'models')).filter((f) => !owned.has(f)),
      damagedSessionFiles,
      damagedModelFiles,
    };
  } finally {
    db.close();
  }
}
