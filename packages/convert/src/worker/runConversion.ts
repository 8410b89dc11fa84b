import { writeHashedFile } from '../io/writeHashedFile.js';
import { readModel } from '../model/readModel.js';
import { writeUsdz } from '../usdz/writeUsdz.js';
import { writeUsdzBytesFile, writeUsdzFile } from '../usdz/writeUsdzFile.js';
import { mergeByMaterial } from '../scene/mergeByMaterial.js';
import { usdzAnchorRefusal } from '../usdz/anchor/anchorUsdz.js';
import type { ConversionRequest, ConversionResult } from './protocol.js';

/**
 * One conversion job in the calling thread: the model read (and, for by_scan mode 1, its door
 * found), merged for the phone, and written. What a pool worker runs for each job, and what a
 * process that is its own container (the CLI's single conversion) runs without a pool. Refusals
 * throw the typed errors of `crossingErrors`.
 *
 * @example
 * ```ts
 * const { usdzFileBytes, stats } = await runConversion({ bytes, fileName: 'house.ifc', usdzPath: 'house.usdz' });
 * ```
 */
export async function runConversion(request: ConversionRequest): Promise<ConversionResult> {
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
  const glbBytes = outputs.includes('glb') ? await (await import('../glb/writeGlb.js')).writeGlb(delivered) : undefined;
  const glbFile = glbBytes && request.glbPath !== undefined ? writeHashedFile(request.glbPath, (write) => write(glbBytes)) : undefined;
  const glb = glbFile ? undefined : glbBytes;
  const written = performance.now();
  const drawCalls = delivered.nodes.reduce((n, node) => n + node.meshes.length, 0);
  // Known now, while the package is at hand: whether a session can later anchor it for AR Quick Look.
  const refusal = arkit && usdzAnchorRefusal(arkit.bytes);
  return {
    format: scene.source.format,
    source: scene.source,
    stats: { ...delivered.stats, drawCalls, elements: scene.stats.meshNodes },
    bounds: delivered.bounds,
    offset: scene.offset,
    warnings: scene.warnings,
    delivery: !arkit ? 'converted' : arkit.repacked ? 'repacked' : 'as_uploaded',
    ...(refusal && { anchorRefusal: { rule: refusal.rule, message: refusal.message } }),
    timings: { readMs: round(read - started), writeMs: round(written - read) },
    ...(scene.doorOpenings && { doorOpenings: scene.doorOpenings }),
    ...(door && { door }),
    ...(usdz && { usdz }),
    ...(usdzFile && { usdzFileBytes: usdzFile.bytes, usdzFileSha256: usdzFile.sha256 }),
    ...(glb && { glb }),
    ...(glbFile && { glbFileBytes: glbFile.bytes, glbFileSha256: glbFile.sha256 }),
  };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
