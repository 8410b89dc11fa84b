import type { CommandIO } from '../command.js';

/** How a batch stands: what the bar shows. */
interface Counts {
  done: number;
  total: number;
  bytesDone: number;
  bytesTotal: number;
}

/**
 * The progress bar of a batch conversion on a terminal's stderr: files done of all, megabytes
 * done of all, the rate and the time left (from the bytes converted so far), and the files in
 * hand. Lines printed through {@link log} appear above it. Off a terminal it draws nothing and
 * `log` just prints.
 *
 * @example
 * ```ts
 * const bar = new BatchProgress(io, files.length, totalBytes);
 * bar.start('house.ifc'); bar.finish('house.ifc', 113264, '✓ house.ifc');
 * ```
 */
export class BatchProgress {
  private readonly counts: Counts;
  private readonly started: number;
  private readonly running = new Set<string>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly live: boolean;

  /** `now` is the clock the rate and time left are measured with (milliseconds). */
  constructor(
    private readonly io: CommandIO,
    total: number,
    bytesTotal: number,
    enabled: boolean,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
    this.counts = { done: 0, total, bytesDone: 0, bytesTotal };
    this.live = enabled && io.stderr.isTTY === true;
    if (this.live) this.timer = setInterval(() => this.draw(), 100);
  }

  /** A file starts converting. */
  start(name: string): void {
    this.running.add(name);
    this.draw();
  }

  /** A file is done (converted or refused); `line` is printed above the bar. */
  finish(name: string, bytes: number, line: string | undefined): void {
    this.running.delete(name);
    this.counts.done++;
    this.counts.bytesDone += bytes;
    if (line !== undefined) this.log(line);
    this.draw();
  }

  /** Prints a line on stderr, above the bar. */
  log(line: string): void {
    if (this.live) this.io.stderr.write('\r\x1b[K');
    this.io.stderr.write(`${line}\n`);
    this.draw();
  }

  /** Removes the bar. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.live) this.io.stderr.write('\r\x1b[K');
  }

  private draw(): void {
    if (!this.live) return;
    const { done, total, bytesDone, bytesTotal } = this.counts;
    const seconds = (this.now() - this.started) / 1000;
    const rate = seconds > 0 ? bytesDone / seconds : 0;
    const eta = rate > 0 && done > 0 ? formatDuration((bytesTotal - bytesDone) / rate) : '–:––';
    const width = 24;
    const filled = Math.round(width * (bytesTotal > 0 ? bytesDone / bytesTotal : done / Math.max(total, 1)));
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    const now = [...this.running].slice(0, 2).join(', ');
    const line =
      `${bar} ${done}/${total} files · ${mb(bytesDone)}/${mb(bytesTotal)} MB · ` +
      `${mb(rate)} MB/s · ETA ${eta}` +
      (now ? ` · ${now}` : '');
    const columns = (this.io.stderr as { columns?: number }).columns ?? 100;
    this.io.stderr.write(`\r\x1b[K${line.slice(0, Math.max(20, columns - 1))}`);
  }
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

/** `m:ss` (or `h:mm:ss`). */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600),
    m = Math.floor((s % 3600) / 60),
    r = s % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(r).padStart(2, '0')}` : `${m}:${String(r).padStart(2, '0')}`;
}
