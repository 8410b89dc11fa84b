import { Worker } from 'node:worker_threads';
import {
  ConvertError, MeshNodeLimitError, ModelUnreadableError, UnsupportedFormatError, UsdzPackageError,
} from '../errors/ConvertError.js';
import type { ConversionReply, ConversionRequest, ConversionResult, SerializedConvertError } from './protocol.js';

/** Options of {@link convertModel}. */
export interface ConvertModelOptions {
  fileName?: string;
  field?: string;
  meshNodeLimit?: number;
  /** Files to write: default USDZ only; `[]` reads and reports without writing. */
  outputs?: ReadonlyArray<'usdz' | 'glb'>;
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

/**
 * Converts model bytes to an ARKit-ready USDZ in a worker thread, so that nothing a hostile file
 * does to the parser (web-ifc can hang or abort) reaches the caller: a hang ends at `timeoutMs`,
 * a crash ends the worker; both come back as a {@link ModelUnreadableError}. The bytes are
 * transferred to the worker (the caller's buffer is detached).
 *
 * @example
 * ```ts
 * const { usdz, stats } = await convertModel(readFileSync('duplex.ifc'), { fileName: 'duplex.ifc' });
 * ```
 */
export function convertModel(bytes: Uint8Array, options: Partial<ConvertModelOptions> = {}): Promise<ConversionResult> {
  const opts = { ...CONVERT_MODEL_DEFAULTS, ...options };
  const request: ConversionRequest = {
    bytes,
    ...(opts.fileName !== undefined && { fileName: opts.fileName }),
    ...(opts.field !== undefined && { field: opts.field }),
    ...(opts.meshNodeLimit !== undefined && { meshNodeLimit: opts.meshNodeLimit }),
    ...(opts.outputs !== undefined && { outputs: opts.outputs }),
  };
  const label = opts.fileName ?? 'the model';
  const named = { ...(opts.fileName !== undefined && { fileName: opts.fileName }), ...(opts.field !== undefined && { field: opts.field }) };
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, {
      workerData: request,
      transferList: [bytes.buffer as ArrayBuffer],
      resourceLimits: { maxOldGenerationSizeMb: opts.maxHeapMb },
      // A clean start: the worker must not inherit loaders or flags of its host (test runners set some).
      execArgv: [],
      stdout: true, // the parser's own prints must not reach our stdout (`--json`)
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(() => {
      settle(() => reject(new ModelUnreadableError(`${label}: the parser did not finish within ${Math.round(opts.timeoutMs / 1000)} s; the file is malformed or too complex`, named)));
      void worker.terminate();
    }, opts.timeoutMs);
    worker.once('message', (reply: ConversionReply) => settle(() => (reply.ok ? resolve(reply.result) : reject(revive(reply.error)))));
    worker.once('error', (err) => settle(() => reject(new ModelUnreadableError(`${label}: the parser crashed (${err.message})`, { ...named, cause: err }))));
    worker.once('exit', (code) => settle(() => reject(new ModelUnreadableError(`${label}: the parser stopped without an answer (exit code ${code})`, named))));
  });
}

function revive(e: SerializedConvertError): ConvertError {
  const named = { field: e.field, ...(e.fileName !== undefined && { fileName: e.fileName }) };
  switch (e.className) {
    case 'MeshNodeLimitError': return new MeshNodeLimitError(e.count!, e.limit!, named);
    case 'UnsupportedFormatError': return new UnsupportedFormatError(e.message, named);
    case 'ModelUnreadableError': return new ModelUnreadableError(e.message, named);
    case 'UsdzPackageError': return new UsdzPackageError(e.rule ?? 'unknown', e.message, named);
    default: return new ConvertError(e.code, e.message, named);
  }
}
