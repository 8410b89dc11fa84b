import { readdirSync, readFileSync } from 'node:fs';

/** Options of {@link watchDescendantsPeak}. */
export interface DescendantsPeakOptions {
  /** How often the process tree is read (ms). */
  intervalMs: number;
}

/** Defaults of {@link watchDescendantsPeak}. */
export const DESCENDANTS_PEAK_DEFAULTS: Readonly<DescendantsPeakOptions> = { intervalMs: 250 };

/**
 * Watches the processes below `pid` (a server's conversion workers) and keeps the most data any
 * one of them was seen to map (`VmData`, what RLIMIT_DATA and so the server's conversion memory
 * bound count), in MB: sampled, so a peak between samples is missed. Linux only; elsewhere the
 * peak stays 0. `stop` may be called more than once.
 *
 * @example
 * ```ts
 * const watch = watchDescendantsPeak(server.pid);
 * await postModel();
 * watch.stop(); // → 1949 (MB)
 * ```
 */
export function watchDescendantsPeak(pid: number, options: Partial<DescendantsPeakOptions> = {}): { stop(): number } {
  const { intervalMs } = { ...DESCENDANTS_PEAK_DEFAULTS, ...options };
  let peakKb = 0;
  const sample = () => {
    for (const child of descendantsOf(pid)) peakKb = Math.max(peakKb, vmDataKb(child));
  };
  // The bench's own process must not stay up for a watch its caller forgot.
  const timer = setInterval(sample, intervalMs).unref();
  let stopped = false;
  return {
    stop() {
      if (!stopped) sample();
      stopped = true;
      clearInterval(timer);
      return peakKb / 1024;
    },
  };
}

/** Every process below `pid`, from `/proc/<pid>/task/<tid>/children`. */
function descendantsOf(pid: number): number[] {
  const found: number[] = [];
  const visit = (p: number) => {
    for (const child of childrenOf(p)) {
      found.push(child);
      visit(child);
    }
  };
  visit(pid);
  return found;
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return []; // gone meanwhile, or no /proc
  }
}

function vmDataKb(pid: number): number {
  try {
    return vmDataKbIn(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return 0;
  }
}

/**
 * The data a process maps (`VmData`, kB) as its `/proc/<pid>/status` text states it; 0 when it
 * states none.
 *
 * @example
 * ```ts
 * vmDataKbIn(readFileSync('/proc/self/status', 'utf8')); // → 48948
 * ```
 */
export function vmDataKbIn(status: string): number {
  return Number(/^VmData:\s+(\d+)/m.exec(status)?.[1] ?? 0);
}
