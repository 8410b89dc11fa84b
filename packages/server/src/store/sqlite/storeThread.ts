import { Worker } from 'node:worker_threads';
import { stopWorker } from './stopWorker.js';
import type { Account, SessionCommit } from '../SessionStore.js';
import type { StoreReply, StoreRequest, StoreThreadData } from './storeThreadWorker.js';

/** Where {@link createStoreThread} reads and writes. */
export interface StoreThreadOptions {
  /** The server's SQLite file (already migrated). */
  databasePath: string;
  /** The directory that holds every session's files. */
  sessionsDir: string;
  /** Module the thread runs; default the real one. For fault tests, which wrap it. */
  workerScript?: URL;
}

/** The database work of a session request, done off the event loop. */
export interface StoreThread {
  /** The account of a presented API key (as {@link authenticateApiKey}), or `undefined`. */
  authenticate(key: string): Promise<Account | undefined>;
  /**
   * Makes a session exist ({@link commitSessions}): resolves to its one-time code once its files
   * are in the sessions directory and its row is committed.
   */
  commit(session: SessionCommit): Promise<string>;
  /** Answers what was sent, then stops the thread and closes its connection. */
  close(): Promise<void>;
}

// Tests run the TypeScript sources; the thread always runs the compiled module (`tsc -b` comes first).
const WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? '../../../dist/store/sqlite/storeThreadWorker.js' : './storeThreadWorker.js',
  import.meta.url,
);

/**
 * One thread with its own connection to the server's database checks the keys of session
 * requests and commits finished sessions, those that finish together in one transaction. Why a
 * thread: under load the key lookup, the file moves and the commit took a
 * quarter of the event loop's time per session, and the event loop bounds the requests per
 * second; handing them over costs one message each way.
 *
 * A thread that fails takes only the requests in flight with it (they fail); the next request
 * starts a new one.
 *
 * @example
 * ```ts
 * const store = createStoreThread({ databasePath: paths.database, sessionsDir: paths.sessions });
 * const account = await store.authenticate(req.get('X-API-Key') ?? '');
 * const code = await store.commit({ record, saved: [], files: [{ from: stagedUsdz, name: '0.usdz' }] });
 * await store.close();
 * ```
 */
export function createStoreThread(options: StoreThreadOptions): StoreThread {
  type Waiting = { resolve(reply: StoreReply): void; reject(err: Error): void };
  // Requests not sent yet, and what each thread was sent and has not answered: a thread that
  // fails fails only its own.
  let outbox: Array<{ request: Exclude<StoreRequest, { close: true }>; waiting: Waiting }> = [];
  const unanswered = new Map<Worker, Map<number, Waiting>>();
  let nextId = 0;
  let thread: Worker | undefined;
  let closed = false;

  const fail = (worker: Worker, err: Error) => {
    if (thread === worker) thread = undefined;
    for (const waiting of unanswered.get(worker)?.values() ?? []) waiting.reject(err);
    unanswered.delete(worker);
  };
  const start = (): Worker => {
    const data: StoreThreadData = { databasePath: options.databasePath, sessionsDir: options.sessionsDir };
    const worker = new Worker(options.workerScript ?? WORKER_URL, { workerData: data, execArgv: [] });
    const owed = new Map<number, Waiting>();
    unanswered.set(worker, owed);
    // The server's listening socket keeps the process alive; this thread alone must not.
    worker.unref();
    worker.on('message', (replies: StoreReply[]) => {
      for (const reply of replies) {
        const waiting = owed.get(reply.id);
        if (!waiting) continue;
        owed.delete(reply.id);
        if ('error' in reply) waiting.reject(new Error(`store: ${reply.error}`));
        else waiting.resolve(reply);
      }
    });
    worker.on('error', (err) => fail(worker, err));
    worker.once('exit', (code) => fail(worker, new Error(`the store thread stopped (exit code ${code})`)));
    return worker;
  };
  // Requests made in one turn of the event loop go over in one message: under load a message per
  // request was itself a tenth of the event loop's time per session.
  const send = () => {
    // close() may have sent them already.
    if (outbox.length === 0) return;
    const batch = outbox;
    outbox = [];
    const worker = (thread ??= start());
    const owed = unanswered.get(worker)!;
    for (const { request, waiting } of batch) owed.set(request.id, waiting);
    worker.postMessage(batch.map((b) => b.request));
  };
  const ask = (request: (id: number) => Exclude<StoreRequest, { close: true }>): Promise<StoreReply> => {
    if (closed) return Promise.reject(new Error('the store thread is closed'));
    const id = nextId++;
    return new Promise<StoreReply>((resolve, reject) => {
      if (outbox.length === 0) setImmediate(send);
      outbox.push({ request: request(id), waiting: { resolve, reject } });
    });
  };

  return {
    async authenticate(key) {
      const reply = await ask((id) => ({ id, authenticate: key }));
      return 'account' in reply ? (reply.account ?? undefined) : undefined;
    },
    async commit(session) {
      const reply = await ask((id) => ({ id, commit: session }));
      if (!('code' in reply)) throw new Error('store: a commit was answered without a code');
      return reply.code;
    },
    async close() {
      closed = true;
      send();
      const worker = thread;
      if (!worker) return;
      await stopWorker(worker, [{ close: true }] satisfies StoreRequest[]);
    },
  };
}
