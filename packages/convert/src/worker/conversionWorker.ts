// Entry point of a conversion worker thread: it serves one job at a time, for as long as the pool keeps it.
import { parentPort, workerData } from 'node:worker_threads';

// Parsers print (web-ifc): route everything to stderr so a host's stdout (`--json`) stays clean.
// Done here rather than by capturing the worker's stdio, which would keep the host alive.
console.log = console.info = console.debug = console.warn;
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
import { webIfcApi } from '../ifc/webIfcApi.js';
import { answerConversion } from './answerConversion.js';
import type { ConversionRequest, WorkerReady, WorkerStart } from './protocol.js';

parentPort!.on('message', async ({ id, request }: { id: number; request: ConversionRequest }) => {
  const reply = await answerConversion(request);
  const transfer = reply.ok ? [reply.result.usdz, reply.result.glb].filter((b) => b !== undefined).map((b) => b.buffer as ArrayBuffer) : [];
  parentPort!.postMessage({ id, reply }, transfer);
});

// Every module is loaded and the listener is in place: the pool sends the first job now, and only
// from now on counts the job's time against its timeout (start-up is not the model's doing).
if ((workerData as WorkerStart | undefined)?.preloadIfc) await webIfcApi();
parentPort!.postMessage({ ready: true } satisfies WorkerReady);
