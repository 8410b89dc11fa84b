import type { SceneData, SceneWarning } from '../scene/SceneData.js';
import { AR_BUDGET_DEFAULTS, withinBudget, type ArBudget, type BudgetFigures, type BudgetReport, type BudgetStep, type CategoryFigures } from './ArBudget.js';
import { chainCategories } from './chainCategories.js';
import { mergeToPrimBudget } from './mergeToPrimBudget.js';
import { drawCalls } from '../scene/sceneStats.js';
import { mergeByMaterial, mergedDrawCalls, MERGE_BY_MATERIAL_DEFAULTS } from '../scene/mergeByMaterial.js';
import { largestSide, resizeTextures } from './resizeTextures.js';
import { simplifyToBudget } from './simplifyToBudget.js';

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
export async function fitArBudget(scene: SceneData, budget: Partial<ArBudget> = {}, options: { fileName?: string } = {}): Promise<FittedScene> {
  const limits = { ...AR_BUDGET_DEFAULTS, ...budget };
  // A reader that simplified as it streamed (a huge IFC) read fewer triangles than the model has,
  // and kept its repeated geometry shared: its delivery is the budget's to shape.
  const streamed = scene.streamReduced;
  // Without a budget a scene is delivered merged per storey and material (`mergeByMaterial`'s
  // defaults); a scene that is within budget so is delivered exactly so.
  const today = !streamed && withinBudget({ ...budgetFigures(scene), meshPrims: mergedDrawCalls(scene) }, limits) ? mergeByMaterial(scene) : undefined;
  const read = budgetFigures(today ?? scene);
  const source = streamed ? { ...read, triangles: streamed.sourceTriangles, meshPrims: streamed.sourceDrawCalls } : { ...read, meshPrims: drawCalls(scene) };
  const report = (delivered: SceneData, steps: BudgetStep[], fitted?: DetailFitted): BudgetReport => {
    const figures = delivered === today ? read : budgetFigures(delivered);
    const deviation = fitted?.deviation ?? { maxDeviation: 0, maxUncovered: 0 };
    // The stream's deviation and this stage's add up to a bound (Hausdorff's triangle inequality).
    const total = streamed ? { maxDeviation: deviation.maxDeviation + streamed.maxDeviation, maxUncovered: deviation.maxUncovered + streamed.maxUncovered } : deviation;
    const all: BudgetStep[] = streamed && !steps.includes('simplified') ? [...steps, 'simplified'] : steps;
    const categories = streamed && fitted?.triangles ? chainCategories(streamed.categories, fitted.categories) : streamed ? streamed.categories : fitted?.categories ?? [];
    return { budget: limits, source, delivered: figures, steps: all, ...total, withinBudget: withinBudget(figures, limits), categories };
  };
  if (today && bytesWithin(today, limits.packageBytes)) return { scene: today, report: report(today, []) };

  // Triangles and texture sizes are tightened together until the package's estimate fits too.
  // Each element is simplified before anything is merged, so no collapse ever joins two elements
  // or drags one across another; the prims are merged from what was simplified.
  let targets = { triangles: limits.triangles, textureSize: limits.textureSize };
  for (;;) {
    const fitted = await fitDetail(scene, targets, options);
    // Never more draw calls than the same model gets without a budget (merged past 300).
    const merged = mergeToPrimBudget(fitted.scene, Math.min(limits.meshPrims, MERGE_BY_MATERIAL_DEFAULTS.minDrawCalls));
    const next = bytesWithin(merged.scene, limits.packageBytes) ? targets : smallerTargets(merged.scene, targets);
    if (next !== targets) {
      targets = next;
      continue;
    }
    const steps = [...merged.steps];
    const warnings: SceneWarning[] = [];
    if (merged.steps.length) {
      warnings.push({ code: 'budget_merged', message: `${source.meshPrims} mesh prims merged into ${drawCalls(merged.scene)} by ${merged.grouping} (AR budget ${limits.meshPrims})` });
    }
    const current = { ...merged.scene, warnings: [...fitted.scene.warnings] };
    if (fitted.triangles || streamed) steps.push('simplified');
    if (fitted.textures) steps.push('textures_resized');
    const fittedReport = report(current, steps, fitted);
    if (fitted.triangles || streamed) {
      warnings.push({ code: 'budget_simplified', message: `simplified from ${source.triangles} to ${merged.scene.stats.triangles} triangles (AR budget ${targets.triangles}${streamed ? `; ${streamed.reducedGeometries} geometries already as they streamed in` : ''}); largest deviation ${formatMetres(fittedReport.maxDeviation)}; parts smaller than the error left out, the farthest ${formatMetres(fittedReport.maxUncovered)} from the nearest surface kept; ${describeCategories(fittedReport.categories)}` });
      warnings.push(...categoryWarnings(fittedReport.categories));
    }
    if (fitted.textures) {
      warnings.push({ code: 'budget_textures_resized', message: `${fitted.textures} of ${fitted.scene.textures.length} textures scaled down to at most ${targets.textureSize} px (largest was ${source.largestTexture} px)` });
    }
    current.warnings.push(...warnings);
    return { scene: current, report: fittedReport };
  }
}

