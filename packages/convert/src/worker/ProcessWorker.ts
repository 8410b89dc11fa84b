import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { vmDataBytes } from './vmDataBytes.js';

/** Options of a {@link ProcessWorker}. */
export interface ProcessWorkerOptions {
  /** The module the process runs (the built `conversionProcess.js`). */
  script: URL;
  /** Heap limit of its JavaScript (MB). */
  maxHeapMb: number;
  /**
   * Memory the process may map for data (MB; `ulimit -d`, RLIMIT_DATA): every heap, WASM memory
   * and buffer counts, and an allocation past it fails in the process, not in its host. None: unbounded.
   */
  memoryLimitMb?: number;
  /** Load web-ifc before saying ready. */
  preloadIfc?: boolean;
}

/** {@link nodeBaseDataBytes}, once per heap limit: the same binary maps the same at start. */
const baseByHeap = new Map<number, number>();

/**
 * What this Node binary maps for data (VmData, what RLIMIT_DATA counts) before running anything,
 * measured once in a process of its own; 0 where there is no /proc to read it from.
 */
function nodeBaseDataBytes(maxHeapMb: number): number {
  let base = baseByHeap.get(maxHeapMb);
  if (base === undefined) {
    const probe = spawnSync(
      process.execPath,
      [
        `--max-old-space-size=${maxHeapMb}`,
        '-e',
        "try { process.stdout.write(require('fs').readFileSync('/proc/self/status', 'utf8')) } catch {}",
      ],
      { encoding: 'utf8' },
    );
    base = vmDataBytes(probe.stdout ?? '') ?? 0;
    baseByHeap.set(maxHeapMb, base);
  }
  return base;
}

/** How often a working process's memory is looked at (ms). */
const SAMPLE_MS = 50;

/** How much of a worker's stderr is kept to tell why it died. */
const STDERR_TAIL_CHARS = 8192;

/** What a process that ran out of memory writes as it dies: V8's fatal error, a failed buffer or WASM allocation. */
const OUT_OF_MEMORY = /out of memory|allocation failed|Cannot allocate|bad_alloc|WebAssembly\.Memory|Out of memory/i;

/**
 * A conversion worker in a child process, speaking the same messages as a worker thread (the
 * pool drives either through `postMessage`, `message`, `error`, `exit`, `terminate`, `ref`,
 * `unref`). Its memory is bounded by the operating system, which a thread's cannot be: a model
 * that needs more kills its own process, never the host.
 *
 * @example
 * ```ts
 * const worker = new ProcessWorker({ script, maxHeapMb: 4096, memoryLimitMb: 2048 });
 * worker.on('exit', () => console.log(worker.outOfMemory ? 'out of memory' : 'ended'));
 * ```
 */
export class ProcessWorker extends EventEmitter {
  private readonly child: ChildProcess;
  private stderrTail = '';
  private signal: NodeJS.Signals | null = null;
  private readonly exited: Promise<void>;
  private readonly memoryLimitBytes: number | undefined;
  /** What Node maps for data before any of our code runs (bytes): the bound comes on top. */
  private readonly baseBytes: number;
  /** The most memory the process was seen to map for data while working (bytes; Linux). */
  private peakDataBytes = 0;
  private sampler: ReturnType<typeof setInterval> | undefined;

  constructor(options: ProcessWorkerOptions) {
    super();
    this.memoryLimitBytes = options.memoryLimitMb === undefined ? undefined : options.memoryLimitMb * 2 ** 20;
    const node = [
      process.execPath,
      `--max-old-space-size=${options.maxHeapMb}`,
      fileURLToPath(options.script),
      ...(options.preloadIfc ? ['--preload-ifc'] : []),
      ...(options.memoryLimitMb === undefined ? [] : [`--memory-limit-mb=${options.memoryLimitMb}`]),
    ];
    // The shell sets the limit on itself, then becomes node: the limit is the process's own. It is
    // the bound on top of what Node maps before running any of our code, which differs by release
    // (about 50 MB on Node 20, 570 MB on Node 24): the bound is what a conversion may add.
    this.baseBytes = this.memoryLimitBytes === undefined ? 0 : nodeBaseDataBytes(options.maxHeapMb);
    const limitKb = Math.ceil((this.baseBytes + (this.memoryLimitBytes ?? 0)) / 1024);
    const [command, ...args] =
      options.memoryLimitMb === undefined ? node : ['/bin/sh', '-c', `ulimit -d ${limitKb} && exec "$0" "$@"`, ...node];
    this.child = spawn(command!, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' });
    const stderr = this.child.stderr as Readable;
    // What a worker prints (parsers' chatter; V8's dump as it dies of memory) is kept to judge its
    // end, not passed on: a refused model is the request's answer, not lines in the server's log.
    stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    this.child.on('message', (message: unknown) => this.emit('message', message));
    this.child.on('error', (err: Error) => this.emit('error', err));
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.signal = signal;
        clearInterval(this.sampler);
        resolve();
        this.emit('exit', code ?? 128 + (signal ? constants.signals[signal] : 0));
      });
    });
  }

  /** Sends a message to the process (copied: nothing is transferred across a process). */
  postMessage(message: unknown): void {
    if (this.child.connected) this.child.send(message as object);
    else this.emit('error', new Error('the worker process is gone'));
  }

  /** Stops the process at once (SIGKILL: a runaway parser gets no say). */
  async terminate(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** Keeps the host alive while the process works (and watches its memory meanwhile). */
  ref(): void {
    if (this.memoryLimitBytes !== undefined && this.sampler === undefined) this.sampler = setInterval(() => this.sampleMemory(), SAMPLE_MS);
    this.child.ref();
    this.child.channel?.ref();
    (this.child.stderr as (Readable & { ref?(): void }) | null)?.ref?.();
  }

  /** Lets the host exit while the process idles. */
  unref(): void {
    clearInterval(this.sampler);
    this.sampler = undefined;
    this.child.unref();
    this.child.channel?.unref();
    (this.child.stderr as (Readable & { unref?(): void }) | null)?.unref?.();
  }

  /**
   * Whether the process died for want of memory: V8's abort or a failed allocation in its last
   * words, or — since code that does not check an allocation dies of a bad pointer instead — any
   * death while it was seen holding over half its bound.
   */
  get outOfMemory(): boolean {
    const nearBound = this.memoryLimitBytes !== undefined && this.peakDataBytes - this.baseBytes >= 0.5 * this.memoryLimitBytes;
    return this.signal === 'SIGABRT' || OUT_OF_MEMORY.test(this.stderrTail) || nearBound;
  }

  private sampleMemory(): void {
    if (this.child.pid === undefined) return;
    readFile(`/proc/${this.child.pid}/status`, 'utf8').then(
      (status) => {
        this.peakDataBytes = Math.max(this.peakDataBytes, vmDataBytes(status) ?? 0);
      },
      () => undefined,
    );
  }
}
