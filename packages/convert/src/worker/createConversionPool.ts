import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ConversionMemoryError, ModelUnreadableError } from '../errors/ConvertError.js';
import { reviveError } from './crossingErrors.js';
import { ProcessWorker } from './ProcessWorker.js';
import type { ConversionReply, ConversionRequest, ConversionResult, WorkerReady, WorkerStart } from './protocol.js';

/** What one conversion asks of the pool: the worker's job, and how long and large it may run. */
export interface ConvertModelOptions extends Omit<ConversionRequest, 'bytes'> {
  /** Longest a conversion may run (ms) before its worker is stopped and the model refused. */
  timeoutMs: number;
  /** Heap limit of the worker (MB); WASM memory comes on top. */
  maxHeapMb: number;
}

/** Defaults of {@link ConversionPool.convert}. */
export const CONVERT_MODEL_DEFAULTS: Readonly<ConvertModelOptions> = { timeoutMs: 120_000, maxHeapMb: 4096 };

/** Options of {@link createConversionPool}. */
export interface ConversionPoolOptions {
  /**
   * Module each new worker thread runs; default: the built conversion worker. It must speak the
   * pool's protocol (`{ ready: true }` once loaded, then `{ id, request }` in, `{ id, reply }` out).
   * Fault tests wrap the real worker (test/support/faultyConversionWorker.mjs); nothing in
   * production sets it.
   */
  workerScript: URL;
  /** Idle workers kept warm (default: one per core). */
  maxIdle: number;
  /** Jobs through web-ifc after which a worker retires (its WASM heap only grows). */
  jobsPerWorker: number;
  /**
   * Where a conversion runs: `'thread'`, a worker thread of this process (its JavaScript heap
   * bounded, WASM memory and buffers not); `'process'`, a child process of its own, bounded whole
   * by `memoryLimitMb`, so that no model can take the host's memory. `workerScript` must suit it.
   */
  isolation: 'thread' | 'process';
  /**
   * With `'process'`: the memory (MB) one conversion's process may use, enforced by the operating
   * system (RLIMIT_DATA); a conversion past it is refused as a {@link ConversionMemoryError}.
   * Include the process's own ~100 MB. None: unbounded.
   */
  memoryLimitMb?: number;
}

/** How the pool stands: for readiness figures and for tests that check workers are replaced, not leaked. */
export interface ConversionPoolStats {
  /** Workers waiting for a job. */
  idle: number;
  /** Workers running a job. */
  busy: number;
  /** Workers started since the pool was made. */
  started: number;
  /** Workers whose thread has ended (retired, crashed, or stopped after a timeout). */
  exited: number;
}

/** Options of {@link ConversionPool.warm}. */
export interface WarmConversionPoolOptions {
  /** Idle workers to have ready (at most `maxIdle`). */
  workers: number;
  /** Load web-ifc in them too, for IFC jobs to come. */
  preloadIfc: boolean;
}

/** Defaults of {@link ConversionPool.warm}. */
export const WARM_CONVERSION_POOL_DEFAULTS: Readonly<WarmConversionPoolOptions> = { workers: 1, preloadIfc: false };

/** Worker threads that convert models, contained: what a hostile file does to a parser stays in its thread. */
export interface ConversionPool {
  /**
   * Converts model bytes in a worker: a hang ends at `timeoutMs`, a crash ends the worker; both come
   * back as a {@link ModelUnreadableError}, and the caller's own faults as the typed errors of
   * `crossingErrors`. The bytes are transferred (the caller's buffer is detached), or shared
   * when they are in shared memory.
   */
  convert(bytes: Uint8Array, options?: Partial<ConvertModelOptions>): Promise<ConversionResult>;
  /** Starts idle workers now, so their start-up overlaps the caller's own. */
  warm(options?: Partial<WarmConversionPoolOptions>): void;
  stats(): ConversionPoolStats;
  /** Stops the idle workers (idle workers never keep a process alive; this is for tests and shutdown). */
  close(): Promise<void>;
}

// Tests run the TypeScript sources, but a worker thread needs JavaScript: it always runs the
// built file (`pnpm test` builds first), next to this module in dist/.
const BUILT = import.meta.url.endsWith('.ts') ? '../../dist/worker/' : './';
const WORKER_URL = new URL(`${BUILT}conversionWorker.js`, import.meta.url);
/** The entry point of a conversion worker process (`isolation: 'process'`). */
export const CONVERSION_PROCESS_URL = new URL(`${BUILT}conversionProcess.js`, import.meta.url);

/** Longest a new worker may take to load before its job fails; far above the ~0.1–0.3 s it needs. */
const WORKER_START_TIMEOUT_MS = 60_000;

