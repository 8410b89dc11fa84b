import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scatterSvg } from './chart.js';
import type { AssimpRow, AssimpSetup } from './assimpPeer.js';
import type { CliBench } from './cliBench.js';
import type { DistributedRow } from './distributedBench.js';
import { IFC_WARMUP, type GlbRow, type IfcPhases, type IfcRow } from './conversionBench.js';
import { BUILD_WARMUP, type DetectionRow } from './detectionBench.js';
import type { DetectionLatencyRow } from './detectionLatency.js';
import { BENCH_DIR } from './corpus.js';
import type { Environment } from './environment.js';
import type { MemoryRow } from './memoryBench.js';
import type { BudgetRow } from './budgetBench.js';
import type { FidelityRow } from './fidelity/fidelityBench.js';
import { FIDELITY_LEGEND, fidelityTable } from './fidelity/fidelityTable.js';
import { BOUND_TOLERANCE } from './fidelity/measureFidelity.js';
import type { RenderRow } from './render/renderBench.js';
import type { LadderBench } from './ladder/ladderBench.js';
import type { DistanceSummary } from './fidelity/summarizeDistances.js';
import type { FederationBench } from './federation/federationBench.js';
import type { ScalingRow } from './scalingBench.js';
import type { LoadRun, ServerRow } from './serverBench.js';
import type { Percentiles, Sample } from './sample.js';

interface ResultFile<T> {
  environment: Environment;
  quick: boolean;
  rounds: number;
  data: T;
}

function load<T>(name: string): ResultFile<T> | undefined {
  const path = join(BENCH_DIR, 'results', `${name}.json`);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ResultFile<T>) : undefined;
}

const ms = (s: Sample) => `${s.median.toFixed(1)} (${s.min.toFixed(1)}–${s.max.toFixed(1)})`;
const stage = (what: string, p: Percentiles) => `| ${what} | ${p.p50.toFixed(0)} | ${p.p99.toFixed(0)} | ${p.max.toFixed(0)} |`;
const x = (s: Sample) => `×${s.median.toFixed(2)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
const kb = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
const speed = (s: Sample) => `×${s.median.toFixed(1)} (${s.min.toFixed(1)}–${s.max.toFixed(1)})`;

function helmetVerdict(rows: readonly GlbRow[]): string[] {
  const h = rows.find((r) => r.file === 'DamagedHelmet.glb');
  if (!h?.three) return ['DamagedHelmet was not measured against three.js in this run.', ''];
  const fast = h.three.speedup.median >= 10,
    small = h.oursUsdzBytes <= h.three.usdzBytes;
  return [
    `DamagedHelmet: ×${h.three.speedup.median.toFixed(1)} faster than three.js ` +
      `at full resolution (target 10×: ${fast ? '**met**' : '**not met**'}); ` +
      `${h.oursUsdzBytes.toLocaleString('en-US')} bytes against ` +
      `${h.three.usdzBytes.toLocaleString('en-US')} (no larger: ${small ? '**met**' : '**not met**'}).`,
    '',
  ];
}

/**
 * What the budget leaves for all of ours beyond web-ifc's own time (ms): 5 ms on files web-ifc reads
 * in under 100 ms, 15% of its time above that (the 1.3× ratio as restated on 2026-11-24).
 */
function allowanceMs(webIfcMs: number): number {
  return webIfcMs < 100 ? 5 : 0.15 * webIfcMs;
}

/** Where our time goes, step by step, beside web-ifc's own streaming (rows measured with phases only). */
function phaseSection(ifc: readonly IfcRow[]): string[] {
  const rows = ifc.filter((r) => r.phases);
  if (rows.length === 0) return [];
  const f = (v: number) => v.toFixed(1);
  const beyondOf = (p: IfcPhases) => p.stepCheck + p.reading + p.merge + p.write;
  const over = rows.filter((r) => beyondOf(r.phases!) > allowanceMs(r.phases!.webIfc));
  const writeAlone = over.filter((r) => r.phases!.write > allowanceMs(r.phases!.webIfc));
  return [
    '### Where the time goes',
    '',
    'Each step of ours timed on its own, in the same rounds as web-ifc\'s streaming (medians, ms). "our STEP check":',
    'web-ifc must not see malformed files (it spins on unbalanced parentheses and mangles 64-bit ids); the one pass',
    'also notes where each entity starts, so identity and relationships are read from the bytes rather than through',
    'web-ifc\'s GetLine. "rest of reading": `readIfc` less web-ifc\'s streaming and the check (a difference of',
    "medians, floored at 0): placing every vertex in float64 in place of the copy-out web-ifc's column includes,",
    'identity, storeys and the door index (web-ifc\'s opening geometry). "allowance" is what the budget leaves for all of',
    "ours: 5 ms on files web-ifc reads in under 100 ms, 15% of web-ifc's time above that. Sums of medians: indicative.",
    '',
    '| file | web-ifc | our STEP check | rest of reading | merge | USD write | ours beyond web-ifc | allowance |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => {
      const p = r.phases!;
      const cells = [r.file, f(p.webIfc), f(p.stepCheck), f(p.reading), f(p.merge), f(p.write), f(beyondOf(p)), f(allowanceMs(p.webIfc))];
      return `| ${cells.join(' | ')} |`;
    }),
    '',
    `Over the allowance: ${over.length} of ${rows.length} files` +
      (over.length ? ` (${over.map((r) => r.file).join(', ')}); on ${writeAlone.length} of them the USD write alone exceeds it.` : '.'),
    '',
  ];
}

function assimpSection(ifc: readonly IfcRow[], assimp: { setup: AssimpSetup; rows: AssimpRow[] } | undefined): string[] {
  const head = [
    '## IFC with another converter: assimp',
    '',
    'The converter a Debian user would try next: `assimp export FILE OUT.glb` (assimp writes no USD), against',
    '`arsession convert FILE -o OUT.usdz`, each timed as the command a user runs (process start-up included),',
    'rounds alternating. assimp reads IFC2x3 only and skips much of it: its triangle count shows what it delivered.',
    '',
  ];
  if (!assimp) return [...head, 'Not measured in this run.', ''];
  if (!assimp.setup.available) return [...head, `Skipped: ${assimp.setup.note}.`, ''];
  const webIfc = new Map(ifc.map((r) => [r.file, r.triangles]));
  return [
    ...head,
    `assimp ${assimp.setup.version} (Debian assimp-utils, installed by the bench's set-up step when missing).`,
    '',
    "| file | triangles (web-ifc) | arsession convert | assimp export | ours ÷ assimp | triangles in assimp's GLB |",
    '|---|---:|---:|---:|---:|---:|',
    ...assimp.rows.map(
      (r) =>
        `| ${r.file} | ${webIfc.get(r.file)?.toLocaleString('en-US') ?? '—'} | ${r.ours ? ms(r.ours) : '—'} | ` +
        `${r.assimp ? ms(r.assimp) : `— (refused: ${r.assimpError?.replace(/\|/g, '\\|')})`} | ` +
        `${r.ratio ? x(r.ratio) : '—'} | ${r.assimpTriangles?.toLocaleString('en-US') ?? '—'} |`,
    ),
    '',
  ];
}

