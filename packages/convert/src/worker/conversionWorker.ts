// Entry point of a conversion worker thread: it serves one job at a time, for as long as the pool keeps it.
import { parentPort, workerData } from 'node:worker_threads';

// Parsers print (web-ifc, TinyUSDZ): route everything to stderr so a host's stdout (`--json`) stays
// clean. Done here rather than by capturing the worker's stdio, which would keep the host alive.
console.log = console.info = console.debug = console.warn;
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
import { readModel } from '../model/readModel.js';
import { writeUsdz } from '../usdz/writeUsdz.js';
import { writeUsdzBytesFile, writeUsdzFile } from '../usdz/writeUsdzFile.js';
import { mergeByMaterial } from '../scene/mergeByMaterial.js';
import { webIfcApi } from '../ifc/webIfcApi.js';
import { serializeError } from './crossingErrors.js';
import type { ConversionReply, ConversionRequest, WorkerReady, WorkerStart } from './protocol.js';

async function convert(request: ConversionRequest): Promise<ConversionReply> {
  try {
    const started = performance.now();
    const scene = await readModel(request.bytes, {
      ...(request.fileName !== undefined && { fileName: request.fileName }),
      ...(request.field !== undefined && { field: request.field }),
      ...(request.meshNodeLimit !== undefined && { meshNodeLimit: request.meshNodeLimit }),
    });
    // Before anything is written: a by_scan without a door must cost no conversion.
    const door = request.detectDoor && (await import('../model/detectDoorInScene.js')).detectDoorInScene(scene, request.detectDoor);
    const outputs = request.outputs ?? ['usdz'];
    const read = performance.now();
    // What the phone draws: thousands of elements merged per storey and material; an ARKit-ready
    // USDZ upload is delivered as it came (its scene is what it draws).
    const arkit = scene.arkitPackage;
    const delivered = arkit ? scene : mergeByMaterial(scene);
    const toFile = outputs.includes('usdz') && request.usdzPath !== undefined;
    const usdzFile = !toFile ? undefined : arkit ? writeUsdzBytesFile(arkit.bytes, request.usdzPath!) : writeUsdzFile(delivered, request.usdzPath!);
    const usdz = !outputs.includes('usdz') || toFile ? undefined : arkit ? arkit.bytes.slice() : new Uint8Array(Buffer.concat(writeUsdz(delivered)));
    const glb = outputs.includes('glb') ? await (await import('../glb/writeGlb.js')).writeGlb(delivered) : undefined;
    const written = performance.now();
    const drawCalls = delivered.nodes.reduce((n, node) => n + node.meshes.length, 0);
    return {
      ok: true,
      result: {
        format: scene.source.format,
        source: scene.source,
        stats: { ...delivered.stats, drawCalls, elements: scene.stats.meshNodes },
        bounds: delivered.bounds,
        offset: scene.offset,
        warnings: scene.warnings,
        delivery: !arkit ? 'converted' : arkit.repacked ? 'repacked' : 'as_uploaded',
        timings: { readMs: round(read - started), writeMs: round(written - read) },
        ...(scene.doorOpenings && { doorOpenings: scene.doorOpenings }),
        ...(door && { door }),
        ...(usdz && { usdz }),
        ...(usdzFile && { usdzFileBytes: usdzFile.bytes, usdzFileSha256: usdzFile.sha256 }),
        ...(glb && { glb }),
      },
    };
  } catch (err) {
    const error = serializeError(err);
    if (error) return { ok: false, error };
    throw err;
  }
}

parentPort!.on('message', async ({ id, request }: { id: number; request: ConversionRequest }) => {
  const reply = await convert(request);
  const transfer = reply.ok ? [reply.result.usdz, reply.result.glb].filter((b) => b !== undefined).map((b) => b.buffer as ArrayBuffer) : [];
  parentPort!.postMessage({ id, reply }, transfer);
});

// Every module is loaded and the listener is in place: the pool sends the first job now, and only
// from now on counts the job's time against its timeout (start-up is not the model's doing).
if ((workerData as WorkerStart | undefined)?.preloadIfc) await webIfcApi();
parentPort!.postMessage({ ready: true } satisfies WorkerReady);

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
