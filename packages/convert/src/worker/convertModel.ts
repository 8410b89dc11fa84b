import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  ConvertError, MeshNodeLimitError, ModelUnreadableError, UnsupportedFormatError, UsdzPackageError,
} from '../errors/ConvertError.js';
import { DoorNotFoundError, GeometryValidationError, type DoorNotFoundReason } from '@arsession/geometry/errors';
import type { ConversionReply, ConversionRequest, ConversionResult, SerializedConvertError, WorkerReady, WorkerStart } from './protocol.js';

/** Options of {@link convertModel}: what the worker is asked to do, and how long and large it may run. */
export interface ConvertModelOptions extends Omit<ConversionRequest, 'bytes'> {
  /** Longest a conversion may run (ms) before its worker is stopped and the model refused. */
  timeoutMs: number;
  /** Heap limit of the worker (MB); WASM memory comes on top. */
  maxHeapMb: number;
}

/** Defaults of {@link convertModel}. */
export const CONVERT_MODEL_DEFAULTS: Readonly<ConvertModelOptions> = { timeoutMs: 120_000, maxHeapMb: 4096 };

// Tests run the TypeScript sources, but a worker thread needs JavaScript: it always runs the
// built file (`pnpm test` builds first), next to this module in dist/.
const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? '../../dist/worker/conversionWorker.js' : './conversionWorker.js', import.meta.url);

/** Options of {@link configureConversionPool}. */
export interface ConversionPoolOptions {
  /**
   * Module each new worker thread runs; default: the built conversion worker. It must speak the
   * pool's protocol (`{ ready: true }` once loaded, then `{ id, request }` in, `{ id, reply }` out).
   * Embedders that need to prove
   * what a crashing or hanging parser costs wrap the real worker (see
   * test/support/faultyConversionWorker.mjs); nothing in production sets it.
   */
  workerScript?: URL;
}

/** How the pool stands: for readiness figures and for tests that check workers are replaced, not leaked. */
export interface ConversionPoolStats {
  /** Workers waiting for a job. */
  idle: number;
  /** Workers running a job. */
  busy: number;
  /** Workers started since the process began. */
  started: number;
  /** Workers whose thread has ended (retired, crashed, or stopped after a timeout). */
  exited: number;
}

/**
 * Sets the worker script of workers started from now on (`undefined`: the real one). Idle workers
 * running another script are stopped, so no later job reaches them.
 *
 * @example
 * ```ts
 * configureConversionPool({ workerScript: new URL('./faultyConversionWorker.mjs', import.meta.url) });
 * ```
 */
export function configureConversionPool(options: ConversionPoolOptions): void {
  workerScript = options.workerScript ?? WORKER_URL;
  for (const stale of idle.filter((p) => p.script.href !== workerScript.href)) {
    idle.splice(idle.indexOf(stale), 1);
    void stale.worker.terminate();
  }
}

/** Options of {@link warmConversionPool}. */
export interface WarmConversionPoolOptions {
  /** Idle workers to have ready (at most one per core). */
  workers: number;
  /** Load web-ifc in them too, for IFC jobs to come. */
  preloadIfc: boolean;
}

/** Defaults of {@link warmConversionPool}. */
export const WARM_CONVERSION_POOL_DEFAULTS: Readonly<WarmConversionPoolOptions> = { workers: 1, preloadIfc: false };

/**
 * Starts idle workers now, so their start-up (a new thread loading the readers, and web-ifc when
 * asked) runs while the caller does its own (reading files, parsing flags) instead of after it.
 * Idle workers never keep the process alive.
 *
 * @example
 * ```ts
 * warmConversionPool({ workers: 2, preloadIfc: true });
 * ```
 */
export function warmConversionPool(options: Partial<WarmConversionPoolOptions> = {}): void {
  const { workers, preloadIfc } = { ...WARM_CONVERSION_POOL_DEFAULTS, ...options };
  const maxHeapMb = CONVERT_MODEL_DEFAULTS.maxHeapMb;
  while (idle.length < Math.min(workers, MAX_IDLE)) {
    const pooled = spawn(maxHeapMb, { preloadIfc });
    pooled.worker.unref();
    idle.push(pooled);
  }
}

