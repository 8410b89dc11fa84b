import { copyFileSync, linkSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './openDatabase.js';
import { insertSession, type SavedModelInput, type SessionRecord } from './sessions.js';

/** A finished session as {@link insertSession} takes it. */
export type NewSession = Omit<SessionRecord, 'onetimeCode' | 'codeClaimed' | 'filesDeleted'>;

/** A file made for a session, staged outside its directory until the session is committed. */
export interface StagedFile {
  /** Where it is now (on the same file system as the sessions directory). */
  from: string;
  /** Its name in the session's directory. */
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
 * Commits sessions in one transaction: each gets its directory under `sessionsDir` with its staged
 * files moved (or linked) in, then its rows. Each session is its own savepoint, so one that fails is rolled
 * back (and its directory removed) alone; if the commit itself fails, every directory of the
 * batch is removed. A kill between the moves and the commit leaves directories no row owns,
 * which start-up removes.
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
  const made: string[] = [];
  try {
    db.transaction(() => {
      for (const session of batch) {
        const dir = join(sessionsDir, session.record.id);
        let ours = false;
        try {
          mkdirSync(dir);
          ours = true;
          made.push(dir);
          for (const file of session.files) (file.link ? linkRenewing : renameSync)(file.from, join(dir, file.name));
          // insertSession's own transaction nests as a savepoint here.
          outcomes.push({ code: insertSession(db, session.record, session.saved) });
        } catch (err) {
          // A directory that was there already (an id taken) belongs to someone else.
          if (ours) {
            rmSync(dir, { recursive: true, force: true });
            made.pop();
          }
          outcomes.push({ error: err instanceof Error ? err : new Error(String(err)) });
        }
      }
    })();
  } catch (err) {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
    const error = err instanceof Error ? err : new Error(String(err));
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
