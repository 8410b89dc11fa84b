import { placeStagedFiles, removeFiles } from '../../files/placeStagedFiles.js';
import type { SessionCommit } from '../SessionStore.js';
import type { Db } from './openDatabase.js';
import { insertSession } from './sessions.js';

/** One session's outcome: its one-time code, or why it was not stored. */
export type CommitOutcome = { code: string } | { error: Error };

/**
 * Commits sessions in one transaction: each gets its staged files moved (or linked) into
 * `sessionsDir` under its id ({@link placeStagedFiles}), then its rows. Each session is its own
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
  try {
    db.transaction(() => {
      for (const session of batch) {
        let mine: string[] = [];
        try {
          mine = placeStagedFiles(sessionsDir, session.record.id, session.files);
          // insertSession's own transaction nests as a savepoint here.
          outcomes.push({ code: insertSession(db, session.record, session.saved) });
          placed.push(...mine);
        } catch (err) {
          removeFiles(mine);
          outcomes.push({ error: asError(err) });
        }
      }
    })();
  } catch (err) {
    removeFiles(placed);
    const error = asError(err);
    return batch.map(() => ({ error }));
  }
  return outcomes;
}