/**
 * When a section's own run was: sections are run on their own (`--section`), on days whose
 * machines differ by about two times, so the date at the top of the file is not theirs.
 */
function measuredOn(file: ResultFile<unknown>): string {
  return `Measured ${file.environment.date.slice(0, 16).replace('T', ' ')} UTC (Node ${file.environment.node}), in a run of its own.`;
}

/** Regenerates bench/RESULTS.md from the result files present. */
function cliSection(cli: ResultFile<CliBench> | undefined): string[] {
  if (!cli) return [];
  const { nodeStart, version, single, folders, assimp } = cli.data;
  const ifc = single.find((r) => r.file.endsWith('.ifc'));
  return [
    '## The command line: one small model a process, and whole folders',
    '',
    '`arsession convert FILE -o OUT.usdz --json` timed as a process (wall), rounds alternating with `assimp export`',
    "where assimp reads the file. Read and write are the conversion's own figures from the `--json` report; start-up is",
    "the rest: Node, the CLI and its one-bundle conversion (in the process's own thread), web-ifc loaded from its code cache",
    "while the CLI reads the file, the deadline's watchdog, and the exit. " + measuredOn(cli),
    `A bare \`node -e 0\` takes ${ms(nodeStart)} ms then;`,
    // Results written before the CLI had --version have no figure for it.
    version ? `\`arsession --version\`, the CLI with nothing loaded for a command, ${ms(version)} ms.` : '',
    '',
    '| file | process (wall) | start-up + exit | read | write | assimp export |',
    '|---|---:|---:|---:|---:|---:|',
    ...single.map(
      (r) => `| ${r.file} | ${ms(r.wall)} | ${ms(r.startup)} | ${ms(r.read)} | ${ms(r.write)} | ${r.assimp ? ms(r.assimp) : '—'} |`,
    ),
    '',
    ifc
      ? `Target ≤ 250 ms for a small IFC as a process: ` +
        `${ifc.wall.median <= 250 ? '**met**' : '**not met**'} (${ifc.wall.median.toFixed(0)} ms, ` +
        // A figure in absolute ms moves with the machine: in bare Node starts it moves far less.
        `${(ifc.wall.median / nodeStart.median).toFixed(1)} times a bare \`node -e 0\` here).`
      : '',
    '',
    // A --quick run converts each folder one way only: no process per file to set beside it.
    `Folders in one process${folders.some((r) => r.how.includes('`arsession convert FILE`')) ? ' against a process per file' : ''}` +
      `${assimp.available ? ` and assimp ${assimp.version}` : ''} ` +
      `(seconds, median (min–max) of ${folders[0]?.seconds.runs ?? 0} runs;`,
    'files the converter refuses still count in the time):',
    '',
    '| folder | how | files | converted | MB | seconds | files/s |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...folders.map(
      (r) =>
        `| ${r.folder} | ${r.how} | ${r.files} | ${r.converted} | ${r.megabytes.toFixed(1)} | ${r.seconds.median.toFixed(2)} ` +
        `(${r.seconds.min.toFixed(2)}–${r.seconds.max.toFixed(2)}) | ${(r.files / r.seconds.median).toFixed(1)} |`,
    ),
    '',
  ];
}

