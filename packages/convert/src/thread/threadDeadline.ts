import { isMainThread, Worker } from 'node:worker_threads';

/** A deadline on the calling thread (see {@link armThreadDeadline}). */
export interface ThreadDeadline {
  /** Resolves when the deadline has passed (and whatever the thread was running has been ended). */
  readonly expired: Promise<void>;
  /**
   * The work is over, finished or failed: true when that was in time (the watchdog goes away and
   * never ends anything), false when the deadline had passed, once the watchdog has let go of the thread.
   */
  settle(): Promise<boolean>;
}

// The watchdog thread, as plain CommonJS so it starts without loading any of ours. Cell 0 is 1 once
// settled; cell 1 says who took the expiry: 1 the watched thread (it heard in time), 2 the watchdog
// (it ends what the thread runs), 3 the thread once it was ended and answers. Each side takes it
// with a compare-and-swap, so exactly one of them does.
const WATCHDOG = `
const { parentPort, workerData } = require('node:worker_threads');
const cells = new Int32Array(workerData.cells);
const watch = () => {
  // The deadline is a time, not a span: this thread's own start (tens of ms) does not extend it.
  if (Atomics.wait(cells, 0, 0, Math.max(0, workerData.at - Date.now())) !== 'timed-out') return;
  parentPort.postMessage('expired');
  Atomics.wait(cells, 1, 0, 100);
  if (Atomics.compareExchange(cells, 1, 0, 2) !== 0) return;
  // A thread held in one synchronous call (a parser looping in WASM) is ended the way
  // worker.terminate() and vm's timeout end JavaScript: V8's TerminateExecution, which Node
  // reaches for the main thread only through the inspector. Then it is told again until it answers.
  const { Session } = require('node:inspector');
  const session = new Session();
  session.connectToMainThread();
  while (Atomics.load(cells, 1) === 2) {
    session.post('Runtime.terminateExecution');
    parentPort.postMessage('expired');
    Atomics.wait(cells, 1, 2, 100);
  }
  // Disconnected before the thread goes on: a process that exits with a session open waits for it.
  session.disconnect();
  parentPort.postMessage('released');
};
watch();
`;

/**
 * Puts a deadline on the work of the process's main thread (and only that thread), for a process that is its own
 * container (the CLI's single conversion). When `ms` pass before {@link ThreadDeadline.settle},
 * `expired` resolves — after ending, if need be, a synchronous call that never returns (a parser
 * looping in WASM), which no timer of the thread itself could interrupt. What that call was doing
 * is abandoned mid-way: its state (web-ifc's heap) is not to be trusted again, so the process
 * should report and end. The watchdog never keeps the process alive.
 *
 * @example
 * ```ts
 * const deadline = armThreadDeadline(120_000);
 * try {
 *   const result = await Promise.race([work(), deadline.expired.then(() => refuse())]);
 *   if (!(await deadline.settle())) refuse();
 *   return result;
 * } catch (err) {
 *   if (!(await deadline.settle())) refuse();
 *   throw err;
 * }
 * ```
 */
export function armThreadDeadline(ms: number): ThreadDeadline {
  // The inspector reaches the process's main thread, whichever thread asks: elsewhere a deadline would end the wrong one.
  if (!isMainThread) throw new Error('armThreadDeadline: only the main thread of a process can be given a deadline');
  const cells = new Int32Array(new SharedArrayBuffer(8));
  const at = Date.now() + ms;
  const watchdog = new Worker(WATCHDOG, { eval: true, workerData: { cells: cells.buffer, at }, execArgv: [] });
  watchdog.unref();
  // A watchdog that cannot start (no threads left) only means no deadline; it must not end the process.
  watchdog.on('error', () => {});
  const expired = new Promise<void>((resolve) => {
    watchdog.on('message', (message: 'expired' | 'released') => {
      if (message === 'released') return resolve();
      const taken = Atomics.compareExchange(cells, 1, 0, 1);
      if (taken === 0) return resolve();
      // The watchdog ended what ran here: answer, and go on once it has let go of this thread.
      if (taken === 2) {
        Atomics.store(cells, 1, 3);
        Atomics.notify(cells, 1);
      }
    });
  });
  return {
    expired,
    async settle() {
      Atomics.store(cells, 0, 1);
      Atomics.notify(cells, 0);
      // Taking the expiry stops a watchdog that woke at the deadline but has not yet ended anything;
      // work that finished after the deadline is late all the same.
      const taken = Atomics.compareExchange(cells, 1, 0, 1);
      if (taken === 0) return Date.now() < at;
      // The watchdog is ending this thread: go on only once it has let go.
      if (taken === 2) await expired;
      return false;
    },
  };
}