/** Counts of the pool's workers (see {@link ConversionPoolStats}). */
export function conversionPoolStats(): ConversionPoolStats {
  return { idle: idle.length, busy, started, exited };
}

/**
 * Converts model bytes to an ARKit-ready USDZ in a worker thread, so that nothing a hostile file
 * does to the parser (web-ifc can hang or abort) reaches the caller: a hang ends at `timeoutMs`,
 * a crash ends the worker; both come back as a {@link ModelUnreadableError}. Workers are kept
 * warm between calls (starting one costs ~0.8 s of module and WASM loading); one that timed out
 * or died is discarded. The bytes are transferred to the worker (the caller's buffer is detached).
 *
 * @example
 * ```ts
 * const { usdz, stats } = await convertModel(readFileSync('duplex.ifc'), { fileName: 'duplex.ifc' });
 * ```
 */
export function convertModel(bytes: Uint8Array, options: Partial<ConvertModelOptions> = {}): Promise<ConversionResult> {
  const opts = { ...CONVERT_MODEL_DEFAULTS, ...options };
  const { timeoutMs, maxHeapMb, ...asked } = opts;
  const label = opts.fileName ?? 'the model';
  const named = { ...(opts.fileName !== undefined && { fileName: opts.fileName }), ...(opts.field !== undefined && { field: opts.field }) };
  // Transfer only a view that owns its whole buffer; a slice of a shared buffer (a Buffer pool, one
  // request body holding several files) is copied so the caller's other bytes stay intact.
  // A detached buffer (already sent to an earlier conversion) reads as empty, and transferring it
  // would leave the worker without a message: it is sent as the empty input it now is.
  const owned = bytes.byteLength === 0 ? new Uint8Array(0)
    : bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  const request: ConversionRequest = { ...asked, bytes: owned };
  const pooled = acquire(maxHeapMb);
  const { worker } = pooled;
  const id = nextJob++;
  busy++;
  return new Promise((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (keepWorker: boolean, fn: () => void, usedWasm = true) => {
      if (settled) return;
      settled = true;
      busy--;
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      if (keepWorker) release(pooled, usedWasm); else void worker.terminate();
      fn();
    };
    const onMessage = (message: { id: number; reply: ConversionReply }) => {
      if (message.id !== id) return;
      const { reply } = message;
      // A worker whose parser failed may hold corrupt WASM state: only those that read the model go
      // back to the pool (a door not found is a read model).
      const usedWasm = !(reply.ok && reply.result.format !== 'ifc');
      finish(reply.ok || reply.error.problems !== undefined, () => (reply.ok ? resolve(reply.result) : reject(revive(reply.error))), usedWasm);
    };
    const onError = (err: Error) => finish(false, () => reject(new ModelUnreadableError(`${label}: the parser crashed (${err.message})`, { ...named, cause: err })));
    const onExit = (code: number) => finish(false, () => reject(new ModelUnreadableError(`${label}: the parser stopped without an answer (exit code ${code})`, named)));
    const onTimeout = () => finish(false, () => reject(new ModelUnreadableError(`${label}: the parser did not finish within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}; the file is malformed or too complex`, named)));
    // Not the model's fault, so not a ModelUnreadableError: the host cannot start workers.
    const onStartTimeout = () => finish(false, () => reject(new Error(`convertModel: the conversion worker did not start within ${WORKER_START_TIMEOUT_MS / 1000} s`)));
    worker.on('message', onMessage).once('error', onError).once('exit', onExit);
    timer = setTimeout(onStartTimeout, WORKER_START_TIMEOUT_MS);
    // A new worker first loads its modules (~0.8 s, more on a busy host). The job is sent, and its
    // clock started, once the worker says it is ready: a short timeout must not fail every cold
    // worker (and, since a timed-out worker is replaced by a cold one, every worker after it).
    void pooled.ready.then(() => {
      if (settled) return;
      clearTimeout(timer);
      timer = setTimeout(onTimeout, timeoutMs);
      try {
        worker.postMessage({ id, request }, [owned.buffer as ArrayBuffer]);
      } catch (err) {
        // A detached buffer (already handed to another conversion) cannot be sent.
        finish(true, () => reject(new TypeError(`convertModel: the input cannot be sent to a worker (${(err as Error).message})`)));
      }
    });
  });
}

