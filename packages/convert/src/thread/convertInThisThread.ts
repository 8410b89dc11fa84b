import { rename, rm } from 'node:fs/promises';
import { ModelUnreadableError } from '../errors/ConvertError.js';
import { webIfcApi } from '../ifc/webIfcApi.js';
import type { ConversionRequest, ConversionResult } from '../worker/protocol.js';
import { runConversion } from '../worker/runConversion.js';
import { armThreadDeadline } from './threadDeadline.js';

/** Options of {@link convertInThisThread}. */
export interface ConvertInThisThreadOptions {
  /** Longest the conversion may take (ms), counted from the call, before it is ended and the model refused. */
  timeoutMs: number;
  /** Start loading web-ifc now (an IFC is expected), while the caller reads its input. */
  preloadIfc: boolean;
}

/** Defaults of {@link convertInThisThread}. */
export const CONVERT_IN_THIS_THREAD_DEFAULTS: Readonly<ConvertInThisThreadOptions> = { timeoutMs: 120_000, preloadIfc: false };

/** One conversion in the calling thread, under way: give it the model once it is read. */
export interface ThreadConversion {
  /** Converts the model: the pool worker's job, with its refusals as the typed errors of `crossingErrors`. */
  convert(bytes: Uint8Array, job?: Omit<ConversionRequest, 'bytes'>): Promise<ConversionResult>;
}

/**
 * Starts a conversion in the calling thread: the pool worker's job without the pool, for a process
 * that is its own container and ends after one model (`arsession convert FILE`). It saves a
 * thread's start-up and a second load of the readers, which on a small model are most of the
 * time. In exchange the process carries what a worker keeps away from a host: the thread has no
 * heap limit of its own, and a conversion past `timeoutMs` is ended by a watchdog
 * ({@link armThreadDeadline}) and refused, after which web-ifc's state here is unknown and every
 * later conversion in the thread is refused too. The watchdog is armed, and web-ifc starts loading,
 * before the model is read, so both overlap the caller's own start. Services convert on the pool
 * (`convertModel`).
 *
 * @example
 * ```ts
 * const conversion = convertInThisThread({ preloadIfc: true });
 * const result = await conversion.convert(readFileSync('house.ifc'), { fileName: 'house.ifc', usdzPath: 'house.usdz' });
 * ```
 */
export function convertInThisThread(options: Partial<ConvertInThisThreadOptions> = {}): ThreadConversion {
  const { timeoutMs, preloadIfc } = { ...CONVERT_IN_THIS_THREAD_DEFAULTS, ...options };
  // Armed first: the watchdog's own start then runs on the other core while web-ifc loads here.
  const deadline = armThreadDeadline(timeoutMs);
  // In a task of its own: if the deadline ends the load mid-way, what it ends is only this task (the
  // caller's code is not on the stack), and the conversion then reports the timeout. A failure to
  // load shows when the conversion asks for web-ifc.
  if (preloadIfc) setImmediate(() => void webIfcApi().catch(() => undefined));
  let used = false;
  return {
    async convert(bytes, job = {}) {
      const named = { ...(job.fileName !== undefined && { fileName: job.fileName }), ...(job.field !== undefined && { field: job.field }) };
      const label = job.fileName ?? 'the model';
      if (used) throw new Error('convertInThisThread: one conversion each; start another');
      used = true;
      if (abandoned) throw new ModelUnreadableError(`${label}: not converted, as an earlier conversion in this thread was ended mid-way`, named);
      const late = () => new ModelUnreadableError(`${label}: the parser did not finish within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}; the file is malformed or too complex`, named);
      // Written beside their places and moved in only once the work is known to be in time: a late
      // conversion leaves the files that were there before.
      const files = { usdz: job.usdzPath, glb: job.glbPath };
      const partial = (path: string | undefined) => path === undefined ? undefined : `${path}.${process.pid}.partial`;
      const discard = () => Promise.all([partial(files.usdz), partial(files.glb)].map((p) => p && rm(p, { force: true })));
      let result: ConversionResult;
      try {
        result = await Promise.race([
          runConversion({ ...job, bytes, usdzPath: partial(files.usdz), glbPath: partial(files.glb) }),
          deadline.expired.then(() => {
            abandoned = true;
            throw late();
          }),
        ]);
      } catch (err) {
        const inTime = await deadline.settle();
        await discard();
        throw inTime ? err : late();
      }
      if (!(await deadline.settle())) {
        await discard();
        throw late();
      }
      if (files.usdz !== undefined && result.usdzFileBytes !== undefined) await rename(partial(files.usdz)!, files.usdz);
      if (files.glb !== undefined && result.glbFileBytes !== undefined) await rename(partial(files.glb)!, files.glb);
      return result;
    },
  };
}

/** Set once a conversion was ended mid-way: the readers' state in this thread is no longer trusted. */
let abandoned = false;
