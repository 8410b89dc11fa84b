import { readFileSync } from 'node:fs';
import { detectFormat, fitArBudget, readGlb, readIfc, type BudgetStep } from '@arsession/convert';
import { StreamReduction } from '@arsession/convert/budget';
import { sampleSurface } from './sampleSurface.js';
import { surfaceBvh, surfaceDistances } from './surfaceDistances.js';
import { summarizeDistances, type DirectionSummary } from './summarizeDistances.js';
import { worldTriangles } from './worldTriangles.js';

/** Options of {@link measureFidelity}. */
export interface FidelityOptions {
  /** Points sampled on each surface (each direction). */
  samples: number;
  /** Seed of the sampling: the same seed, the same points. */
  seed: number;
}

/** Defaults of {@link measureFidelity}. */
export const FIDELITY_DEFAULTS: Readonly<FidelityOptions> = { samples: 200_000, seed: 1 };

/**
 * Sampled distances are float32 points against float32 triangles, and the budget's own figures are
 * measured in float32 too: a sampled maximum this far (m) past a reported one still counts as within
 * it — or, on a model reaching farther from its origin, as far as float32 rounding moves a point
 * there (see {@link boundTolerance}).
 */
export const BOUND_TOLERANCE = 1e-4;

/**
 * How far past a reported figure a sampled maximum may lie and still be within it: {@link BOUND_TOLERANCE},
 * or, where coordinates reach farther, what rounding to float32 can move a point of either surface (half a
 * unit in the last place on each of three coordinates, on both surfaces): 0.3 mm at 2.5 km, where a
 * rail line delivered exactly as read is sampled 0.1 mm off its full self.
 */
export function boundTolerance(...positions: Float32Array[]): number {
  let reach = 0;
  for (const p of positions) for (let i = 0; i < p.length; i++) reach = Math.max(reach, Math.abs(p[i]!));
  return Math.max(BOUND_TOLERANCE, 2 * Math.sqrt(3) * reach * 2 ** -24);
}

/** One direction of {@link FidelityResult}: the sampled distances beside the figure the budget reported. */
export interface FidelityDirection extends DirectionSummary {
  /** The budget report's figure for this direction (m). */
  reported: number;
  /** Whether the sampled maximum is within the reported figure (to {@link boundTolerance}): it claims to bound it. */
  bounded: boolean;
}

/** How faithful a budgeted delivery is to the full model, measured independently of the budget's own probe. */
export interface FidelityResult {
  file: string;
  triangles: { full: number; delivered: number };
  /** The offsets the two reads chose; the delivered triangles are placed in the full model's frame. */
  offsets: { full: [number, number, number]; delivered: [number, number, number] };
  steps: BudgetStep[];
  withinBudget: boolean;
  samples: number;
  /** Delivered → full: points on the delivered surface, distance to the nearest point of the whole full model (report: maxDeviation). */
  deviation: FidelityDirection;
  /**
   * Full → delivered ("coverage"): points on the full surface, distance to the nearest point of the whole delivered model (report:
   * maxUncovered).
   */
  coverage: FidelityDirection;
  /** Wall time of each stage (ms). */
  ms: {
    readFull: number;
    readDelivered: number;
    bvhFull: number;
    bvhDelivered: number;
    deviation: number;
    coverage: number;
    total: number;
  };
}

/**
 * Reads a model twice, in full (`readIfc` without options, or `readGlb`) and as a conversion
 * delivers it within the default AR budget (the stream reduction, then `fitArBudget`), and
 * measures the two surfaces against each other both ways with `options.samples` area-weighted
 * points each (three-mesh-bvh nearest points, not the budget's deviation probe), by IFC class
 * category: envelope, furniture, mep, other. Memory: the full model's read scene is dropped once
 * flattened, before its tree is built.
 *
 * @example
 * ```ts
 * const r = await measureFidelity('AC20-FZK-Haus.ifc');
 * r.deviation.overall.max <= r.deviation.reported; // r.deviation.bounded
 * ```
 */
export async function measureFidelity(path: string, options: Partial<FidelityOptions> = {}): Promise<FidelityResult> {
  const { samples, seed } = { ...FIDELITY_DEFAULTS, ...options };
  const file = path.split('/').pop()!;
  const started = performance.now();
  // A fresh copy for each read: a reader may keep or hand on the buffer it is given.
  const bytes = () => new Uint8Array(readFileSync(path));
  const glb = detectFormat(bytes()) === 'glb';

  // Flattened as read, the read scene not kept: on a large model it takes gigabytes the trees need.
  const full = worldTriangles(glb ? await readGlb(bytes(), { fileName: file }) : await readIfc(bytes(), { fileName: file }));
  const readFull = performance.now();

  const { delivered, report, offset } = await deliver(bytes(), glb, file, full.offset);
  const readDelivered = performance.now();

  const onDelivered = sampleSurface(delivered.positions, delivered.categories, samples, seed);
  const fullTree = surfaceBvh(full.positions);
  const bvhFull = performance.now();
  const deviation = summarizeDistances(surfaceDistances(fullTree, onDelivered.points), onDelivered);
  const deviationDone = performance.now();

  const onFull = sampleSurface(full.positions, full.categories, samples, seed + 1);
  const deliveredTree = surfaceBvh(delivered.positions);
  const bvhDelivered = performance.now();
  const coverage = summarizeDistances(surfaceDistances(deliveredTree, onFull.points), onFull);
  const done = performance.now();

  const tolerance = boundTolerance(full.positions, delivered.positions);
  const direction = (summary: DirectionSummary, reported: number): FidelityDirection => ({
    ...summary,
    reported,
    bounded: (summary.overall.max ?? 0) <= reported + tolerance,
  });
  return {
    file,
    triangles: { full: full.categories.length, delivered: delivered.categories.length },
    offsets: { full: full.offset, delivered: offset },
    steps: report.steps,
    withinBudget: report.withinBudget,
    samples,
    deviation: direction(deviation, report.maxDeviation),
    coverage: direction(coverage, report.maxUncovered),
    ms: {
      readFull: readFull - started,
      readDelivered: readDelivered - readFull,
      bvhFull: bvhFull - readDelivered,
      deviation: deviationDone - bvhFull,
      bvhDelivered: bvhDelivered - deviationDone,
      coverage: done - bvhDelivered,
      total: done - started,
    },
  };
}

/**
 * The model as a conversion delivers it within the default AR budget (what `runConversion` does:
 * the IFC stream reduction, then `fitArBudget`), flattened into `frame`; only its triangles are kept.
 */
async function deliver(bytes: Uint8Array, glb: boolean, fileName: string, frame: readonly [number, number, number]) {
  const read = glb
    ? await readGlb(bytes, { fileName })
    : await readIfc(bytes, { fileName, reduction: new StreamReduction({ triangles: 100_000, startTriangles: 100_000 }) });
  const { scene, report } = await fitArBudget(read, {}, { fileName });
  const offset: [number, number, number] = [scene.offset[0], scene.offset[1], scene.offset[2]];
  return { delivered: worldTriangles(scene, frame), report, offset };
}
