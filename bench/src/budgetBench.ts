import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AR_BUDGET_DEFAULTS, budgetFigures, readGlb, sceneTriangles, type BudgetReport } from '@arsession/convert';
import { measureDeviation } from '@arsession/convert/budget';
import { CORPUS_DIR, corpusFiles } from './corpus.js';
import { jsonOfChild } from './jsonOfChild.js';

/**
 * Where large real models live for this section: public IFC of buildings and infrastructure,
 * 20–200 MB, too big (and not ours) to commit. `ARSESSION_LARGE_MODELS` names the folder; by
 * default `../large-models` beside the repository. `bench/LARGE-MODELS.md` says where each came from.
 */
export const LARGE_MODELS_DIR = resolve(process.env.ARSESSION_LARGE_MODELS ?? join(CORPUS_DIR, '..', '..', 'large-models'));

/** One process's run: its time, its peak memory, what it delivered. */
interface Run {
  ms: number;
  peakMb: number;
}

/** One model: its source figures, ours with and without the budget, and the peer beside them. */
export interface BudgetRow {
  file: string;
  kind: 'ifc' | 'glb';
  large: boolean;
  sourceBytes: number;
  /** Our conversion within the default AR budget, and its report. */
  ours: Run & { report: BudgetReport };
  /** Our conversion as before the budget (merged only past 300 draw calls, written). */
  today: Run & { bytes: number };
  /**
   * web-ifc alone (IFC: `StreamAllMeshes`, the floor of any converter built on it), or gltfpack
   * (GLB: `-si` at the ratio our budget needs, `-mi`, no quantization), its output
   * measured with the same deviation estimate as ours.
   */
  peer: Run & { name: 'web-ifc' | 'gltfpack'; triangles?: number; meshPrims?: number; bytes?: number; maxDeviation?: number };
}

const PEAK = new URL('./peakRss.js', import.meta.url).pathname;

function run<T>(tool: string, ...args: string[]): (Run & T) | undefined {
  const out = jsonOfChild<{ ms: number; peakRssMb: number } & T>(PEAK, [tool, ...args], tool);
  return out && { ...out, peakMb: out.peakRssMb };
}

/**
 * The first run's output, with the median time and the median peak (one process's peak varies by
 * ±20 MB with when V8 happens to collect).
 */
function medianOf<T>(runs: Array<Run & T>): Run & T {
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { ...runs[0]!, ms: median(runs.map((r) => r.ms)), peakMb: median(runs.map((r) => r.peakMb)) };
}

/** Runs a tool `times` times in fresh processes (see {@link medianOf}). */
function runMedian<T>(times: number, tool: string, ...args: string[]): (Run & T) | undefined {
  return runInTurns<T, T>(times, [tool, ...args], 0, [])?.a;
}

/**
 * Two tools run in turns, `a` then `b`, in fresh processes, `times` and `bTimes` times: each
 * median (see {@link medianOf}) taken over runs spread alike over the same minutes, so a machine
 * that slows for a while (a shared one does) weighs on both, not on whichever ran then.
 */
function runInTurns<A, B>(times: number, a: string[], bTimes: number, b: string[]): { a: Run & A; b: (Run & B) | undefined } | undefined {
  const runsA: Array<Run & A> = [],
    runsB: Array<Run & B> = [];
  for (let i = 0; i < Math.max(times, bTimes); i++) {
    if (i < times) {
      const r = run<A>(a[0]!, ...a.slice(1));
      if (!r) return undefined;
      runsA.push(r);
    }
    if (i < bTimes) {
      const r = run<B>(b[0]!, ...b.slice(1));
      if (!r) return undefined;
      runsB.push(r);
    }
  }
  return { a: medianOf(runsA), b: runsB.length ? medianOf(runsB) : undefined };
}

/**
 * Runs of each measurement: eleven (a median of five swung the budget's ratio on ISSUE_021 from
 * ×1.36 to ×1.69 between two runs of the same code on this shared machine), but three of a large
 * model's conversion with the budget and one without (tens of seconds, gigabytes).
 */
