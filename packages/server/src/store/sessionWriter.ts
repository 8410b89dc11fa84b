import { insertSession, type SavedModelInput, type SessionRecord } from './sessions.js';
import type { Db } from './openDatabase.js';

/** A finished session as {@link insertSession} takes it. */
export type NewSession = Omit<SessionRecord, 'onetimeCode' | 'codeClaimed' | 'filesDeleted'>;

/** Stores finished sessions, several per commit when they finish together. */
export interface SessionWriter {
  /** Resolves to the session's one-time code once its transaction is committed. */
  insert(record: NewSession, saved: readonly SavedModelInput[]): Promise<string>;
}

interface Pending {
  record: NewSession;
  saved: readonly SavedModelInput[];
  resolve(code: string): void;
  reject(err: unknown): void;
}

/**
 * Group commit: sessions that finish in the same turn of the event loop are written in one
 * transaction. A commit (the WAL append) costs about twice the rows it carries, and under load
 * dozens of sessions finish together. Each session still gets its 201 only after the commit that
 * holds it; each is its own savepoint, so one that fails rolls back alone.
 *
 * @example
 * ```ts
 * const writer = createSessionWriter(db);
 * const code = await writer.insert(record, saved);
 * ```
 */
export function createSessionWriter(db: Db): SessionWriter {
  let queue: Pending[] = [];
  const flush = () => {
    const batch = queue;
    queue = [];
    const outcomes: Array<{ code: string } | { err: unknown }> = [];
    try {
      db.transaction(() => {
        // insertSession's own transaction nests as a savepoint here.
        for (const p of batch) {
          try {
            outcomes.push({ code: insertSession(db, p.record, p.saved) });
          } catch (err) {
            outcomes.push({ err });
          }
        }
      })();
    } catch (err) {
      // The commit itself failed: nothing in the batch was stored.
      for (const p of batch) p.reject(err);
      return;
    }
    for (const [i, p] of batch.entries()) {
      const outcome = outcomes[i]!;
      if ('code' in outcome) p.resolve(outcome.code);
      else p.reject(outcome.err);
    }
  };
  return {
    insert(record, saved) {
      return new Promise((resolve, reject) => {
        if (queue.length === 0) setImmediate(flush);
        queue.push({ record, saved, resolve, reject });
      });
    },
  };
}