/** Defaults of {@link createConversionPool}. */
export const CONVERSION_POOL_DEFAULTS: Readonly<ConversionPoolOptions> = {
  workerScript: WORKER_URL,
  maxIdle: availableParallelism(),
  // GLB and USDZ jobs (JavaScript; the KTX2 transcoder keeps one fixed heap) do not count: retiring
  // a worker costs a start-up, which under a stream of small GLB sessions cost 10× the work.
  jobsPerWorker: 32,
  isolation: 'thread',
};

/**
 * What the pool needs of a worker, thread or process: `Worker` of worker_threads, or a
 * {@link ProcessWorker}. Its listeners are typed as Node's EventEmitter types them, `any[]`: any
 * narrower, and neither Worker nor ProcessWorker is assignable to it.
 */
interface ConversionWorker {
  postMessage(message: unknown, transfer?: ArrayBuffer[]): void;
  // biome-ignore lint/suspicious/noExplicitAny: the EventEmitter listener type Worker and ProcessWorker share
  on(event: 'message' | 'error' | 'exit', listener: (...args: any[]) => void): this;
  // biome-ignore lint/suspicious/noExplicitAny: the EventEmitter listener type Worker and ProcessWorker share
  once(event: 'message' | 'error' | 'exit', listener: (...args: any[]) => void): this;
  // biome-ignore lint/suspicious/noExplicitAny: the EventEmitter listener type Worker and ProcessWorker share
  off(event: 'message' | 'error' | 'exit', listener: (...args: any[]) => void): this;
  terminate(): Promise<unknown>;
  ref(): void;
  unref(): void;
  /** A process worker knows whether it died for want of memory. */
  readonly outOfMemory?: boolean;
}

/** One worker thread of the pool. */
interface PooledWorker {
  worker: ConversionWorker;
  maxHeapMb: number;
  /** Jobs that ran web-ifc (WASM). */
  wasmJobs: number;
  /** Settles when the worker has loaded and listens (its {@link WorkerReady} message). */
  ready: Promise<void>;
}

/**
 * A pool of conversion workers, kept warm between jobs (as many idle as cores), each retired after
 * `jobsPerWorker` IFC jobs; one that timed out or died is discarded.
 *
 * @example
 * ```ts
 * const pool = createConversionPool();
 * const { usdz, stats } = await pool.convert(readFileSync('duplex.ifc'), { fileName: 'duplex.ifc' });
 * await pool.close();
 * ```
 */