export function writeReport(): void {
  const conversion = load<{ ifc: IfcRow[]; glb: GlbRow[]; assimp?: { setup: AssimpSetup; rows: AssimpRow[] } }>('conversion');
  const memory = load<MemoryRow[]>('memory');
  const env = (conversion ?? memory)?.environment;
  const out: string[] = [
    '# Benchmark results',
    '',
    'Generated by `pnpm bench` (`bench/src/run.ts`); do not edit by hand. Times in ms as median (min–max)',
    'over alternating rounds after a warm-up; every ratio is taken round by round on the same file in the',
    'same process (ours ÷ peer, lower is better), so it holds on a noisy shared machine where absolute times drift.',
    '',
  ];
  if (env) {
    out.push(
      '## Machine',
      '',
      `${env.cpu}, ${env.cores} cores, ${env.memoryGiB} GiB, ${env.os}, Node ${env.node}; ` +
        Object.entries(env.versions)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ') +
        `. Measured ${env.date.slice(0, 16).replace('T', ' ')} UTC` +
        `${conversion?.quick ? ' (quick mode)' : ''}.`,
      '',
    );
  }
  if (conversion) {
    const worst = Math.max(...conversion.data.ifc.map((r) => r.ratio.median));
    const withinBudget = conversion.data.ifc.filter((r) => r.ours.median - r.webIfc.median <= allowanceMs(r.webIfc.median));
    out.push(
      '## IFC → USDZ against web-ifc `StreamAllMeshes`',
      '',
      "Budget: our time beyond web-ifc's own StreamAllMeshes (every geometry's arrays copied out) on the same file at most",
      '5 ms on files web-ifc reads in under 100 ms, at most 1.15× web-ifc above that (the earlier 1.3× ratio, restated).',
      '"ours" is read (web-ifc + placement baking + storeys + door index) + merge + USDZ write in the calling thread;',
      '"contained" is the same run through `convertModel`, in the worker pool the server uses (workers kept warm,',
      'replaced after 32 IFC jobs, so a few timed rounds run on a fresh worker: its maxima; the bytes copied in and',
      'the package copied out). A one-off CLI conversion runs cold, in a fresh worker.',
      `Both sides convert each file ${IFC_WARMUP} times before the timed rounds (our JavaScript needs a few runs to reach`,
      "its optimised code, as a server's pooled workers do after their first jobs). Runs before 2026-11-22 warmed up",
      'once, which left the small files measured half-cold: their figures are not comparable with these.',
      '',
      '| file | triangles | web-ifc | ours | ours ÷ web-ifc | contained | contained ÷ web-ifc |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...conversion.data.ifc.map(
        (r) =>
          `| ${r.file} | ${r.triangles.toLocaleString('en-US')} | ${ms(r.webIfc)} | ` +
          `${ms(r.ours)} | ${x(r.ratio)} | ${ms(r.contained)} | ${x(r.containedRatio)} |`,
      ),
      '',
      `Worst median ratio in the calling thread: ×${worst.toFixed(2)}. Within the budget ` +
        `(medians, calling thread): ${withinBudget.length} of ${conversion.data.ifc.length} files` +
        `${
          withinBudget.length < conversion.data.ifc.length
            ? ` — over it: ${conversion.data.ifc
                .filter((r) => !withinBudget.includes(r))
                .map((r) => r.file)
                .join(', ')}`
            : ''
        }.`,
      '',
      ...phaseSection(conversion.data.ifc),
      ...assimpSection(conversion.data.ifc, conversion.data.assimp),
      ...cliSection(load<CliBench>('cli')),
      '## GLB → USDZ against three.js `USDZExporter`',
      '',
      'Target: at least 10× faster than three.js on DamagedHelmet, output no larger. three.js (GLTFLoader +',
      'USDZExporter in Node, canvas from @napi-rs/canvas) re-encodes every texture through a canvas; we pass',
      'PNG/JPEG bytes through untouched. "full res" lets three.js keep textures up to 2048² (like for like: we',
      'never resample; this reproduces the corpus\'s three-DamagedHelmet.usdz byte for byte); "defaults" is what a',
      'three.js user gets out of the box (textures downscaled to 1024², so smaller files). Where three.js is',
      'faster (tiny files; SimpleInstancing and Synthetic_5000) it writes one shared geometry referenced per',
      'instance; we write a Mesh prim per instance, as the ARKit package has no instancing, with the shared arrays stored once.',
      '',
      '| file | triangles | ours | three.js full res | speed-up | three.js ' +
        'defaults | speed-up | ours USDZ | three.js full res | three.js defaults |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...conversion.data.glb.map(
        (r) =>
          `| ${r.file} | ${r.triangles.toLocaleString('en-US')} | ${ms(r.ours)} ` +
          `| ${r.three ? ms(r.three.time) : `— (${r.threeError ?? 'n/a'})`} ` +
          `| ${r.three ? speed(r.three.speedup) : '—'} | ${r.threeDefaults ? ms(r.threeDefaults.time) : '—'} ` +
          `| ${r.threeDefaults ? speed(r.threeDefaults.speedup) : '—'} | ${kb(r.oursUsdzBytes)} | ` +
          `${r.three ? kb(r.three.usdzBytes) : '—'} | ${r.threeDefaults ? kb(r.threeDefaults.usdzBytes) : '—'} |`,
      ),
      '',
      ...helmetVerdict(conversion.data.glb),
    );
  }
  const detection = load<DetectionRow[]>('detection');
  if (detection) {
    out.push(
      '## BVH and first-hit rays against three-mesh-bvh',
      '',
      "Targets (door detection issue): build no slower than three-mesh-bvh's default build, first-hit rays no slower than",
      'its `raycastFirst` (both sides). Same triangles (a corpus building flattened to one soup, or a dense synthetic',
      `interior), same rays from random points inside the bounds; ratios ours ÷ three-mesh-bvh. Builds: ${BUILD_WARMUP} warm-up`,
      'builds on each side, then three times the rounds of the other measurements, alternating who goes first; every',
      'build starts from a fresh copy of the original triangle order (three-mesh-bvh sorts the index it is given, and',
      'builds on an already sorted index are faster for both).',
      '',
      '| scene | triangles | build ours (ms) | build three-mesh-bvh | ratio ' +
        '| µs/ray ours | µs/ray three-mesh-bvh | ratio | disagreements |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...detection.data.map(
        (r) =>
          `| ${r.scene} | ${r.triangles.toLocaleString('en-US')} | ${ms(r.buildOurs)} | ${ms(r.buildPeer)} | ${x(r.buildRatio)} | ` +
          `${r.rayOursUs.median.toFixed(2)} | ${r.rayPeerUs.median.toFixed(2)} | ${x(r.rayRatio)} | ${r.disagreements} / ${r.rays} |`,
      ),
      '',
      `Median ratios, build: ${detection.data.map((r) => `×${r.buildRatio.median.toFixed(3)}`).join(', ')}; ` +
        `first-hit rays: ${detection.data.map((r) => `×${r.rayRatio.median.toFixed(3)}`).join(', ')}.`,
      `Build no slower: ${verdict(detection.data.map((r) => r.buildRatio.median))}; ` +
        `first-hit rays no slower: ${verdict(detection.data.map((r) => r.rayRatio.median))}.`,
      '',
    );
  }
  const latency = load<DetectionLatencyRow>('detectionLatency');
  if (latency) {
    const r = latency.data;
    out.push(
      '## Door detection latency',
      '',
      'Target (door detection issue): one detection p95 ≤ 100 ms on a scene of 1M triangles, tree already built.',
      'Office_A tiled side by side; every hosted door of one copy asked from in front of each face, geometric path only',
      '(the slower one: the semantic path is a few dot products per door), after a warm-up pass.',
      '"answered": an opening returned rather than a refusal; whether it is ' +
        'the right one is checked by `test/geometricDoorDetection.test.ts`.',
      '',
      '| scene | triangles | detections | answered | p50 (ms) | p95 (ms) | max (ms) | target |',
      '|---|---:|---:|---:|---:|---:|---:|---|',
      `| ${r.scene} | ${r.triangles.toLocaleString('en-US')} | ${r.detections} ` +
        `| ${r.found} | ${r.p50Ms.toFixed(1)} | ${r.p95Ms.toFixed(1)} ` +
        `| ${r.maxMs.toFixed(1)} | ${r.triangles >= 1e6 ? (r.p95Ms <= 100 ? 'met' : 'NOT met') : 'quick run: scene under 1M'} |`,
      '',
    );
  }
  const server = load<ServerRow>('server');
  if (server) {
    const r = server.data;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const row = (name: string, runs: ServerRow['ours']) =>
      `| ${name} | ${median(runs.map((x) => x.requestsPerSecond)).toFixed(0)} | ${median(runs.map((x) => x.p50Ms))} ` +
      `| ${median(runs.map((x) => x.p99Ms))} | ${runs.reduce((n, x) => n + x.non2xx + x.errors, 0)} |`;
    out.push(
      '## Server: session creation under load',
      '',
      `Target (server issue): a by_virtual_anchor session with Box.glb sustains at least 70% of the requests per second of a bare`,
      `Express + multer endpoint that only stores the upload. autocannon, ${r.connections} clients, loopback, ${r.seconds} s per run,`,
      'each server in its own process, runs alternating after a warm-up. "Ours" authenticates the key, streams the form to disk',
      'hashing it, checks every field, places the anchor, and commits the session to SQLite before answering 201. As in production,',
      'the same model uploaded again is linked from the conversion cache (keyed by the SHA-256 of its bytes) instead of converted',
      'again; "cache off" (`ARSESSION_CACHE_ENTRIES=0`) converts the GLB to USDZ on a worker thread on every request.',
      '',
      'Where the time goes: the event loop parses the request and the form (as the bare endpoint does) and runs the rules; the key',
      "lookup, the move of the session's files and the commit run on the store thread, WAL checkpoints on a thread of their own.",
      'On this 2-core machine the load generator, the event loop and those threads share the cores.',
      '',
      '| endpoint | req/s | p50 (ms) | p99 (ms) | non-2xx + errors |',
      '|---|---:|---:|---:|---:|',
      row('ours: by_virtual_anchor/rectangle-short-side', r.ours),
      ...(r.uncached ? [row('ours, cache off (every request converts)', r.uncached)] : []),
      row('bare Express + multer upload', r.bare),
      '',
      `Throughput ours ÷ bare: ${x(r.throughputRatio)} — target ≥ 0.70: **${r.throughputRatio.median >= 0.7 ? 'met' : 'not met'}**` +
        `${r.uncachedRatio ? `; with the cache off ${x(r.uncachedRatio)}` : ''}.`,
      '',
    );
  }
  const distributed = load<DistributedRow>('distributed');
  if (distributed) {
    const r = distributed.data;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const row = (name: string, runs: LoadRun[]) =>
      `| ${name} | ${median(runs.map((v) => v.requestsPerSecond)).toFixed(0)} | ${median(runs.map((v) => v.p50Ms))} ` +
      `| ${median(runs.map((v) => v.p99Ms))} | ${runs.reduce((n, v) => n + v.non2xx + v.errors, 0)} |`;
    out.push(
      '## The distributed mode beside the embedded one',
      '',
      `The same session request as above (by_virtual_anchor, Box.glb, ` +
        `${r.connections} clients, ${r.seconds} s per run, rounds alternating),`,
      'against a server on PostgreSQL, OpenStack Swift (s3api) and a BullMQ queue on Redis, role `all` (its conversions go through the',
      'queue to the worker in the same process), and against the embedded server. Every service runs privately on this same',
      '2-core machine, beside the load generator: Swift is one proxy process and one object-server process in Python.',
      '',
      '| server | req/s | p50 (ms) | p99 (ms) | non-2xx + errors |',
      '|---|---:|---:|---:|---:|',
      row('embedded, every request converts', r.embedded),
      row('distributed, every request converts', r.distributed),
      row('embedded, conversion cache on', r.embeddedCached),
      row('distributed, conversion cache on', r.distributedCached),
      '',
      `Throughput distributed ÷ embedded: ${x(r.throughputRatio)} with every request converting; ${x(r.cachedRatio)} with the cache on.`,
      '',
      'Where the two cores go, with every request converting: CPU time per session by process (every thread; from /proc, around each run;',
      '`node` is the idle servers of the other rows, `bench` the load generator). Two cores give at most 2,000 ms of CPU a second, so',
      'the total bounds the sessions per second this machine can serve.',
      '',
      '| process | embedded (ms/session) | distributed (ms/session) |',
      '|---|---:|---:|',
      ...cpuRows(r.cpuPerSession),
      '',
      'One Box.glb job at a time through the queue, as the API side runs it for a request (a worker in the bench process;',
      "the stages split by the worker's own timestamps, BullMQ's processedOn and finishedOn, on the same clock):",
      '',
      `| per job (${r.jobs.overhead.runs} jobs) | p50 (ms) | p99 (ms) | max (ms) |`,
      '|---|---:|---:|---:|',
      stage('model sent beside the job (Redis) and queued → a worker takes it', r.jobs.enqueueToStart),
      stage('in the worker: model taken, outputs sent back (besides the conversion)', r.jobs.workerTransfers),
      stage('the conversion itself (read + write)', r.jobs.conversion),
      stage('worker done → the API side has the result (completion event, outputs taken, job files removed)', r.jobs.finishToAnswer),
      stage('**everything the queue adds** (all but the conversion)', r.jobs.overhead),
      '',
      `Object-store calls of a job, both sides, at most: ${r.jobs.objectStoreRequests} (each a ` +
        `request or more; a model and outputs within \`ARSESSION_QUEUE_INLINE_BYTES\` travel in Redis).`,
      '',
      'After that the API side commits the session (its USDZ and GLB put in the object store, two requests; its rows in one PostgreSQL',
      'transaction) and answers 201; with the cache on, a converted model ' +
        'is kept by two copies inside the store (no bytes through the node).',
      '',
      'docs/SCALING.md turns these into machine counts.',
      '',
    );
  }
  const scaling = load<ScalingRow[]>('scaling');
  if (scaling) {
    out.push(
      '## How time and memory grow with model size',
      '',
      'Office_A repeated 1, 4 and 13 times (entity ids shifted per copy; 13 copies ≈ 57 MB). Ours: read + merge + USDZ write;',
      'peak memory is one conversion in a fresh process.',
      '',
      '| copies | MB | triangles | web-ifc (ms) | ours (ms) | ours ÷ web-ifc | peak ours | peak web-ifc |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...scaling.data.map(
        (r) =>
          `| ${r.copies} | ${r.megabytes.toFixed(0)} | ${r.triangles.toLocaleString('en-US')} ` +
          `| ${ms(r.webIfc)} | ${ms(r.ours)} | ${x(r.ratio)} | ` +
          `${r.oursPeakMb === undefined ? '—' : `${r.oursPeakMb.toFixed(0)} MB`} | ` +
          `${r.webIfcPeakMb === undefined ? '—' : `${r.webIfcPeakMb.toFixed(0)} MB`} |`,
      ),
      '',
    );
  }
  out.push(...ladderSection(load<LadderBench>('ladder')));
  out.push(...federationSection(load<FederationBench>('federation')));
  if (memory) {
    out.push(
      '## Peak memory of one conversion',
      '',
      'Peak RSS of a fresh Node process doing one conversion (module loading included).',
      '',
      '| file | ours | peer | peer peak |',
      '|---|---:|---|---:|',
      ...memory.data.map(
        (r) => `| ${r.file} | ${r.oursMb.toFixed(0)} MB | ${r.peer} | ${r.peerMb === undefined ? '—' : `${r.peerMb.toFixed(0)} MB`} |`,
      ),
      '',
    );
  }
  out.push(...budgetSection(load<BudgetRow[]>('budget')));
  out.push(...fidelitySection(load<FidelityRow[]>('fidelity')));
  out.push(...renderSection(load<RenderRow[]>('render')));
  out.push(...charts(conversion?.data, memory?.data, scaling?.data));
  writeFileSync(join(BENCH_DIR, 'RESULTS.md'), `${out.join('\n')}\n`);
}

