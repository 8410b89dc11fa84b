import { copyFileSync, linkSync, renameSync, unlinkSync } from 'node:fs';
import { sessionFilePath } from '../files/sessionFiles.js';
import type { Db } from './openDatabase.js';
import { insertSession, type NewSession, type SavedModelInput } from './sessions.js';

/** A file made for a session, staged outside the sessions directory until the session is committed. */
export interface StagedFile {
  /** Where it is now (on the same file system as the sessions directory). */
  from: string;
  /** Its name in the session (`0.usdz`, `reference_image.png`). */
  name: string;
  /** Hard-link it instead of moving it: the source stays (a conversion cache entry). */
  link?: boolean;
}

/** Everything that makes a session exist: its files and its database rows. */
export interface SessionCommit {
  record: NewSession;
  saved: readonly SavedModelInput[];
  files: readonly StagedFile[];
}

/** One session's outcome: its one-time code, or why it was not stored. */
export type CommitOutcome = { code: string } | { error: Error };

/**
 * Commits sessions in one transaction: each gets its staged files moved (or linked) into
 * `sessionsDir` under its id ({@link sessionFilePath}), then its rows. Each session is its own
 * savepoint, so one that fails is rolled back (and its files removed) alone; if the commit itself
 * fails, every file of the batch is removed. A kill between the moves and the commit leaves files
 * no row owns, which start-up removes. No existing file is ever replaced: a name already taken
 * fails that session.
 *
 * Why batches: a commit (the WAL append) costs about twice the rows it carries, and under load
 * dozens of sessions finish together.
 *
 * @example
 * ```ts
 * const [outcome] = commitSessions(db, paths.sessions, [{ record, saved: [], files: [{ from: staged, name: '0.usdz' }] }]);
 * ```
 */
export function commitSessions(db: Db, sessionsDir: string, batch: readonly SessionCommit[]): CommitOutcome[] {
  const outcomes: CommitOutcome[] = [];
  const placed: string[] = [];
  const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));
  const remove = (paths: readonly string[]) => {
    for (const path of paths) {
      try {
        unlinkSync(path);
      } catch {
        // Already gone: nothing to undo.
      }
    }
  };
  try {
    db.transaction(() => {
      for (const session of batch) {
        const mine: string[] = [];
        try {
          for (const file of session.files) {
            const to = sessionFilePath(sessionsDir, session.record.id, file.name);
            // A link never replaces an existing name (a rename would): EEXIST fails the session.
            linkRenewing(file.from, to);
            mine.push(to);
            if (!file.link) unlinkSync(file.from);
          }
          // insertSession's own transaction nests as a savepoint here.
          outcomes.push({ code: insertSession(db, session.record, session.saved) });
          placed.push(...mine);
        } catch (err) {
          remove(mine);
          outcomes.push({ error: asError(err) });
        }
      }
    })();
  } catch (err) {
    remove(placed);
    const error = asError(err);
    return batch.map(() => ({ error }));
  }
  return outcomes;
}

/**
 * `linkSync(from, to)`, renewing `from` when it has all the names its file system allows (ext4:
 * 65,000): a conversion cache entry shared by that many sessions is replaced, atomically, by a
 * fresh copy of itself, which starts a new count. The sessions already linked keep the old inode.
 */
function linkRenewing(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EMLINK') throw err;
    const fresh = `${from}.renew-${process.pid}`;
    copyFileSync(from, fresh);
    renameSync(fresh, from);
    linkSync(from, to);
  }
}
