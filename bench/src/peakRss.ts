// Child-process entry: one conversion, then its peak resident memory. A process per measurement,
// because peak RSS only ever grows within a process.
import { readFileSync, writeFileSync } from 'node:fs';
import { mergeByMaterial, readGlb, readIfc, readSharedFile, runConversion, writeUsdz } from '@arsession/convert';
import { bytesOf } from './corpus.js';
import { peakRssMb } from './peakRssMb.js';
import { loadWebIfcPeer, webIfcStreamAllMeshes } from './webIfcStream.js';

const [tool, path, ...rest] = process.argv.slice(2);
// Ours reads the file into shared memory, as a conversion given a path (the server's way) does.
const bytes = tool === 'ours-budget' || tool === 'ours-parts' ? readSharedFile(path!) : bytesOf(path!);
// The peer's module loaded before the clock starts, as a static import did (ours loads web-ifc within its own timed run).
if (tool === 'web-ifc') loadWebIfcPeer();
const started = performance.now();
let extra: object = {};
const written = (parts: Uint8Array[]) => ({ bytes: parts.reduce((n, p) => n + p.length, 0) });
switch (tool) {
  case 'ours-ifc':
    extra = written(writeUsdz(mergeByMaterial(await readIfc(bytes))));
    break;
  case 'web-ifc':
    await webIfcStreamAllMeshes(bytes);
    break;
  case 'ours-glb':
    extra = written(writeUsdz(mergeByMaterial(await readGlb(bytes))));
    break;
  case 'ours-budget': {
    // The whole conversion as the server runs it (read, merge, AR budget, USDZ), USDZ in memory.
    const { budget } = await runConversion({ bytes, fileName: path!.split('/').pop()!, outputs: ['usdz'] });
    extra = { report: budget };
    break;
  }
  case 'ours-parts': {
    // The same, with the parts of a model over the budget written beside it (to `rest[0]`), as the server asks.
    const { budget, parts } = await runConversion({ bytes, fileName: path!.split('/').pop()!, outputs: ['usdz'], partsPath: rest[0]! });
    extra = { report: budget, parts: parts?.parts.map(({ offset: _o, ...p }) => p) ?? [] };
    break;
  }
  case 'gltfpack': {
    const { pack } = await import('gltfpack/library.js');
    const [out, ratio] = rest;
    await pack(['-i', path!, '-o', out!, '-si', ratio!, '-mi', '-noq'], {
      read: (p) => readFileSync(p),
      write: (p, d) => writeFileSync(p, d),
    });
    break;
  }
  case 'three-glb': {
    const peer = (await import(new URL('../peers/threeUsdzExporter.mjs', import.meta.url).href)) as {
      threeGlbToUsdz: (b: Uint8Array) => Promise<Uint8Array>;
    };
    await peer.threeGlbToUsdz(bytes);
    break;
  }
  default:
    throw new Error(`unknown tool ${tool}`);
}
process.stdout.write(JSON.stringify({ ms: performance.now() - started, peakRssMb: peakRssMb(), ...extra }));