const OURS = '#1f77b4',
  PEER = '#ff7f0e';

/** Writes the SVG charts next to RESULTS.md and returns the Markdown that shows them. */
function charts(
  conversion: { ifc: IfcRow[]; glb: GlbRow[] } | undefined,
  memory: MemoryRow[] | undefined,
  scaling: ScalingRow[] | undefined,
): string[] {
  const lines: string[] = [];
  mkdirSync(join(BENCH_DIR, 'charts'), { recursive: true });
  const save = (name: string, svg: string, caption: string) => {
    writeFileSync(join(BENCH_DIR, 'charts', name), svg);
    lines.push(`![${caption}](charts/${name})`, '');
  };
  if (conversion) {
    const ifc = [
      ...conversion.ifc,
      ...(scaling ?? [])
        .filter((r) => r.copies > 1)
        .map((r) => ({ file: `Office_A ×${r.copies}`, triangles: r.triangles, ours: r.ours, webIfc: r.webIfc })),
    ];
    save(
      'ifc-time.svg',
      scatterSvg(
        [
          {
            name: 'arsession (read + merge + USDZ)',
            colour: OURS,
            points: ifc.map((r) => ({ x: r.triangles, y: r.ours.median, label: r.file })),
          },
          {
            name: 'web-ifc StreamAllMeshes',
            colour: PEER,
            points: ifc.map((r) => ({ x: r.triangles, y: r.webIfc.median, label: r.file })),
          },
        ],
        { title: 'IFC → USDZ: time against triangle count', xLabel: 'triangles', yLabel: 'ms (median)' },
      ),
      'IFC conversion time against triangles',
    );
    const glb = conversion.glb.filter((r) => r.three);
    save(
      'glb-time.svg',
      scatterSvg(
        [
          { name: 'arsession', colour: OURS, points: glb.map((r) => ({ x: r.triangles, y: r.ours.median, label: r.file })) },
          {
            name: 'three.js USDZExporter (full res)',
            colour: PEER,
            points: glb.map((r) => ({ x: r.triangles, y: r.three!.time.median, label: r.file })),
          },
        ],
        { title: 'GLB → USDZ: time against triangle count', xLabel: 'triangles', yLabel: 'ms (median)' },
      ),
      'GLB conversion time against triangles',
    );
  }
  if (memory && conversion) {
    const tri = new Map([...conversion.ifc, ...conversion.glb].map((r) => [r.file, r.triangles]));
    const rows = [
      ...memory.filter((r) => tri.has(r.file)),
      ...(scaling ?? []).map((r) => ({
        file: `Office_A ×${r.copies}`,
        oursMb: r.oursPeakMb ?? 0,
        peerMb: r.webIfcPeakMb,
        peer: 'web-ifc' as const,
      })),
    ];
    const triangles = (r: { file: string }) => tri.get(r.file) ?? scaling?.find((s) => `Office_A ×${s.copies}` === r.file)?.triangles ?? 0;
    save(
      'memory.svg',
      scatterSvg(
        [
          { name: 'arsession', colour: OURS, points: rows.map((r) => ({ x: triangles(r), y: r.oursMb, label: r.file })) },
          {
            name: 'peer (web-ifc / three.js)',
            colour: PEER,
            points: rows
              .filter((r) => r.peerMb !== undefined)
              .map((r) => ({ x: triangles(r), y: r.peerMb!, label: `${r.file} (${r.peer})` })),
          },
        ],
        { title: 'Peak memory of one conversion against triangle count', xLabel: 'triangles', yLabel: 'MB (peak RSS)' },
      ),
      'Peak memory against triangles',
    );
  }
  return lines.length ? ['## Charts', '', ...lines] : [];
}

