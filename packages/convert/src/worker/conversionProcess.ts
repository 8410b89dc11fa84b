// Entry point of a conversion worker process (ConversionPoolOptions.isolation 'process'): the
// same jobs as a worker thread, in a process of its own whose memory the operating system bounds.
// It serves one job at a time over the IPC channel, for as long as the pool keeps it.

// Parsers print (web-ifc): everything goes to stderr, which the pool reads to tell how a worker ended.
console.log = console.info = console.debug = console.warn;
import { readFileSync } from 'node:fs';
import { ConversionMemoryError } from '../errors/ConvertError.js';
import { webIfcApi } from '../ifc/webIfcApi.js';
import { answerConversion } from './answerConversion.js';
import { serializeError } from './crossingErrors.js';
import { vmDataBytes } from './vmDataBytes.js';
import type { ConversionReply, ConversionRequest, WorkerReady } from './protocol.js';

/** The bound this process runs under (MB; `--memory-limit-mb=`, set with its RLIMIT_DATA by ProcessWorker). */
const limitMb = Number(process.argv.find((a) => a.startsWith('--memory-limit-mb='))?.slice('--memory-limit-mb='.length) ?? NaN);

/**
 * Memory this process has mapped for data (bytes): what RLIMIT_DATA counts, from
 * /proc/self/status (Linux); undefined where there is none.
 */
function dataBytes(): number | undefined {
  try {
    return vmDataBytes(readFileSync('/proc/self/status', 'utf8'));
  } catch {
    return undefined;
  }
}

/** What this process had mapped when it started: the bound is what a conversion adds to it. */
const startBytes = dataBytes();

/**
 * A refusal the bound caused said as such: a parser that runs short fails in its own words (web-ifc
 * throws a bare C++ exception when its WASM memory cannot grow), so a model refused while this
 * process holds over half its bound is refused for memory.
 */
function asMemoryRefusal(request: ConversionRequest, reply: ConversionReply): ConversionReply {
  if (reply.ok || !Number.isFinite(limitMb) || reply.error.code !== 'model_unreadable') return reply;
  const held = dataBytes();
  if (held === undefined || held - (startBytes ?? 0) < 0.5 * limitMb * 2 ** 20) return reply;
  const named = {
    ...(request.field !== undefined && { field: request.field }),
    ...(request.fileName !== undefined && { fileName: request.fileName }),
  };
  return { ok: false, error: serializeError(new ConversionMemoryError(limitMb * 2 ** 20, named))! };
}

process.on('message', async ({ id, request }: { id: number; request: ConversionRequest }) => {
  process.send!({ id, reply: asMemoryRefusal(request, await answerConversion(request)) });
});
// The host going away (a crash, a kill) takes its workers with it.
process.on('disconnect', () => process.exit(0));

// Started to be warm for IFC jobs (ProcessWorker's `preloadIfc`).
if (process.argv.includes('--preload-ifc')) await webIfcApi();
process.send!({ ready: true } satisfies WorkerReady);
