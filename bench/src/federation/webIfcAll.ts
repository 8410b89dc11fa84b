// Child-process entry: web-ifc alone on every file of a federation, one after another in one process
// (its WebAssembly started once, as a service would keep it), then the time and peak memory as JSON.
// An .ifczip is unzipped before the clock starts: web-ifc reads only the IFC inside.
import { readFileSync } from 'node:fs';
import { detectFormat, unzipIfc } from '@arsession/convert';
import { peakRssMb } from '../peakRssMb.js';
import { loadWebIfcPeer, webIfcStreamAllMeshes } from '../webIfcStream.js';

const files = process.argv.slice(2).map((path) => {
  const bytes = new Uint8Array(readFileSync(path));
  return detectFormat(bytes) === 'ifczip' ? unzipIfc(bytes) : bytes;
});
// Loaded before the clock starts, as a static import did.
loadWebIfcPeer();
const started = performance.now();
let triangles = 0;
for (const bytes of files) triangles += await webIfcStreamAllMeshes(bytes);
process.stdout.write(JSON.stringify({ ms: performance.now() - started, triangles, peakRssMb: peakRssMb() }));