// Run-to-run spread of a median ratio on this shared machine: within it, "no slower" cannot be told apart.
const RATIO_NOISE = 0.02;

/** "met" when every median ratio is at most 1, "within noise" when none exceeds 1 by more than {@link RATIO_NOISE}. */
function verdict(ratios: readonly number[]): string {
  const worst = Math.max(...ratios);
  if (worst <= 1) return '**met** on every scene';
  return worst <= 1 + RATIO_NOISE
    ? `**within noise** (worst ×${worst.toFixed(3)}; spread ±${RATIO_NOISE * 100}%)`
    : `**not met** (worst ×${worst.toFixed(3)})`;
}

/** The AR budget's table: what each model became, what it cost, beside web-ifc (IFC) or gltfpack (GLB). */
function budgetSection(budget: ResultFile<BudgetRow[]> | undefined): string[] {
  if (!budget) return [];
  const n = (v: number) => v.toLocaleString('en-US');
  const mb = (v: number) => (v / 1e6).toFixed(1);
  const mm = (m: number | undefined) => (m === undefined ? '—' : (m * 1000).toFixed(1));
  const rows = budget.data;
  const buildings = rows.filter((r) => r.kind === 'ifc' && !r.large);
  const worstDeviation = Math.max(0, ...buildings.map((r) => r.ours.report.maxDeviation));
  const within = rows.filter((r) => r.ours.report.withinBudget).length;
  const timeRatios = rows.map((r) => r.ours.ms / r.today.ms);
  const memoryRatios = rows.filter((r) => r.kind === 'ifc' && Number.isFinite(r.peer.peakMb)).map((r) => r.ours.peakMb / r.peer.peakMb);
  const b = rows[0]?.ours.report.budget;
  return [
    '## The AR budget: source → delivered',
    '',
    `Every corpus IFC and ` +
      `GLB${rows.some((r) => r.large) ? ' and the large real models of `bench/LARGE-MODELS.md` (marked ▲)' : ''}, each run in fresh ` +
      `processes (time and peak memory: the median of eleven runs, ours with and without the budget in turns so a ` +
      `machine slow for a while weighs on both; of a large model three with the budget and one without): ours within the default budget` +
      (b
        ? ` (${n(b.triangles)} triangles, ${b.meshPrims} mesh prims, ${b.textureSize} px, ${(b.packageBytes / 2 ** 20).toFixed(0)} MiB)`
        : '') +
      ', ours as before the budget ("today": merged past 300 draw calls, ' +
      'written), and the peer: web-ifc alone for IFC (`StreamAllMeshes`, ' +
      'the floor of any converter built on it), gltfpack for GLB (`-si` at the ratio our budget needed, `-mi`, no ' +
      'quantization; its textures untouched, as its texture limit needs its own compression; its output measured ' +
      'with our deviation estimate). Deviation: the farthest the delivered surface is ' +
      'from the full model, every simplified triangle measured against it with a BVH.',
    '',
    '| model | MB | triangles: source → ours (gltfpack) | mesh prims | USDZ MB: today → ours | ' +
      'deviation mm: ours (gltfpack) | time ms: today → ours | peak MB: today → ours (peer) | within |',
    '|---|---:|---:|---:|---:|---:|---:|---:|:---:|',
    ...rows.map((r) => {
      const rep = r.ours.report;
      const peerTris = r.peer.triangles === undefined ? '' : ` (${n(r.peer.triangles)})`;
      const peerDev = r.peer.name === 'gltfpack' ? ` (${mm(r.peer.maxDeviation)})` : '';
      return (
        `| ${r.large ? '▲ ' : ''}${r.file} | ${mb(r.sourceBytes)} | ${n(rep.source.triangles)} → ` +
        `${n(rep.delivered.triangles)}${peerTris} | ${rep.source.meshPrims} → ${rep.delivered.meshPrims} | ` +
        `${mb(r.today.bytes)} → ${mb(rep.delivered.bytes ?? 0)} | ` +
        `${mm(rep.maxDeviation)}${peerDev} | ${r.today.ms.toFixed(0)} → ${r.ours.ms.toFixed(0)} | ` +
        `${r.today.peakMb.toFixed(0)} → ${r.ours.peakMb.toFixed(0)} (${r.peer.name} ` +
        `${Number.isFinite(r.peer.peakMb) ? r.peer.peakMb.toFixed(0) : 'could not read it'}) | ${rep.withinBudget ? '✓' : '✗'} |`
      );
    }),
    '',
    `Goals: every delivered file within budget — **${within} of ${rows.length}**; ` +
      `deviation ≤ 2 cm on every corpus building — largest **${mm(worstDeviation)} mm** ` +
      `(${worstDeviation <= 0.02 ? 'met' : 'not met'}); time ≤ 1.5× today's — largest **×${Math.max(...timeRatios).toFixed(2)}** ` +
      `(${Math.max(...timeRatios) <= 1.5 ? 'met' : 'not met'}); IFC peak memory ≤ 1.5× web-ifc's — largest ` +
      `**×${Math.max(...memoryRatios).toFixed(2)}** (${Math.max(...memoryRatios) <= 1.5 ? 'met' : 'not met'}).`,
    '',
  ];
}

