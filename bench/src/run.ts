// `pnpm bench [--quick] [--section conversion|cli|detection|memory|budget|fidelity|render|scaling|ladder|federation|server|distributed]`:
// runs the
// measurements, writes
// bench/results/*.json and regenerates bench/RESULTS.md from every results file present.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchAssimp } from './assimpPeer.js';
import { benchBudget } from './budgetBench.js';
import { benchCli } from './cliBench.js';
import { benchGlb, benchIfc } from './conversionBench.js';
import { benchDetection } from './detectionBench.js';
import { benchFidelity } from './fidelity/fidelityBench.js';
import { benchRender } from './render/renderBench.js';
import { benchDistributed } from './distributedBench.js';
import { benchDetectionLatency } from './detectionLatency.js';
import { benchLadder } from './ladder/ladderBench.js';
import { benchFederation } from './federation/federationBench.js';
import { BENCH_DIR } from './corpus.js';
import { environment } from './environment.js';
import { benchMemory } from './memoryBench.js';
import { benchScaling } from './scalingBench.js';
import { benchServer } from './serverBench.js';
import { writeReport } from './report.js';

const { values } = parseArgs({ options: { quick: { type: 'boolean' }, section: { type: 'string', multiple: true } }, strict: true });
const quick = values.quick === true;
// The scaling run (files up to ~57 MB), the ladder (a large model merged up to 500 MB), the federation (29 models,
// rendered), the fidelity run (a large model's full read and tree) and the render run (the same full read, pictures
// rewritten) are left out of --quick.
const sections =
  values.section ??
  (quick
    ? ['conversion', 'cli', 'detection', 'memory', 'budget', 'server', 'distributed']
    : [
        'conversion',
        'cli',
        'detection',
        'memory',
        'budget',
        'fidelity',
        'render',
        'scaling',
        'ladder',
        'federation',
        'server',
        'distributed',
      ]);
const rounds = quick ? 3 : 7;
const small = (f: string) => /IfcOpenHouse|wall_door|AC20|Box|DamagedHelmet\.glb/.test(f);
const only = quick ? small : undefined;
mkdirSync(join(BENCH_DIR, 'results'), { recursive: true });
const started = Date.now();
const save = (name: string, data: unknown) =>
  writeFileSync(
    join(BENCH_DIR, 'results', `${name}.json`),
    `${JSON.stringify({ environment: environment(), quick, rounds, data }, null, 2)}\n`,
  );

if (sections.includes('conversion')) {
  console.error('conversion: IFC → USDZ against web-ifc StreamAllMeshes; GLB → USDZ against three.js USDZExporter');
  const ifc = await benchIfc(rounds, only);
  const glb = await benchGlb(rounds, only);
  console.error('conversion: IFC through `arsession convert` and `assimp export`');
  // Whole processes per round (a few seconds each): three rounds are enough for a stable ratio.
  save('conversion', { ifc, glb, assimp: await benchAssimp(Math.min(rounds, 3), only) });
}
if (sections.includes('cli')) {
  console.error('cli: `arsession convert` as a process on small files, and on whole folders');
  // --quick: each folder once, one way (a process per file is a minute a round).
  save('cli', await benchCli(quick ? 3 : rounds, quick ? { folderRounds: 1, quick } : {}));
}
if (sections.includes('detection')) {
  console.error('detection: BVH build and first-hit rays against three-mesh-bvh');
  save('detection', await benchDetection(rounds, quick));
  console.error('detection: door detection latency on a big scene, tree built');
  save('detectionLatency', await benchDetectionLatency(quick));
}
if (sections.includes('memory')) {
  console.error('memory: peak RSS of one conversion per process');
  save('memory', await benchMemory(only));
}
if (sections.includes('budget')) {
  console.error('budget: source → delivered within the AR budget, beside web-ifc (IFC) and gltfpack (GLB)');
  // --quick: medians of three, not eleven (each run is a fresh process or three).
  save('budget', await benchBudget(only, quick ? 3 : undefined));
}
if (sections.includes('fidelity')) {
  console.error('fidelity: the budgeted delivery against the full model, both ways, by IFC class (three-mesh-bvh nearest points)');
  save('fidelity', benchFidelity(only));
}
if (sections.includes('render')) {
  console.error('render: pictures of each model as read beside its delivery within the AR budget, three fixed views (bench/renders/)');
  save('render', benchRender(only));
}
if (sections.includes('scaling')) {
  console.error('scaling: Office_A repeated 1, 4 and 13 times (≈57 MB) against web-ifc');
  save('scaling', await benchScaling(rounds));
}
if (sections.includes('ladder')) {
  console.error('ladder: the Revit restaurant merged 2, 4, 8 and 18 times, converted within the AR budget against web-ifc alone');
  save('ladder', await benchLadder(3));
}
if (sections.includes('federation')) {
  console.error('federation: 29 discipline models of one project in one session, within one AR budget, against web-ifc alone');
  save('federation', await benchFederation(3));
}
if (sections.includes('distributed')) {
  console.error('distributed: the server on PostgreSQL, S3 (Swift) and a BullMQ queue beside the embedded one');
  save('distributed', await benchDistributed(quick));
}
if (sections.includes('server')) {
  console.error('server: session creation under 32 clients against a bare Express + multer upload endpoint');
  save('server', await benchServer(quick));
}
writeReport();
console.error(`done in ${((Date.now() - started) / 1000).toFixed(0)} s; see bench/RESULTS.md`);
