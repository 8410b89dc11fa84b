import { Worker } from 'node:worker_threads';
import { stopWorker } from './stopWorker.js';
import type { CheckpointerData } from './walCheckpointerWorker.js';

/** Options of {@link startWalCheckpointer}. */
export interface WalCheckpointerOptions {
  /** The server's SQLite file, opened elsewhere with `checkpoints: 'external'`. */
  databasePath: string;
  /** Time between checkpoints. */
  intervalMs?: number;
  /** Told when the thread fails (it is started again a second later). */
  onError?(err: Error): void;
}

/** Defaults of {@link WalCheckpointerOptions}. */
export const WAL_CHECKPOINTER_DEFAULTS = { intervalMs: 200 } as const;

/** A running checkpointer. */
export interface WalCheckpointer {
  close(): Promise<void>;
}

// Tests run the TypeScript sources; the thread always runs the compiled module (`tsc -b` comes first).
const WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? '../../../dist/store/sqlite/walCheckpointerWorker.js' : './walCheckpointerWorker.js',
  import.meta.url,
);

/**
 * Checkpoints the database's write-ahead log on a thread of its own, every `intervalMs`. Why:
 * SQLite's automatic checkpoint runs on the thread whose commit grows the log past 1000 pages;
 * under load that was the store thread, which then answered nothing for ~7 ms (copying 4 MB
 * and syncing the file), about 40 % of its time, while every session and key check waited.
 *
 * @example
 * ```ts
 * const checkpointer = startWalCheckpointer({ databasePath: paths.database });
 * await checkpointer.close();
 * ```
 */
export function startWalCheckpointer(options: WalCheckpointerOptions): WalCheckpointer {
  const data: CheckpointerData = {
    databasePath: options.databasePath,
    intervalMs: options.intervalMs ?? WAL_CHECKPOINTER_DEFAULTS.intervalMs,
  };
  let closing = false;
  let thread: Worker | undefined;
  let restart: NodeJS.Timeout | undefined;
  const start = () => {
    const worker = new Worker(WORKER_URL, { workerData: data, execArgv: [] });
    thread = worker;
    worker.unref();
    worker.on('error', (err) => options.onError?.(err));
    worker.once('exit', () => {
      thread = undefined;
      // A log nobody checkpoints only grows: a failed checkpointer is started again.
      if (!closing) restart = setTimeout(start, 1000).unref();
    });
  };
  start();
  return {
    async close() {
      closing = true;
      clearTimeout(restart);
      const worker = thread;
      if (!worker) return;
      await stopWorker(worker, 'close');
    },
  };
}