/**
 * The budgeted delivery against the full model, both ways, by IFC class category: a table per model
 * the budget changed, one sentence for the models it delivered as read.
 */
function fidelitySection(fidelity: ResultFile<FidelityRow[]> | undefined): string[] {
  if (!fidelity) return [];
  const rows = fidelity.data;
  // Delivered as read (or merged only): every point lies on the other surface to float32's rounding, nothing to tabulate.
  const same = rows.filter((r) => (r.deviation.overall.max ?? 0) <= BOUND_TOLERANCE && (r.coverage.overall.max ?? 0) <= BOUND_TOLERANCE);
  const changed = rows.filter((r) => !same.includes(r));
  const unbounded = rows.filter((r) => !r.deviation.bounded || !r.coverage.bounded);
  return [
    '## Fidelity of the budgeted delivery, by IFC class',
    '',
    `Every corpus IFC${rows.some((r) => r.large) ? ' and the large real models (▲)' : ''}, ` +
      `each in a fresh process (\`src/fidelity/fidelityCli.ts\`): read in full,`,
    'and as a conversion delivers it within the default AR budget (stream reduction, then `fitArBudget`); each surface sampled by area',
    `(${rows[0]?.samples.toLocaleString('en-US') ?? '—'} seeded points) and every point's ` +
      `distance to the nearest point of the other whole model taken with three-mesh-bvh,`,
    "independently of the budget's own deviation probe. Categories by IFC class: envelope (walls, slabs, roofs, windows, doors, structure,",
    'stairs, railings, coverings), furniture, mep (flow, distribution and service elements), other (proxies, accessories, site, …).',
    '',
    ...FIDELITY_LEGEND,
    '',
    ...(same.length
      ? [
          `Delivered with every sampled distance within ${BOUND_TOLERANCE * 1000} ` +
            `mm both ways (float32 rounding): ${same.map((r) => r.file).join(', ')}.`,
          '',
        ]
      : []),
    ...changed.flatMap((r) => fidelityTable({ ...r, file: `${r.large ? '▲ ' : ''}${r.file}` })),
    `The budget's reported maxDeviation and maxUncovered bound the sampled ` +
      `maxima on ${rows.length - unbounded.length} of ${rows.length} models (to 0.1 mm, or what float32 rounding moves a point ` +
      `where a model reaches farther from its origin: 0.3 mm at 2.5 km)` +
      (unbounded.length ? ` — not on ${unbounded.map((r) => r.file).join(', ')}.` : '.'),
    '',
  ];
}

/**
 * Each model's pictures, full beside delivered, from the three fixed views: a line per model (source →
 * delivered triangles), then its images, large models first as rendered.
 */
function renderSection(render: ResultFile<RenderRow[]> | undefined): string[] {
  if (!render) return [];
  const n = (v: number) => v.toLocaleString('en-US');
  return [
    '## What the budget delivers, seen',
    '',
    'Each model rendered as read (left) and as a conversion delivers it within the default AR budget (right: stream reduction, then',
    '`fitArBudget`), each in a fresh process (`src/render/renderCli.ts`), by a small deterministic CPU rasterizer (z-buffer, both faces,',
    'flat shading from a headlight, 2×2 supersampled; the same pixels on ' +
      'any machine). Textures are not drawn, and materials under 50 % opacity',
    '(glass) are left out so the rooms behind show. Both sides are seen ' +
      'from the same cameras, framed on the full model — on all of it that',
    'rises 2 m above its lowest floor (terrain and street may run off the edges): **outside 3/4** (from the +x +z corner, 25° up),',
    '**façade** (the longer side square on, level, from +z or +x), **inside at eye height**',
    '(1.6 m above the lowest floor with a roof over it, at a clear spot near its middle, looking along x or z the way the room runs',
    'farthest, 90° across). A line — a railway kilometres long (ACCA_…) — is seen instead as **the whole line from above** (north up),',
    '**30 m of it near the middle, 3/4 from above** (30° up, 30° round from square on to the line there) and **along the line at eye',
    'height** (`src/render/lineViews.ts`).',
    '',
    ...render.data.flatMap((r) => [
      `### ${r.large ? '▲ ' : ''}${r.file}: ${n(r.triangles.full)} → ${n(r.triangles.delivered)} triangles`,
      '',
      `Rendered in ${(r.ms.total / 1000).toFixed(0)} s, peak ${r.peakRssMb.toFixed(0)} MB.`,
      '',
      ...r.views.flatMap((v) => [
        `${v.title} — as read | delivered:`,
        '',
        `![${r.file}, ${v.title}: as read (left), delivered (right)](${v.image})`,
        '',
      ]),
    ]),
  ];
}

/** The CPU-per-session table's rows: each process of 0.3 ms or more in either mode, the rest as one row, then the totals. */
function cpuRows(cpu: DistributedRow['cpuPerSession']): string[] {
  const of = (list: Array<{ name: string; ms: number }>, name: string) => list.find((p) => p.name === name)?.ms ?? 0;
  const names = [...new Set([...cpu.distributed, ...cpu.embedded].filter((p) => p.ms >= 0.3).map((p) => p.name))];
  names.sort((a, b) => of(cpu.distributed, b) - of(cpu.distributed, a));
  const total = (list: Array<{ ms: number }>) => list.reduce((t, p) => t + p.ms, 0);
  const rest = (list: Array<{ name: string; ms: number }>) => total(list.filter((p) => !names.includes(p.name)));
  return [
    ...names.map((n) => `| ${n} | ${of(cpu.embedded, n).toFixed(1)} | ${of(cpu.distributed, n).toFixed(1)} |`),
    `| everything else (kernel threads, the machine's own agents) | ` +
      `${rest(cpu.embedded).toFixed(1)} | ${rest(cpu.distributed).toFixed(1)} |`,
    `| **total** | ${total(cpu.embedded).toFixed(1)} | ${total(cpu.distributed).toFixed(1)} |`,
  ];
}

