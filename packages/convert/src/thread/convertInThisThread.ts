import { ModelUnreadableError } from '../errors/ConvertError.js';
import { webIfcApi } from '../ifc/webIfcApi.js';
import { writeHashedFile } from '../io/writeHashedFile.js';
import type { ConversionRequest, ConversionResult } from '../worker/protocol.js';
import { runConversion } from '../worker/runConversion.js';
import { armThreadDeadline } from './threadDeadline.js';

/** Options of {@link convertInThisThread}. */
export interface ConvertInThisThreadOptions {
  /** Longest the conversion may take (ms), counted from the call, before the model is refused. */
  timeoutMs: number;
  /** Start loading web-ifc now (an IFC is expected), while the caller reads its input. */
  preloadIfc: boolean;
  /** The model's name, as refusals give it: known before the model is read, as the deadline's report names it. */
  fileName?: string;
  /** The refusal of a conversion past its deadline as the process reports it when it ends there: text for stdout or stderr. */
  lateReport: (refusal: ModelUnreadableError) => { fd: 1 | 2; text: string };
  /** The process's exit code then. */
  lateExitCode: number;
}

/** Defaults of {@link convertInThisThread}. */
export const CONVERT_IN_THIS_THREAD_DEFAULTS: Readonly<ConvertInThisThreadOptions> = {
  timeoutMs: 120_000,
  preloadIfc: false,
  lateReport: (refusal) => ({ fd: 2, text: `${refusal.message}\n` }),
  lateExitCode: 1,
};

/** One conversion in the calling thread, under way: give it the model once it is read. */
export interface ThreadConversion {
  /** Converts the model: the pool worker's job, with its refusals as the typed errors of `crossingErrors`. */
  convert(bytes: Uint8Array, job?: Omit<ConversionRequest, 'bytes'>): Promise<ConversionResult>;
  /**
   * Disarms the deadline (before reporting anything, even a refusal made before `convert`): true when
   * in time. Past the deadline the process is ending with `lateReport`, and this never resolves.
   */
  finish(): Promise<boolean>;
}

/**
 * Starts a conversion in the calling thread: the pool worker's job without the pool, for a process
 * that is its own container and ends after one model (`arsession convert FILE`). It saves a
 * thread's start-up and a second load of the readers, which on a small model are most of the
 * time. In exchange the process carries what a worker keeps away from a host: the thread has no
 * heap limit of its own, and a conversion past `timeoutMs` ends the process ({@link armThreadDeadline})
 * with `lateReport` and `lateExitCode`, wherever it was — a parser looping in WASM included. So that
 * this never leaves a file behind, the outputs are made in memory and written (atomically) only
 * once the conversion is known to be in time. The watchdog is armed, and web-ifc starts loading,
 * before the model is read, so both overlap the caller's own start. Services convert on the pool
 * (`convertModel`).
 *
 * @example
 * ```ts
 * const conversion = convertInThisThread({ preloadIfc: true, fileName: 'house.ifc' });
 * const result = await conversion.convert(readFileSync('house.ifc'), { fileName: 'house.ifc', usdzPath: 'house.usdz' });
 * ```
 */
export function convertInThisThread(options: Partial<ConvertInThisThreadOptions> = {}): ThreadConversion {
  const { timeoutMs, preloadIfc, fileName, lateReport, lateExitCode } = { ...CONVERT_IN_THIS_THREAD_DEFAULTS, ...options };
  const late = (job: Omit<ConversionRequest, 'bytes'> = {}) => {
    const name = job.fileName ?? fileName;
    const named = { ...(name !== undefined && { fileName: name }), ...(job.field !== undefined && { field: job.field }) };
    const limit = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`;
    return new ModelUnreadableError(
      `${name ?? 'the model'}: the parser did not finish within ${limit}; the file is malformed or too complex`,
      named,
    );
  };
  // Armed first: the watchdog's own start then runs on the other core while web-ifc loads here.
  const deadline = armThreadDeadline(timeoutMs, { report: lateReport(late()), exitCode: lateExitCode });
  // In a task of its own, so that a failure to load shows when the conversion asks for web-ifc.
  if (preloadIfc) setImmediate(() => void webIfcApi().catch(() => undefined));
  let used = false;
  return {
    async convert(bytes, job = {}) {
      if (used) throw new Error('convertInThisThread: one conversion each; start another');
      used = true;
      let result: ConversionResult;
      try {
        result = await runConversion({ ...job, bytes, usdzPath: undefined, glbPath: undefined });
      } catch (err) {
        if (!(await deadline.settle())) throw late(job);
        throw err;
      }
      if (!(await deadline.settle())) throw late(job);
      return writeOutputs(result, job);
    },
    finish: () => deadline.settle(),
  };
}

/** The outputs made in memory, written where the job asked (each atomically, hashed on the way out). */
function writeOutputs(result: ConversionResult, job: Omit<ConversionRequest, 'bytes'>): ConversionResult {
  const { usdz, glb, ...rest } = result;
  const usdzFile = usdz && job.usdzPath !== undefined ? writeHashedFile(job.usdzPath, (write) => write(usdz)) : undefined;
  const glbFile = glb && job.glbPath !== undefined ? writeHashedFile(job.glbPath, (write) => write(glb)) : undefined;
  return {
    ...rest,
    ...(usdzFile ? { usdzFileBytes: usdzFile.bytes, usdzFileSha256: usdzFile.sha256 } : usdz && { usdz }),
    ...(glbFile ? { glbFileBytes: glbFile.bytes, glbFileSha256: glbFile.sha256 } : glb && { glb }),
  };
}
