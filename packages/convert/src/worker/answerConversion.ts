import { serializeError } from './crossingErrors.js';
import type { ConversionReply, ConversionRequest } from './protocol.js';
import { runConversion } from './runConversion.js';

/**
 * One job as a worker answers it, thread or process: the result, or the refusal as it travels.
 * Anything that is not a refusal (a bug of ours, an allocation that failed) is thrown, and ends
 * the worker: the pool reports it and starts a fresh one.
 *
 * @example
 * ```ts
 * port.on('message', async ({ id, request }) => port.postMessage({ id, reply: await answerConversion(request) }));
 * ```
 */
export async function answerConversion(request: ConversionRequest): Promise<ConversionReply> {
  try {
    return { ok: true, result: await runConversion(request) };
  } catch (err) {
    const error = serializeError(err);
    if (error) return { ok: false, error };
    throw err;
  }
}