/** The scale ladder: time and memory beside web-ifc alone, and what each rung was delivered as. */
function ladderSection(ladder: ResultFile<LadderBench> | undefined): string[] {
  if (!ladder) return [];
  const head = [
    '## The scale ladder: a project larger than one AR file',
    '',
    `\`${ladder.data.source}\` merged ${listed(ladder.data.rows.map((r) => r.copies)) || 'several'} times into one project ` +
      '(`src/ladder/`: ids renumbered, GlobalIds unique, each',
    "copy's site 100 m from the last, one IfcProject), converted as the server does within the default AR budget (read, budget,",
    'merge, USDZ in memory) beside web-ifc alone (open, stream every mesh, copy its arrays out), each a fresh process,',
    `${ladder.data.rounds} rounds alternating; peak RSS is the largest of the rounds. MB are 10⁶ bytes (of a file) and MiB`,
    `(of memory). ${measuredOn(ladder)}`,
    '',
  ];
  if (ladder.data.skipped) return [...head, `Not run: ${ladder.data.skipped}.`, ''];
  const mb = (n: number) => `${n.toFixed(0)} MiB`;
  const cm = (m: number) => (m < 1 ? `${(m * 100).toFixed(1)} cm` : `${m.toFixed(2)} m`);
  const rows = ladder.data.rows;
  return [
    ...head,
    '| copies | MB | web-ifc (ms) | ours (ms) | ours ÷ web-ifc | peak web-ifc | peak ours | ÷ |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.copies} | ${fileMb(r.megabytes)} | ${ms(r.webIfc)} | ${ms(r.ours)} | ${x(r.ratio)} | ${mb(r.webIfcPeakMb)} | ` +
        `${mb(r.oursPeakMb)} | ×${(r.oursPeakMb / r.webIfcPeakMb).toFixed(2)} |`,
    ),
    '',
    'Goal (issue 50): time and peak memory each ≤ ×1.5 of web-ifc alone at 111 and 223 MB: ' + goalAt111And223(rows),
    '',
    'What each was delivered as: the triangles and mesh prims, and the envelope (walls, slabs, roofs and their detail) —',
    'its triangles, how far its delivery and the full model lie apart each way (bounded), its elements stood in for (a',
    'sheet, a rim round an opening, a box) and left out:',
    '',
    '| copies | triangles | mesh prims | envelope: source → delivered | deviation | uncovered | stood in | left out |',
    '|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map((r) => {
      const envelope = r.report.categories.find((c) => c.category === 'envelope');
      const leftOut = envelope?.leftOut.map((c) => `${c.ifcClass} ×${c.elements}`).join(', ') || '—';
      const count = (n: number) => n.toLocaleString('en-US');
      const figures = envelope
        ? `${count(envelope.sourceTriangles)} → ${count(envelope.deliveredTriangles)} | ` +
          `${cm(envelope.maxDeviation)} | ${cm(envelope.maxUncovered)}`
        : '— | — | —';
      return (
        `| ${r.copies} | ${count(r.report.delivered.triangles)} | ${r.report.delivered.meshPrims} | ${figures} | ` +
        `${envelope?.proxiedElements ?? 0} | ${leftOut} |`
      );
    }),
    '',
    ...ladderFidelityLines(rows),
    ...ladderPartsLines(rows, cm, mb),
    ...ladderOnServerLines(ladder.data.onServer),
    ...ladderRenderLines(ladder.data.renders),
    ...ladderPartRenderLines(ladder.data.partRenders),
  ];
}

/**
 * Each rung's overview measured against the full model by sampling, independently of the budget's
 * own bounds (the fidelity section's method): the envelope's row and all classes', both ways.
 */
function ladderFidelityLines(rows: LadderBench['rows']): string[] {
  const measured = rows.filter((r) => r.fidelity);
  if (measured.length === 0) return [];
  const mm = (m: number | null) => (m === null ? '—' : (m * 1000).toFixed(1));
  const pct = (share: number | null) => (share === null ? '—' : `${(share * 100).toFixed(share > 0 && share < 0.001 ? 3 : 1)}%`);
  const cells = (d: DistanceSummary) => `${mm(d.median)} | ${mm(d.p99)} | ${mm(d.max)} | ${pct(d.over10cm)}`;
  const two = measured.find((r) => r.copies === 2)?.fidelity;
  const median = two && Math.max(two.deviation.overall.median ?? 0, two.coverage.overall.median ?? 0);
  return [
    `The overviews measured against the full model independently of the budget's own bounds (\`src/fidelity/\`, as the fidelity`,
    `section measures: ${measured[0]!.fidelity!.samples.toLocaleString('en-US')} points sampled by area each way, nearest points ` +
      'with three-mesh-bvh; not the largest rung,',
    'whose full read would take ~20 GB). Deviation: points of the delivered surface, distance to the full model; coverage:',
    'points of the full surface, distance to the delivered model (mm):',
    '',
    '| copies | envelope deviation: median | p99 | max | > 10 cm | envelope coverage: median | p99 | max | > 10 cm | ' +
      'all classes, coverage: median | > 10 cm |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...measured.map((r) => {
      const f = r.fidelity!;
      return (
        `| ${r.copies} | ${cells(f.deviation.categories.envelope)} | ${cells(f.coverage.categories.envelope)} | ` +
        `${mm(f.coverage.overall.median)} | ${pct(f.coverage.overall.over10cm)} |`
      );
    }),
    '',
    ...(median === undefined
      ? []
      : [
          `Goal (issue 50): two copies (envelope 1.7× the budget) still measure a median < 5 mm: ` +
            `${median < 0.005 ? '**met**' : '**not met**'} (${mm(median)} mm, the larger of the two ways over all classes).`,
          '',
        ]),
  ];
}

/** A federation in one session: what a device loads together, its time beside web-ifc alone, and its pictures. */
function federationSection(federation: ResultFile<FederationBench> | undefined): string[] {
  if (!federation) return [];
  const f = federation.data;
  const head = [
    '## A federation in one session',
    '',
    `The ${f.delivery.models || 29} discipline models of one housing project (\`${f.folder}\`, bench/LARGE-MODELS.md: masonry per storey,`,
    'floors, steel, frames, roof, railings, prefab) posted in one by_plane session to the embedded server on its defaults',
    '(files per request raised to 64, the cache off), beside web-ifc alone streaming the same files in one process;',
    `${f.rounds} rounds alternating. The session shares one AR budget: what a device loads together is every asset's USDZ.`,
    measuredOn(federation),
    '',
  ];
  if (f.skipped) return [...head, `Not run: ${f.skipped}.`, ''];
  const n = (v: number) => v.toLocaleString('en-US');
  const d = f.delivery;
  const within = d.triangles <= 100_000 && d.drawCalls <= 200;
  return [
    ...head,
    '| models | MB | web-ifc alone (ms) | session (ms) | ÷ web-ifc | peak web-ifc |',
    '|---:|---:|---:|---:|---:|---:|',
    `| ${d.models} | ${f.megabytes.toFixed(1)} | ${ms(f.webIfc)} | ${ms(f.session)} | ${x(f.ratio)} | ${f.webIfcPeakMb.toFixed(0)} MB |`,
    '',
    `Delivered: ${n(d.sourceTriangles)} → **${n(d.triangles)} triangles in ${n(d.drawCalls)} draw calls** ` +
      `(${n(d.meshPrims)} mesh prims), ` +
      `${(d.usdzBytes / 2 ** 20).toFixed(1)} MB of USDZ; ${d.levels} session levels (${d.withoutStoreys} models state no storey); ` +
      `${d.partedModels} models over their share also as ${d.parts} parts. Goal (issue 50): within 100,000 triangles and 200 draw ` +
      `calls — ${within ? '**met**' : '**not met**'}.`,
    '',
    'Each model: its upload, its share of the budget (a box per element first, the rest by bytes) and what it was delivered as:',
    '',
    '| model | kB | share (triangles) | delivered | draw calls |',
    '|---|---:|---:|---:|---:|',
    ...d.rows.map((r) => `| ${r.name} | ${n(Math.round(r.bytes / 1024))} | ${n(r.shareTriangles)} | ${n(r.triangles)} | ${r.drawCalls} |`),
    '',
    ...(f.renders
      ? [
          `Every model as read (left) beside every delivered GLB of the session (right), drawn together in the frame the session ` +
            `gave them, ${n(f.renders.triangles.full)} → ${n(f.renders.triangles.delivered)} triangles:`,
          '',
          ...f.renders.views.flatMap((v) => [
            `![${f.folder}, ${v.title}: as read (left), as the session delivers it (right)](${v.image})`,
            '',
          ]),
        ]
      : []),
  ];
}