const REPEATS = 11;
const LARGE_REPEATS = 3;

/** Large models present in {@link LARGE_MODELS_DIR} (none when the folder is absent). */
export function largeModels(): string[] {
  if (!existsSync(LARGE_MODELS_DIR)) return [];
  return readdirSync(LARGE_MODELS_DIR)
    .filter((f) => /\.(ifc|glb)$/i.test(f))
    .sort()
    .map((f) => join(LARGE_MODELS_DIR, f));
}

/**
 * Every corpus IFC and GLB and every large model, each in fresh processes (medians of
 * `repeats`, by default {@link REPEATS}; the two of ours in turns): ours within the default AR budget, ours as before it,
 * and the peer. Figures: source → delivered triangles, prims,
 * bytes, the deviation, time and peak memory.
 */
export async function benchBudget(only?: (file: string) => boolean, repeats = REPEATS): Promise<BudgetRow[]> {
  const files = [
    ...corpusFiles('ifc')
      .filter((f) => f.endsWith('.ifc'))
      .map((f) => ({ path: join(CORPUS_DIR, 'ifc', f), large: false })),
    ...corpusFiles('glb')
      .filter((f) => !f.startsWith('Synthetic_5001'))
      .map((f) => ({ path: join(CORPUS_DIR, 'glb', f), large: false })),
    ...largeModels().map((path) => ({ path, large: true })),
  ].filter((f) => !only || only(f.path.split('/').pop()!));
  const rows: BudgetRow[] = [];
  for (const { path, large } of files) {
    const file = path.split('/').pop()!;
    const kind = /\.ifc$/i.test(file) ? 'ifc' : 'glb';
    console.error(`  ${file}`);
    // Ours and ours as before the budget in turns: the ratio of the two is what the goal is about.
    const both = runInTurns<{ report: BudgetReport }, { bytes: number }>(
      large ? LARGE_REPEATS : repeats,
      ['ours-budget', path],
      large ? 1 : repeats,
      [kind === 'ifc' ? 'ours-ifc' : 'ours-glb', path],
    );
    const ours = both?.a,
      today = both?.b;
    const peer = kind === 'ifc' ? webIfc(path, repeats) : await gltfpack(path, ours?.report, repeats);
    if (!ours || !today) continue;
    // A peer that cannot read the model (gltfpack and Draco input) leaves its cells empty (null in the JSON).
    rows.push({
      file,
      kind,
      large,
      sourceBytes: statSync(path).size,
      ours,
      today,
      peer: peer ?? { name: kind === 'ifc' ? 'web-ifc' : 'gltfpack', ms: Number.NaN, peakMb: Number.NaN },
    });
  }
  return rows;
}

function webIfc(path: string, repeats: number): BudgetRow['peer'] | undefined {
  const r = runMedian<object>(repeats, 'web-ifc', path);
  return r && { ...r, name: 'web-ifc' };
}

/** gltfpack at the triangle ratio our budget needed, its output read back and measured as ours is. */
async function gltfpack(path: string, report: BudgetReport | undefined, repeats: number): Promise<BudgetRow['peer'] | undefined> {
  if (!report) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'arsession-gltfpack-'));
  try {
    const out = join(dir, 'out.glb');
    const ratio = Math.min(1, AR_BUDGET_DEFAULTS.triangles / Math.max(1, report.source.triangles));
    const r = runMedian<object>(repeats, 'gltfpack', path, out, String(ratio));
    if (!r) return undefined;
    return { ...r, name: 'gltfpack', ...(await figuresOf(readFileSync(path), readFileSync(out))) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Triangles, prims and bytes of a delivered GLB, and its deviation from the source, as ours are measured. */
async function figuresOf(source: Uint8Array, delivered: Uint8Array) {
  const [full, packed] = await Promise.all([readGlb(source), readGlb(delivered)]);
  const f = budgetFigures(packed);
  const d = measureDeviation(sceneTriangles(full), sceneTriangles(packed));
  return { triangles: f.triangles, meshPrims: f.meshPrims, bytes: delivered.length, maxDeviation: d.simplifiedToFull };
}
