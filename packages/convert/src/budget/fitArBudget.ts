import type { SceneData, SceneWarning } from '../scene/SceneData.js';
import {
  AR_BUDGET_DEFAULTS,
  withinBudget,
  type ArBudget,
  type BudgetFigures,
  type BudgetReport,
  type BudgetStep,
  type CategoryFigures,
} from './ArBudget.js';
import { BudgetLedger } from './BudgetLedger.js';
import type { BudgetTransform } from './BudgetTransform.js';
import { chainCategories } from './chainCategories.js';
import { drawCalls } from '../scene/sceneStats.js';
import { mergeByMaterial, mergedDrawCalls } from '../scene/mergeByMaterial.js';
import { largestSide } from './resizeTextures.js';
import { mergePrims, type MergePrimsOptions } from './steps/mergePrims.js';
import { scaleTextures } from './steps/scaleTextures.js';
import { simplifyTriangles, type SimplifyTrianglesOptions } from './steps/simplifyTriangles.js';

/** A scene brought within an AR budget, and what was done to it. */
export interface FittedScene {
  scene: SceneData;
  report: BudgetReport;
}

/**
 * Brings a scene, as read, within an {@link ArBudget}, cheapest loss first: triangles simplified
 * element by element, from what a person misses least (clutter, then the envelope: see
 * `simplifyToBudget`), textures scaled down, and then mesh prims merged from what was simplified
 * (by storey or spatial cell, then by material, then alike materials made one). A scene within budget as
 * delivered without one (merged by `mergeByMaterial`'s defaults) comes back exactly so, and its
 * files are written byte for byte as without a budget. Each step taken adds a
 * warning that names what it changed. The package's bytes are the caller's to check once
 * written (see `runConversion`).
 *
 * @example
 * ```ts
 * const { scene: delivered, report } = await fitArBudget(await readModel(bytes));
 * report.delivered.triangles; // ≤ 100 000
 * ```
 */
export async function fitArBudget(
  scene: SceneData,
  budget: Partial<ArBudget> = {},
  options: FitArBudgetOptions = {},
): Promise<FittedScene> {
  const limits = { ...AR_BUDGET_DEFAULTS, ...budget };
  const steps = options.steps ?? defaultBudgetSteps();
  // A reader that simplified as it streamed (a huge IFC) read fewer triangles than the model has,
  // and kept its repeated geometry shared: its delivery is the budget's to shape.
  const streamed = scene.streamReduced;
  // Without a budget a scene is delivered merged per storey and material (`mergeByMaterial`'s
  // defaults); a scene that is within budget so is delivered exactly so.
  const today =
    !streamed && withinBudget({ ...budgetFigures(scene), meshPrims: mergedDrawCalls(scene) }, limits) ? mergeByMaterial(scene) : undefined;
  const read = budgetFigures(today ?? scene);
  const source = streamed
    ? { ...read, triangles: streamed.sourceTriangles, meshPrims: streamed.sourceDrawCalls }
    : { ...read, meshPrims: drawCalls(scene) };
  const report = (delivered: SceneData, ledger?: BudgetLedger): BudgetReport => {
    const figures = delivered === today ? read : budgetFigures(delivered);
    const deviation = ledger?.deviation ?? { maxDeviation: 0, maxUncovered: 0 };
    // The stream's deviation and this stage's add up to a bound (Hausdorff's triangle inequality).
    const total = streamed
      ? { maxDeviation: deviation.maxDeviation + streamed.maxDeviation, maxUncovered: deviation.maxUncovered + streamed.maxUncovered }
      : deviation;
    // A stream-reduced scene was simplified as it was read, whatever the steps did after.
    const all: BudgetStep[] = ledger?.steps({ simplifiedAlready: streamed !== undefined }) ?? [];
    const simplified = ledger?.trianglesSimplified ?? false;
    const categories =
      streamed && simplified
        ? chainCategories(streamed.categories, ledger!.categories)
        : streamed
          ? streamed.categories
          : (ledger?.categories ?? []);
    return { budget: limits, source, delivered: figures, steps: all, ...total, withinBudget: withinBudget(figures, limits), categories };
  };
  if (today && bytesWithin(today, limits.packageBytes)) return { scene: today, report: report(today) };

  // The steps run again with tighter triangles or textures until the package's estimate fits too.
  let targets = { triangles: limits.triangles, textureSize: limits.textureSize };
  for (;;) {
    const ledger = new BudgetLedger({ ...targets, meshPrims: limits.meshPrims }, options.fileName);
    let current = scene;
    for (const step of steps) current = await step(current, ledger);
    const next = bytesWithin(current, limits.packageBytes) ? targets : smallerTargets(current, targets);
    if (next !== targets) {
      targets = next;
      continue;
    }
    const fitted = report(current, ledger);
    return {
      scene: { ...current, warnings: [...current.warnings, ...budgetWarnings(ledger, fitted, source, current, limits, streamed)] },
      report: fitted,
    };
  }
}

