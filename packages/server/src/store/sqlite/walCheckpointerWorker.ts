// The checkpointer's thread: copies the write-ahead log into the database file on its own
// connection, so that no thread serving requests ever waits for a checkpoint.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from './openDatabase.js';

/** What the thread is started with. */
export interface CheckpointerData {
  databasePath: string;
  intervalMs: number;
}

const port = parentPort!;
const { databasePath, intervalMs } = workerData as CheckpointerData;
const db = openDatabase(databasePath, { checkpoints: 'external' });

// PASSIVE: copies what no reader still needs and never blocks readers or the writer; the writer
// starts the log over once all of it has been copied.
const timer = setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), intervalMs);

port.on('message', () => {
  clearInterval(timer);
  db.close();
  port.close();
});
