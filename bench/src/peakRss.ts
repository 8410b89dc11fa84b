// Child-process entry: one conversion, then its peak resident memory. A process per measurement,
// because peak RSS only ever grows within a process.
import { readFileSync } from 'node:fs';
import { mergeByMaterial, readGlb, readIfc, writeUsdz } from '@arsession/convert';
import { bytesOf } from './corpus.js';
import { webIfcStreamAllMeshes } from './webIfcStream.js';

const [tool, path] = process.argv.slice(2);
const bytes = bytesOf(path!);
const started = performance.now();
switch (tool) {
  case 'ours-ifc': writeUsdz(mergeByMaterial(await readIfc(bytes))); break;
  case 'web-ifc': await webIfcStreamAllMeshes(bytes); break;
  case 'ours-glb': writeUsdz(mergeByMaterial(await readGlb(bytes))); break;
  case 'three-glb': {
    const peer = (await import(new URL('../peers/threeUsdzExporter.mjs', import.meta.url).href)) as { threeGlbToUsdz: (b: Uint8Array) => Promise<Uint8Array> };
    await peer.threeGlbToUsdz(bytes);
    break;
  }
  default: throw new Error(`unknown tool ${tool}`);
}
process.stdout.write(JSON.stringify({ ms: performance.now() - started, peakRssMb: peakRssMb() }));

/**
 * Peak resident memory of this process. On Linux from VmHWM, which belongs to the address space
 * and starts afresh at exec; getrusage's maxRSS survives fork+exec, so a child spawned by a big
 * parent would report the parent's peak.
 */
function peakRssMb(): number {
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]) / 1024;
  } catch {
    // not Linux: fall through
  }
  return process.resourceUsage().maxRSS / 1024;
}