/** Options of {@link fitArBudget}. */
export interface FitArBudgetOptions {
  /** The upload's name, for messages. */
  fileName?: string;
  /** The steps, in order (default {@link defaultBudgetSteps}): drop one, reorder them, or add a {@link BudgetTransform} of your own. */
  steps?: readonly BudgetTransform[];
}

/** Options of {@link defaultBudgetSteps}: each step's own, where a caller wants other than its defaults. */
export interface DefaultBudgetStepsOptions {
  simplify?: Partial<SimplifyTrianglesOptions>;
  merge?: Partial<MergePrimsOptions>;
}

/**
 * The AR budget's steps as `fitArBudget` runs them by default: triangles simplified element by
 * element, textures scaled down, and only then mesh prims merged (so no collapse joins two
 * elements or drags one across another). The options reach each step's thresholds.
 *
 * @example
 * ```ts
 * const [simplify, , merge] = defaultBudgetSteps(); // a sequence without the texture step
 * await fitArBudget(scene, {}, { steps: defaultBudgetSteps({ simplify: { proxyMaxSize: 2 } }) }); // smaller boxes only
 * ```
 */
export function defaultBudgetSteps(options: DefaultBudgetStepsOptions = {}): BudgetTransform[] {
  return [simplifyTriangles(options.simplify), scaleTextures(), mergePrims(options.merge)];
}

/** The warnings that say what the budget did, merging first, as the report lists the steps. */
function budgetWarnings(
  ledger: BudgetLedger,
  fittedReport: BudgetReport,
  source: BudgetFigures,
  delivered: SceneData,
  limits: ArBudget,
  streamed: SceneData['streamReduced'],
): SceneWarning[] {
  const warnings: SceneWarning[] = [];
  if (fittedReport.steps.includes('merged')) {
    warnings.push({
      code: 'budget_merged',
      message: `${source.meshPrims} mesh prims merged into ${drawCalls(delivered)} by ${ledger.grouping} (AR budget ${limits.meshPrims})`,
    });
  }
  if (ledger.trianglesSimplified || streamed) {
    warnings.push({
      code: 'budget_simplified',
      message:
        `simplified from ${source.triangles} to ${delivered.stats.triangles} triangles (AR budget ` +
        `${ledger.targets.triangles}${streamed ? `; ${streamed.reducedGeometries} geometries already as they streamed in` : ''}); ` +
        `largest ` +
        `deviation ${formatMetres(fittedReport.maxDeviation)}; parts smaller than the error left out, the farthest ` +
        `${formatMetres(fittedReport.maxUncovered)} from the nearest surface kept; ${describeCategories(fittedReport.categories)}`,
    });
    warnings.push(...categoryWarnings(fittedReport.categories));
  }
  if (ledger.texturesScaled) {
    warnings.push({
      code: 'budget_textures_resized',
      message:
        `${ledger.texturesScaled} of ${delivered.textures.length} textures scaled down to ` +
        `at most ${ledger.targets.textureSize} px (largest was ${source.largestTexture} px)`,
    });
  }
  return warnings;
}