/** Per category, what it kept and how far it moved: `envelope 83,012 → 83,012 triangles (as read), furniture …`. */
function describeCategories(categories: readonly CategoryFigures[]): string {
  const parts = categories.map((c) => {
    const moved = c.sourceTriangles === c.deliveredTriangles && c.maxDeviation === 0 && c.maxUncovered === 0 ? 'as read' : `within ${formatMetres(c.maxDeviation)}`;
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
    warnings.push({ code: 'budget_proxied', message: `${count} element${count > 1 ? 's' : ''} drawn as the box around ${count > 1 ? 'them' : 'it'} (or as its top face, where boxes were still too many) to fit the AR budget (${proxied.map((c) => `${c.category} ${c.proxiedElements}`).join(', ')})` });
  }
  const leftOut = categories.flatMap((c) => c.leftOut);
  if (leftOut.length) {
    const count = leftOut.reduce((n, c) => n + c.elements, 0);
    warnings.push({ code: 'budget_left_out', message: `${count} element${count > 1 ? 's' : ''} left out to fit the AR budget: ${leftOut.map((c) => `${c.ifcClass} ×${c.elements}`).join(', ')}` });
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
  if (texturesFirst && targets.textureSize > MIN_TEXTURE_SIZE) return { ...targets, textureSize: Math.max(MIN_TEXTURE_SIZE, Math.floor(targets.textureSize / 2)) };
  if (targets.triangles > MIN_TRIANGLES) return { ...targets, triangles: Math.max(MIN_TRIANGLES, Math.floor(Math.min(targets.triangles, scene.stats.triangles) / 2)) };
  return targets;
}

function bytesWithin(scene: SceneData, packageBytes: number): boolean {
  return estimatePackageBytes(scene) <= packageBytes;
}

/** Below these a package is not made smaller: a model that still does not fit is reported over budget. */
const MIN_TEXTURE_SIZE = 64;
const MIN_TRIANGLES = 1000;

/** What {@link fitDetail} did: the scene, how far it moved, and what changed. */
interface DetailFitted {
  scene: SceneData;
  deviation: { maxDeviation: number; maxUncovered: number };
  categories: CategoryFigures[];
  /** Whether any triangle was simplified. */
  triangles: boolean;
  /** Textures scaled down. */
  textures: number;
}

/** Triangles simplified and textures scaled down to the targets; counts of what changed. */
async function fitDetail(scene: SceneData, targets: DetailTargets, options: { fileName?: string }): Promise<DetailFitted> {
  let current = scene, deviation = { maxDeviation: 0, maxUncovered: 0 }, triangles = false, categories: CategoryFigures[] = [];
  if (current.stats.triangles > targets.triangles) {
    const simplified = await simplifyToBudget(current, { triangles: targets.triangles });
    current = simplified.scene;
    deviation = { maxDeviation: simplified.maxDeviation, maxUncovered: simplified.maxUncovered };
    categories = simplified.categories;
    triangles = true;
  }
  const resized = await resizeTextures(current, targets.textureSize, options);
  return { scene: resized.scene, deviation, categories, triangles, textures: resized.resized };
}

/**
 * Bytes a USDZ of the scene takes, from above: every mesh's arrays once (instances share them;
 * integer arrays are compressed when written, so this overstates) and every texture.
 */
export function estimatePackageBytes(scene: SceneData): number {
  let bytes = 0;
  for (const m of scene.meshes) bytes += m.positions.byteLength + (m.normals?.byteLength ?? 0) + (m.uvs?.byteLength ?? 0) + m.indices.byteLength * 4 / 3;
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