/** The issue's goal at 111 and 223 MB (4 and 8 copies): met, not met, or not measured. */
function goalAt111And223(rows: LadderBench['rows']): string {
  const goal = rows.filter((r) => r.copies === 4 || r.copies === 8);
  if (goal.length < 2) return '**not measured**.';
  return goal.every((r) => r.ratio.median <= 1.5 && r.oursPeakMb <= 1.5 * r.webIfcPeakMb) ? '**met**.' : '**not met**.';
}

/** A file's size in MB (10⁶ bytes) from MiB, as the issue and the README speak of them. */
function fileMb(mebibytes: number): string {
  return ((mebibytes * 2 ** 20) / 1e6).toFixed(0);
}

/** `2, 4, 8 and 18`. */
function listed(values: readonly number[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} and ${values.at(-1)}`;
}

/** The largest rung posted to the server on its defaults: converted within its memory bound, or refused by name. */
function ladderOnServerLines(run: LadderBench['onServer']): string[] {
  if (!run) return [];
  const n = (v: number) => v.toLocaleString('en-US');
  const answer =
    run.status === 201
      ? `**converted**: 201 in ${(run.ms / 1000).toFixed(0)} s, ${n(run.triangles ?? 0)} triangles in ${run.drawCalls} draw calls, ` +
        `${run.parts} parts and ${n(run.elementRecords ?? 0)} element records`
      : `**refused** ${run.status} \`${run.code ?? '?'}\` after ${(run.ms / 1000).toFixed(0)} s`;
  return [
    `The largest rung (${fileMb(run.megabytes)} MB) posted once to the embedded server on its defaults (by_plane, conversions in ` +
      `worker processes held to ${n(run.boundMb)} MiB above what Node maps at start, the cache off): ${answer}. Its conversion ` +
      `process was seen to map ${n(Math.round(run.workerPeakMb))} MiB of data at most above Node's own ` +
      `${n(Math.round(run.nodeBaseMb))} MiB (VmData sampled every 250 ms: what the bound counts).`,
    '',
    'Goal (issue 50): a 500 MB model converts within the default worker memory bound, or is refused by name: ' +
      (run.status === 201 ? '**converts**.' : run.code === 'model_too_large' ? '**refused by name**.' : '**neither**.'),
    '',
  ];
}

/** The rendered rung seen: as read beside its overview, from the render bench's views. */
function ladderRenderLines(render: LadderBench['renders']): string[] {
  if (!render) return [];
  const n = (v: number) => v.toLocaleString('en-US');
  return [
    `\`${render.file}\` seen as read (left) and as its overview is delivered (right), ${n(render.triangles.full)} → ` +
      `${n(render.triangles.delivered)} triangles, from the views of the render section (rendered in ` +
      `${(render.ms.total / 1000).toFixed(0)} s, peak ${render.peakRssMb.toFixed(0)} MB):`,
    '',
    ...render.views.flatMap((v) => [`![${render.file}, ${v.title}: as read (left), overview (right)](${v.image})`, '']),
  ];
}

/** The rendered rung's largest whole-storey part beside the same storey of the model as read. */
function ladderPartRenderLines(render: LadderBench['partRenders']): string[] {
  if (!render) return [];
  const n = (v: number) => v.toLocaleString('en-US');
  return [
    `Its largest whole storey as a part (right), as a device loads it where the user stands, beside the same elements of the ` +
      `model as read (left), ${n(render.triangles.full)} → ${n(render.triangles.delivered)} triangles, framed on them:`,
    '',
    ...render.views.flatMap((v) => [`![${render.file}, ${v.title}: as read (left), the part (right)](${v.image})`, '']),
  ];
}

/**
 * The ladder's parts: what writing them costs beside the overview alone, and what they hold —
 * each within the budget with its envelope as read, or how far from it.
 */
function ladderPartsLines(rows: LadderBench['rows'], cm: (m: number) => string, mb: (n: number) => string): string[] {
  if (!rows.every((r) => r.parts)) return [];
  return [
    'With the parts written too (one per storey, cut into cells where a storey is over the budget, each brought within the',
    'budget on its own, as the server delivers a model over it): the time and peak beside web-ifc alone, and what the parts',
    "hold — the largest part, and the farthest any part's envelope (either way: its delivery from the model, the model from",
    "its delivery) and any part's whole delivery lie from the full model:",
    '',
    '| copies | with parts (ms) | ÷ web-ifc | peak | ÷ | parts | largest (triangles) | envelope, either way | deviation, all classes |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => {
      const largest = Math.max(0, ...r.parts.map((p) => p.triangles));
      const all = Math.max(0, ...r.parts.map((p) => p.budget.maxDeviation));
      return (
        `| ${r.copies} | ${ms(r.withParts)} | ${x(r.withPartsRatio)} | ${mb(r.withPartsPeakMb)} | ` +
        `×${(r.withPartsPeakMb / r.webIfcPeakMb).toFixed(2)} | ${r.parts.length} | ${largest.toLocaleString('en-US')} | ` +
        `${cm(partsEnvelopeReach(r.parts))} | ${cm(all)} |`
      );
    }),
    '',
    `Goal (issue 50): every part within the budget, its envelope at full fidelity (≤ 2 cm either way): ${
      rows.every((r) => r.parts.every((p) => p.budget.withinBudget) && partsEnvelopeReach(r.parts) <= 0.02) ? '**met**' : '**not met**'
    }.`,
    '',
  ];
}

/** The farthest any part's envelope and the full model's lie apart, either way (0 for parts that draw none). */
function partsEnvelopeReach(parts: LadderBench['rows'][number]['parts']): number {
  return Math.max(
    0,
    ...parts.map((p) => {
      const envelope = p.budget.categories.find((c) => c.category === 'envelope');
      return envelope ? Math.max(envelope.maxDeviation, envelope.maxUncovered) : 0;
    }),
  );
}