/** Per category, what it kept and how far it moved: `envelope 83,012 → 83,012 triangles (as read), furniture …`. */
function describeCategories(categories: readonly CategoryFigures[]): string {
  const parts = categories.map((c) => {
    const moved =
      c.sourceTriangles === c.deliveredTriangles && c.maxDeviation === 0 && c.maxUncovered === 0
        ? 'as read'
        : `within ${formatMetres(c.maxDeviation)}`;
    return `${c.category} ${c.sourceTriangles} → ${c.deliveredTriangles} triangles (${moved})`;
  });
  return parts.length ? `by category: ${parts.join(', ')}` : '';
}

/** A warning for elements drawn as boxes, and one naming by class the elements left out. */
function categoryWarnings(categories: readonly CategoryFigures[]): SceneWarning[] {
  const warnings: SceneWarning[] = [];
  const proxied = categories.filter((c) => c.proxiedElements > 0);
  if (proxied.length) {
    const count = proxied.reduce((n, c) => n + c.proxiedElements, 0);
    warnings.push({
      code: 'budget_proxied',
      message:
        `${count} element${count > 1 ? 's' : ''} drawn as the box around ${count > 1 ? 'them' : 'it'} (or as its top face, where ` +
        `boxes were still too many) to fit the AR budget (${proxied.map((c) => `${c.category} ${c.proxiedElements}`).join(', ')})`,
    });
  }
  const leftOut = categories.flatMap((c) => c.leftOut);
  if (leftOut.length) {
    const count = leftOut.reduce((n, c) => n + c.elements, 0);
    warnings.push({
      code: 'budget_left_out',
      message:
        `${count} element${count > 1 ? 's' : ''} left out to fit the AR budget: ` +
        `${leftOut.map((c) => `${c.ifcClass} ×${c.elements}`).join(', ')}`,
    });
  }
  return warnings;
}

type DetailTargets = { triangles: number; textureSize: number };

/**
 * Targets for a package that came out too big: half the texture size when textures take most of
 * it, else half the triangles; the same targets (the caller stops) once both are at their floor.
 */
function smallerTargets(scene: SceneData, targets: DetailTargets): DetailTargets {
  const textureBytes = scene.textures.reduce((n, t) => n + t.data.length, 0);
  const texturesFirst = textureBytes > estimatePackageBytes(scene) / 2 || targets.triangles <= MIN_TRIANGLES;
  if (texturesFirst && targets.textureSize > MIN_TEXTURE_SIZE)
    return { ...targets, textureSize: Math.max(MIN_TEXTURE_SIZE, Math.floor(targets.textureSize / 2)) };
  if (targets.triangles > MIN_TRIANGLES)
    return { ...targets, triangles: Math.max(MIN_TRIANGLES, Math.floor(Math.min(targets.triangles, scene.stats.triangles) / 2)) };
  return targets;
}

function bytesWithin(scene: SceneData, packageBytes: number): boolean {
  return estimatePackageBytes(scene) <= packageBytes;
}

/** Below these a package is not made smaller: a model that still does not fit is reported over budget. */
const MIN_TEXTURE_SIZE = 64;
const MIN_TRIANGLES = 1000;

/**
 * Bytes a USDZ of the scene takes, from above: every mesh's arrays once (instances share them;
 * integer arrays are compressed when written, so this overstates) and every texture.
 */
export function estimatePackageBytes(scene: SceneData): number {
  let bytes = 0;
  for (const m of scene.meshes)
    bytes += m.positions.byteLength + (m.normals?.byteLength ?? 0) + (m.uvs?.byteLength ?? 0) + (m.indices.byteLength * 4) / 3;
  for (const t of scene.textures) bytes += t.data.length;
  return bytes;
}

/**
 * The figures of a scene an AR budget limits: drawn triangles, mesh prims, the largest texture.
 *
 * @example
 * ```ts
 * budgetFigures(scene); // → { triangles: 21722, meshPrims: 245, largestTexture: 0 }
 * ```
 */
export function budgetFigures(scene: SceneData): BudgetFigures {
  return {
    triangles: scene.stats.triangles,
    meshPrims: drawCalls(scene),
    largestTexture: scene.textures.reduce((n, t) => Math.max(n, largestSide(t)), 0),
  };
}

function formatMetres(m: number): string {
  return m < 0.01 ? `${(m * 1000).toFixed(1)} mm` : m < 1 ? `${(m * 100).toFixed(1)} cm` : `${m.toFixed(2)} m`;
}
