// Child-process entry: one conversion, then its peak resident memory. A process per measurement,
// because peak RSS only ever grows within a process.
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
process.stdout.write(JSON.stringify({ ms: performance.now() - started, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
