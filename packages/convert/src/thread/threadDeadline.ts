import { isMainThread, Worker } from 'node:worker_threads';

/** What the process says, and how it ends, when its deadline passes (see {@link armThreadDeadline}). */
export interface ThreadDeadlineOptions {
  /** Written whole at the deadline: to stdout (fd 1) or stderr (fd 2). */
  report: { fd: 1 | 2; text: string };
  /** The process's exit code then. */
  exitCode: number;
}

/** A deadline on the process's main thread (see {@link armThreadDeadline}). */
export interface ThreadDeadline {
  /**
   * The work is over, finished or failed: true when that was in time (the watchdog goes away and
   * never acts), false when it was late but the watchdog had not yet acted (the caller reports).
   * When the watchdog has acted, it never resolves: the process is ending with its report.
   */
  settle(): Promise<boolean>;
}

// The watchdog thread, as plain CommonJS so it starts without loading any of ours. Cell 0 is 1 once
// settled; cell 1 says who took the expiry, each side with a compare-and-swap so exactly one does:
// 1 the main thread (it settled, in time or late), 2 the watchdog (it ends the process), 3 the
// watchdog took it but could not end the process (no inspector): the main thread reports after all.
const WATCHDOG = `
const { workerData } = require('node:worker_threads');
const cells = new Int32Array(workerData.cells);
// The deadline is a time, not a span: this thread's own start (tens of ms) does not extend it.
if (Atomics.wait(cells, 0, 0, Math.max(0, workerData.at - Date.now())) === 'timed-out' && Atomics.compareExchange(cells, 1, 0, 2) === 0) {
  // Ended from inside the main thread, by an interrupt the inspector delivers even to a thread held
  // in one synchronous call (a parser looping in WASM): nothing of the main thread runs after it,
  // so nothing is half-done, and nothing it had under way (files, output) goes on. Stderr is closed
  // last: the inspector would note on it that this session was still open.
  try {
    const { Session } = require('node:inspector');
    const session = new Session();
    session.connectToMainThread();
    session.post('Runtime.evaluate', { expression: workerData.ending });
  } catch {
    Atomics.store(cells, 1, 3);
    Atomics.notify(cells, 1);
  }
}
`;

/**
 * Puts a deadline on the process's main thread, for a process that is its own container (the CLI's
 * single conversion). When `ms` pass before {@link ThreadDeadline.settle}, the process writes
 * `report` and exits with `exitCode` — from inside the main thread, wherever it is, even held in a
 * synchronous call that never returns (a parser looping in WASM), which no timer of its own could
 * interrupt. Nothing of the main thread runs after that, so a caller that writes its outputs only
 * once `settle()` said "in time" never leaves one behind. The watchdog never keeps the process alive.
 *
 * @example
 * ```ts
 * const deadline = armThreadDeadline(120_000, { report: { fd: 1, text: '{"error":"late"}\n' }, exitCode: 1 });
 * const result = await work(); // the process ends here, with the report, if this is past the deadline
 * if (!(await deadline.settle())) refuse(); // finished late, before the watchdog acted
 * write(result);
 * ```
 */
export function armThreadDeadline(ms: number, options: ThreadDeadlineOptions): ThreadDeadline {
  // The inspector reaches the process's main thread, whichever thread asks: elsewhere a deadline would end the wrong one.
  if (!isMainThread) throw new Error('armThreadDeadline: only the main thread of a process can be given a deadline');
  const cells = new Int32Array(new SharedArrayBuffer(8));
  const at = Date.now() + ms;
  const ending =
    `(() => { const fs = process.getBuiltinModule('node:fs'); ` +
    `try { fs.writeSync(${options.report.fd}, ${JSON.stringify(options.report.text)}); } finally ` +
    `{ try { fs.closeSync(2); } finally { process.reallyExit(${options.exitCode | 0}); } } })()`;
  const watchdog = new Worker(WATCHDOG, { eval: true, workerData: { cells: cells.buffer, at, ending }, execArgv: [] });
  watchdog.unref();
  // A watchdog that cannot start (no threads left) only means no deadline; it must not end the process.
  watchdog.on('error', () => {});
  let settled: Promise<boolean> | undefined;
  return {
    settle() {
      settled ??= settleOnce();
      return settled;
    },
  };

  function settleOnce(): Promise<boolean> {
    Atomics.store(cells, 0, 1);
    Atomics.notify(cells, 0);
    if (Atomics.compareExchange(cells, 1, 0, 1) === 0) return Promise.resolve(Date.now() < at);
    // The watchdog took it: the process ends with its report as soon as the interrupt lands. Until
    // then the timer keeps the event loop from running dry (which would end the process itself);
    // should the watchdog have failed to reach this thread, the work is late and the caller says so.
    return new Promise<boolean>((resolve) => {
      const wait = setInterval(() => {
        if (Atomics.load(cells, 1) !== 3) return;
        clearInterval(wait);
        resolve(false);
      }, 20);
    });
  }
}
