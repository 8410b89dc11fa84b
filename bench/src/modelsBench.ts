// `arsession bench --models DIR`: the conversion and detection measurements on a researcher's own
// folder of models, each against the same peer as in `pnpm bench`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { detectFormat, mergeByMaterial, readModel, sceneTriangles, writeUsdz, type ModelScene } from '@arsession/convert';
import { buildBvh, type Bounds, type Vec3 } from '@arsession/geometry';
import { loadThree } from './conversionBench.js';
import { compareBvh } from './detectionBench.js';
import { doorQuestions, timeDetections, type DetectionTiming, type DoorQuestion } from './detectionLatency.js';
import { compare, type Sample } from './sample.js';
import { seededRandom } from './seededRandom.js';
import { webIfcStreamAllMeshes } from './webIfcStream.js';

/** Options of {@link benchModels}. */
export interface ModelsBenchOptions {
  /** Timed rounds per comparison, after one warm-up. */
  rounds: number;
  /** Random first-hit rays per model. */
  rays: number;
  /** Viewpoints tried on models without IFC doors. */
  viewpoints: number;
  /** Called as each model starts (progress on a terminal). */
  onModel?(file: string, index: number, count: number): void;
}

/** Defaults of {@link benchModels}: quick enough for a folder of dozens of models. */
export const MODELS_BENCH_DEFAULTS: Readonly<ModelsBenchOptions> = { rounds: 5, rays: 5000, viewpoints: 50 };

/** One model's measurements; `error` instead when the model is refused. */
export interface ModelBenchRow {
  file: string;
  bytes: number;
  format?: string;
  triangles?: number;
  /** Ours: read + merge + USDZ write, in the calling thread (ms). */
  convert?: Sample;
  usdzBytes?: number;
  /** The peer on the same file in the same rounds; `ratio` is ours ÷ peer, round by round. */
  peer?: { name: string; time: Sample; ratio: Sample };
  /** Why there is no peer figure (no peer reads this format, or it failed). */
  peerNote?: string;
  /** BVH build and first-hit rays against three-mesh-bvh. */
  bvh?: {
    buildMs: Sample;
    peerBuildMs: Sample;
    buildRatio: Sample;
    rayUs: number;
    peerRayUs: number;
    rayRatio: Sample;
    disagreements: number;
  };
  /** Door detection timed per question, tree built: IFC door fronts, or random eye-height gazes. */
  detection?: DetectionTiming & { questions: 'ifc doors' | 'random gazes' };
  error?: string;
}

/**
 * Measures every file directly in `dir` (hidden files skipped, format recognised by content):
 * conversion against web-ifc's `StreamAllMeshes` (IFC) or three.js's `USDZExporter` (GLB), our
 * BVH against three-mesh-bvh, and door-detection latency. A file we refuse gets a row with the
 * reason instead of numbers.
 *
 * @example
 * ```ts
 * const rows = await benchModels('./my-models', { rounds: 3 });
 * console.log(rows.map((r) => [r.file, r.peer?.ratio.median]));
 * ```
 */
export async function benchModels(dir: string, options: Partial<ModelsBenchOptions> = {}): Promise<ModelBenchRow[]> {
  const opts = { ...MODELS_BENCH_DEFAULTS, ...options };
  const files = readdirSync(dir)
    .filter((f) => !f.startsWith('.') && statSync(join(dir, f)).isFile())
    .sort();
  const rows: ModelBenchRow[] = [];
  for (const [index, file] of files.entries()) {
    opts.onModel?.(file, index, files.length);
    const bytes = new Uint8Array(readFileSync(join(dir, file)));
    const row: ModelBenchRow = { file, bytes: bytes.length };
    rows.push(row);
    let scene: ModelScene;
    try {
      row.format = detectFormat(bytes);
      scene = await readModel(bytes, { fileName: file });
    } catch (err) {
      row.error = (err as Error).message;
      continue;
    }
    row.triangles = scene.stats.triangles;
    await measureConversion(row, bytes, opts.rounds);
    if (row.triangles > 0) await measureDetection(row, scene, opts);
  }
  return rows;
}

async function measureConversion(row: ModelBenchRow, bytes: Uint8Array, rounds: number): Promise<void> {
  const ours = async () => writeUsdz(mergeByMaterial(await readModel(bytes, { fileName: row.file })));
  row.usdzBytes = (await ours()).reduce((n, part) => n + part.length, 0);
  const peer = await peerFor(row.format!);
  if (typeof peer === 'string') row.peerNote = peer;
  else {
    try {
      const c = await compare(ours, () => peer.run(bytes), rounds);
      row.convert = c.ours;
      row.peer = { name: peer.name, time: c.peer, ratio: c.ratio };
      return;
    } catch (err) {
      row.peerNote = `${peer.name} failed: ${(err as Error).message.split('\n')[0]}`;
    }
  }
  // No peer figure: ours alone, timed the same way.
  row.convert = (await compare(ours, ours, rounds)).ours;
}

async function peerFor(format: string): Promise<{ name: string; run(bytes: Uint8Array): Promise<unknown> } | string> {
  if (format === 'ifc') return { name: 'web-ifc StreamAllMeshes', run: webIfcStreamAllMeshes };
  if (format === 'glb') {
    const three = await loadThree();
    return typeof three === 'string' ? three : { name: 'three.js USDZExporter', run: (bytes) => three(bytes, { maxTextureSize: 2048 }) };
  }
  return `no peer converts ${format} in Node`;
}

async function measureDetection(row: ModelBenchRow, scene: ModelScene, opts: ModelsBenchOptions): Promise<void> {
  const mesh = { ...sceneTriangles(scene), offset: [0, 0, 0] as Vec3 };
  const b = await compareBvh(row.file, mesh, opts.rounds, opts.rays);
  row.bvh = {
    buildMs: b.buildOurs,
    peerBuildMs: b.buildPeer,
    buildRatio: b.buildRatio,
    rayUs: b.rayOursUs.median,
    peerRayUs: b.rayPeerUs.median,
    rayRatio: b.rayRatio,
    disagreements: b.disagreements,
  };
  const bvh = buildBvh(mesh);
  const doors = scene.doorOpenings ? doorQuestions(scene.doorOpenings, mesh, bvh) : [];
  const questions = doors.length > 0 ? doors : randomGazes(scene.bounds, opts.viewpoints);
  row.detection = { ...timeDetections(mesh, bvh, questions), questions: doors.length > 0 ? 'ifc doors' : 'random gazes' };
}

/** Viewers at eye height above the model's lowest point, anywhere in its footprint, gazing level (deterministic). */
function randomGazes({ min, max }: Bounds, count: number): DoorQuestion[] {
  const rand = seededRandom(4242);
  return Array.from({ length: count }, () => {
    const angle = rand() * 2 * Math.PI;
    return {
      viewer: [min[0] + rand() * (max[0] - min[0]), min[1] + 1.6, min[2] + rand() * (max[2] - min[2])] as Vec3,
      gaze: [Math.cos(angle), 0, Math.sin(angle)] as Vec3,
    };
  });
}
