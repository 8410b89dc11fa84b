import type { Worker } from 'node:worker_threads';

/**
 * Asks a worker thread to stop with `message` and settles once it has exited. The thread is
 * referenced meanwhile: an unreferenced one would let the process end mid-close.
 *
 * @example
 * ```ts
 * await stopWorker(worker, 'close');
 * ```
 */
export async function stopWorker(worker: Worker, message: unknown): Promise<void> {
  worker.ref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.postMessage(message);
  await exited;
}