export function createConversionPool(options: Partial<ConversionPoolOptions> = {}): ConversionPool {
  const { maxIdle, jobsPerWorker, isolation, memoryLimitMb } = { ...CONVERSION_POOL_DEFAULTS, ...options };
  const workerScript = options.workerScript ?? (isolation === 'process' ? CONVERSION_PROCESS_URL : WORKER_URL);
  const idle: PooledWorker[] = [];
  const counts = { busy: 0, started: 0, exited: 0 };
  let nextJob = 0;

  const spawn = (maxHeapMb: number, start: WorkerStart = {}): PooledWorker => {
    const worker: ConversionWorker =
      isolation === 'process'
        ? new ProcessWorker({
            script: workerScript,
            maxHeapMb,
            ...(memoryLimitMb !== undefined && { memoryLimitMb }),
            ...(start.preloadIfc && { preloadIfc: true }),
          })
        : new Worker(workerScript, {
            workerData: start,
            resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
            // A clean start: the worker must not inherit loaders or flags of its host (test runners set some).
            execArgv: [],
          });
    counts.started++;
    const ready = new Promise<void>((resolve) => {
      const onReady = (message: Partial<WorkerReady>) => {
        if (message?.ready !== true) return;
        worker.off('message', onReady);
        resolve();
      };
      worker.on('message', onReady);
    });
    const pooled: PooledWorker = { worker, maxHeapMb, wasmJobs: 0, ready };
    // An 'error' with no listener would be thrown in the host and end the whole process: a job
    // listens for its own worker's errors, and this one catches those of a worker between jobs
    // (its 'exit' follows and takes it out of the pool).
    worker.on('error', () => {});
    worker.once('exit', () => {
      counts.exited++;
      const i = idle.indexOf(pooled);
      if (i >= 0) idle.splice(i, 1);
    });
    return pooled;
  };
  const acquire = (maxHeapMb: number): PooledWorker => {
    const i = idle.findIndex((w) => w.maxHeapMb === maxHeapMb);
    const pooled = i >= 0 ? idle.splice(i, 1)[0]! : spawn(maxHeapMb);
    pooled.worker.ref();
    return pooled;
  };
  const release = (pooled: PooledWorker, usedWasm: boolean): void => {
    if (usedWasm) pooled.wasmJobs++;
    if (pooled.wasmJobs >= jobsPerWorker || idle.length >= maxIdle) {
      void pooled.worker.terminate();
      return;
    }
    pooled.worker.unref(); // an idle worker never keeps the process alive
    idle.push(pooled);
  };

  const convert = (bytes: Uint8Array, asked: Partial<ConvertModelOptions> = {}): Promise<ConversionResult> => {
    const { timeoutMs, maxHeapMb, ...job } = { ...CONVERT_MODEL_DEFAULTS, ...asked };
    const label = job.fileName ?? 'the model';
    const named = { ...(job.fileName !== undefined && { fileName: job.fileName }), ...(job.field !== undefined && { field: job.field }) };
    // Transfer only a view that owns its whole buffer; a slice of a shared buffer (a Buffer pool, one
    // request body holding several files) is copied so the caller's other bytes stay intact.
    // A detached buffer (already sent to an earlier conversion) reads as empty, and transferring it
    // would leave the worker without a message: it is sent as the empty input it now is.
    const owned =
      bytes.byteLength === 0
        ? new Uint8Array(0)
        : bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
          ? bytes
          : bytes.slice();
    const request: ConversionRequest = { ...job, bytes: owned };
    const pooled = acquire(maxHeapMb);
    const { worker } = pooled;
    const id = nextJob++;
    counts.busy++;
    return new Promise((resolve, reject) => {
      let settled = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (keepWorker: boolean, fn: () => void, usedWasm = true) => {
        if (settled) return;
        settled = true;
        counts.busy--;
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (keepWorker) release(pooled, usedWasm);
        else void worker.terminate();
        fn();
      };
      const onMessage = (message: { id: number; reply: ConversionReply }) => {
        if (message.id !== id) return;
        const { reply } = message;
        // A worker whose parser failed may hold corrupt WASM state: only those that read the model go
        // back to the pool (a door not found is a read model).
        const usedWasm = !(reply.ok && reply.result.format !== 'ifc');
        finish(
          reply.ok || reply.error.problems !== undefined,
          () => (reply.ok ? resolve(reply.result) : reject(reviveError(reply.error))),
          usedWasm,
        );
      };
      const onError = (err: Error) =>
        finish(false, () => reject(new ModelUnreadableError(`${label}: the parser crashed (${err.message})`, { ...named, cause: err })));
      const onExit = (code: number) =>
        finish(false, () =>
          reject(
            worker.outOfMemory && memoryLimitMb !== undefined
              ? new ConversionMemoryError(memoryLimitMb * 2 ** 20, named)
              : new ModelUnreadableError(`${label}: the parser stopped without an answer (exit code ${code})`, named),
          ),
        );
      const onTimeout = () =>
        finish(false, () =>
          reject(
            new ModelUnreadableError(
              `${label}: the parser did not finish within ` +
                `${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}; the file is malformed or too complex`,
              named,
            ),
          ),
        );
      // Not the model's fault, so not a ModelUnreadableError: the host cannot start workers.
      const onStartTimeout = () =>
        finish(false, () =>
          reject(new Error(`convertModel: the conversion worker did not start within ${WORKER_START_TIMEOUT_MS / 1000} s`)),
        );
      worker.on('message', onMessage).once('error', onError).once('exit', onExit);
      timer = setTimeout(onStartTimeout, WORKER_START_TIMEOUT_MS);
      // A new worker first loads its modules. The job is sent, and its clock started, once the
      // worker says it is ready: a short timeout must not fail every cold worker (and, since a
      // timed-out worker is replaced by a cold one, every worker after it).
      void pooled.ready.then(() => {
        if (settled) return;
        clearTimeout(timer);
        timer = setTimeout(onTimeout, timeoutMs);
        try {
          // Bytes in shared memory (see `readSharedFile`) are shared with the worker as they are: nothing to move or copy.
          worker.postMessage({ id, request }, owned.buffer instanceof SharedArrayBuffer ? [] : [owned.buffer as ArrayBuffer]);
        } catch (err) {
          finish(true, () => reject(new TypeError(`convertModel: the input cannot be sent to a worker (${(err as Error).message})`)));
        }
      });
    });
  };

  return {
    convert,
    warm(asked = {}) {
      const { workers, preloadIfc } = { ...WARM_CONVERSION_POOL_DEFAULTS, ...asked };
      while (idle.length < Math.min(workers, maxIdle)) {
        const pooled = spawn(CONVERT_MODEL_DEFAULTS.maxHeapMb, { preloadIfc });
        pooled.worker.unref();
        idle.push(pooled);
      }
    },
    stats: () => ({ idle: idle.length, ...counts }),
    async close() {
      await Promise.all(idle.splice(0).map((p) => p.worker.terminate()));
    },
  };
}
