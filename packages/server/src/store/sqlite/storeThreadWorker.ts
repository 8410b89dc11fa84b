// The store thread: its own connection to the server's database, so that checking keys, moving
// sessions' files into place and committing their rows never take the event loop's time.
import { parentPort, workerData } from 'node:worker_threads';
import type { Account, SessionCommit } from '../SessionStore.js';
import { authenticateApiKey } from './apiKeys.js';
import { commitSessions } from './commitSessions.js';
import { openDatabase } from './openDatabase.js';

/** What the thread is started with. */
export interface StoreThreadData {
  databasePath: string;
  sessionsDir: string;
}

/** A request to the thread (they travel in arrays): a key to check, a session to commit, or the order to finish and close. */
export type StoreRequest = { id: number; authenticate: string } | { id: number; commit: SessionCommit } | { close: true };

/** The thread's answer to one request. */
export type StoreReply = { id: number; account: Account | null } | { id: number; code: string } | { id: number; error: string };

const port = parentPort!;
const { databasePath, sessionsDir } = workerData as StoreThreadData;
// Checkpoints are the checkpointer's (store/walCheckpointer.ts): none may stall a commit here.
const db = openDatabase(databasePath, { checkpoints: 'external' });
let queue: Array<Exclude<StoreRequest, { close: true }>> = [];

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

// What arrives in one turn (the port delivers every waiting message at once) is answered in one
// message, and its sessions share one commit.
function flush(): void {
  const batch = queue;
  queue = [];
  if (batch.length === 0) return;
  const replies: StoreReply[] = [];
  const commits: Array<{ id: number; commit: SessionCommit }> = [];
  for (const request of batch) {
    if ('commit' in request) {
      commits.push(request);
      continue;
    }
    try {
      replies.push({ id: request.id, account: authenticateApiKey(db, request.authenticate) ?? null });
    } catch (err) {
      replies.push({ id: request.id, error: message(err) });
    }
  }
  if (commits.length > 0) {
    const outcomes = commitSessions(
      db,
      sessionsDir,
      commits.map((c) => c.commit),
    );
    for (const [i, c] of commits.entries()) {
      const outcome = outcomes[i]!;
      replies.push('code' in outcome ? { id: c.id, code: outcome.code } : { id: c.id, error: outcome.error.message });
    }
  }
  port.postMessage(replies);
}

port.on('message', (requests: StoreRequest[]) => {
  for (const request of requests) {
    if ('close' in request) {
      flush();
      db.close();
      port.close();
      return;
    }
    if (queue.length === 0) setImmediate(flush);
    queue.push(request);
  }
});