/**
 * Stops the idle conversion workers. Idle workers never keep a process alive, so this is only for
 * embedders that want the threads gone now (tests, graceful shutdown).
 */
export async function closeConversionPool(): Promise<void> {
  const workers = idle.splice(0).map((p) => p.worker.terminate());
  await Promise.all(workers);
}

interface PooledWorker {
  worker: Worker;
  /** The module it runs (see {@link configureConversionPool}). */
  script: URL;
  maxHeapMb: number;
  /** Jobs that ran web-ifc (WASM). */
  wasmJobs: number;
  /** Settles when the worker has loaded and listens (its {@link WorkerReady} message). */
  ready: Promise<void>;
}

/** Longest a new worker may take to load before its job fails; far above the ~0.8 s it needs. */
const WORKER_START_TIMEOUT_MS = 60_000;

/**
 * Idle workers kept warm: as many as cores, each retired after this many jobs through web-ifc, whose
 * WASM heap only grows. GLB and USDZ jobs (read in JavaScript; the KTX2 transcoder keeps one fixed
 * heap) do not count: retiring a worker costs a start-up, which under a stream of small GLB
 * sessions cost 10× the work.
 */
const MAX_IDLE = availableParallelism();
const JOBS_PER_WORKER = 32;
const idle: PooledWorker[] = [];
let nextJob = 0;
let workerScript = WORKER_URL;
let busy = 0;
let started = 0;
let exited = 0;

function acquire(maxHeapMb: number): PooledWorker {
  const i = idle.findIndex((w) => w.maxHeapMb === maxHeapMb && w.script.href === workerScript.href);
  const pooled = i >= 0 ? idle.splice(i, 1)[0]! : spawn(maxHeapMb);
  pooled.worker.ref();
  return pooled;
}

function release(pooled: PooledWorker, usedWasm: boolean): void {
  if (usedWasm) pooled.wasmJobs++;
  if (pooled.wasmJobs >= JOBS_PER_WORKER || idle.length >= MAX_IDLE) {
    void pooled.worker.terminate();
    return;
  }
  pooled.worker.unref(); // an idle worker never keeps the process alive
  idle.push(pooled);
}

function spawn(maxHeapMb: number, start: WorkerStart = {}): PooledWorker {
  const worker = new Worker(workerScript, {
    workerData: start,
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
    // A clean start: the worker must not inherit loaders or flags of its host (test runners set some).
    execArgv: [],
  });
  started++;
  const ready = new Promise<void>((resolve) => {
    const onReady = (message: Partial<WorkerReady>) => {
      if (message?.ready !== true) return;
      worker.off('message', onReady);
      resolve();
    };
    worker.on('message', onReady);
  });
  const pooled: PooledWorker = { worker, script: workerScript, maxHeapMb, wasmJobs: 0, ready };
  // An 'error' with no listener would be thrown in the host and end the whole process: a job
  // listens for its own worker's errors, and this one catches those of a worker between jobs
  // (its 'exit' follows and takes it out of the pool).
  worker.on('error', () => {});
  // A worker that dies while idle leaves the pool.
  worker.once('exit', () => {
    exited++;
    const i = idle.indexOf(pooled);
    if (i >= 0) idle.splice(i, 1);
  });
  return pooled;
}

function revive(e: SerializedConvertError): ConvertError | GeometryValidationError {
  if (e.problems) {
    return e.className === 'DoorNotFoundError'
      ? new DoorNotFoundError(e.reason as DoorNotFoundReason, e.problems[0]!.message)
      : new GeometryValidationError(e.code, 'Invalid input', e.problems);
  }
  const named = { field: e.field, ...(e.fileName !== undefined && { fileName: e.fileName }) };
  switch (e.className) {
    case 'MeshNodeLimitError': return new MeshNodeLimitError(e.count!, e.limit!, named);
    case 'UnsupportedFormatError': return new UnsupportedFormatError(e.message, named);
    case 'ModelUnreadableError': return new ModelUnreadableError(e.message, named);
    case 'UsdzPackageError': return new UsdzPackageError(e.rule ?? 'unknown', e.message, named);
    default: return new ConvertError(e.code, e.message, named);
  }
}
