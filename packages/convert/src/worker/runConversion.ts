import { deliveredStoreys } from '../usdz/layer/deliveredStoreys.js';
import { readSharedFile } from '../io/readSharedFile.js';
import { writeHashedFile } from '../io/writeHashedFile.js';
import { readModel, type ModelScene, type ReadModelOptions } from '../model/readModel.js';
import { findDoorApproaches } from '../model/findDoorApproaches.js';
import { ModelTooLargeError } from '../errors/ConvertError.js';
import { writeUsdz } from '../usdz/writeUsdz.js';
import { writeUsdzBytesFile, writeUsdzFile } from '../usdz/writeUsdzFile.js';
import { mergeByMaterial } from '../scene/mergeByMaterial.js';
import { drawCalls } from '../scene/sceneStats.js';
import { trianglesWithoutElement } from '../scene/trianglesWithoutElement.js';
import { AR_BUDGET_DEFAULTS, withinBudget } from '../budget/ArBudget.js';
import { budgetFigures, fitArBudget } from '../budget/fitArBudget.js';
import { StreamReduction } from '../budget/StreamReduction.js';
import { fullReadTriangles, partsLevel } from '../budget/partsLevel.js';
import type { ConversionRequest, ConversionResult } from './protocol.js';
import type { SceneData } from '../scene/SceneData.js';
import type { WarningCode } from '../scene/warningCodes.js';
import type { ArBudget, BudgetReport } from '../budget/ArBudget.js';
import type { FittedScene } from '../budget/fitArBudget.js';
import type { DeliveredParts } from '../parts/deliverParts.js';

/**
 * One conversion job in the calling thread: the model read (and, for by_scan mode 1, its door
 * found), merged for the phone, and written. What a pool worker runs for each job, and what a
 * process that is its own container (the CLI's single conversion) runs without a pool. Refusals
 * throw the typed errors of `crossingErrors`.
 *
 * @example
 * ```ts
 * const { usdzFileBytes, stats } = await runConversion({ bytes, fileName: 'house.ifc', usdzPath: 'house.usdz' });
 * ```
 */
export async function runConversion(asked: ConversionRequest): Promise<ConversionResult> {
  const started = performance.now();
  const request = asked.bytes.length === 0 && asked.inputPath !== undefined ? { ...asked, bytes: readSharedFile(asked.inputPath) } : asked;
  const budget = request.budget === false ? undefined : { ...AR_BUDGET_DEFAULTS, ...request.budget };
  // With a budget, an IFC over it has its shared geometry simplified before it is placed: each
  // repeated geometry is simplified once, not at every placement, and memory follows the unique
  // geometry and the budget, not the drawn model.
  const maxGeometryBytes = request.maxGeometryBytes ?? Number.POSITIVE_INFINITY;
  const reduction =
    budget &&
    new StreamReduction({
      triangles: budget.triangles,
      startTriangles: budget.triangles,
      maxBytes: maxGeometryBytes,
    });
  // Parts are read richer, from the same stream (see `partsLevel`): each is brought within the budget on its own.
  const partsReduction =
    budget && request.partsPath !== undefined && new StreamReduction({ ...partsLevel(budget.triangles), maxBytes: maxGeometryBytes });
  const readOptions = {
    ...(request.fileName !== undefined && { fileName: request.fileName }),
    ...(request.field !== undefined && { field: request.field }),
    ...(request.meshNodeLimit !== undefined && { meshNodeLimit: request.meshNodeLimit }),
    ...(request.maxUnpackedBytes !== undefined && { maxUnpackedBytes: request.maxUnpackedBytes }),
    maxGeometryBytes,
    ...(request.elementsPath !== undefined && { elementRecords: true }),
  };
  const scene = await readModel(request.bytes, {
    ...readOptions,
    ...(reduction && { reduction }),
    ...(partsReduction && { partsReduction }),
  });
  // Before anything is written: a by_scan without a door must cost no conversion.
  const detecting = performance.now();
  const full =
    request.detectDoor || request.approachDoors ? await fullScene(scene, request.bytes, readOptions, budget?.triangles ?? 0) : scene;
  // Where mode 1 detects each door from, found on the scene a request's detection would search.
  const doorOpenings = request.approachDoors && full.doorOpenings ? findDoorApproaches(full) : full.doorOpenings;
  const door = request.detectDoor && (await import('../model/detectDoorInScene.js')).detectDoorInScene(full, request.detectDoor);
  const detected = performance.now();
  const outputs = request.outputs ?? ['usdz'];
  const read = performance.now();
  // What the phone draws: thousands of elements merged per storey and material, then brought
  // within the AR budget. An ARKit-ready USDZ upload within budget is delivered as it came (its
  // scene is what it draws); one over budget is converted like any other model.
  const arkit =
    scene.arkitPackage && (!budget || arkitWithinBudget(scene, scene.arkitPackage.bytes.length, budget)) ? scene.arkitPackage : undefined;
  const fitted =
    arkit || !budget ? undefined : await fitArBudget(scene, budget, request.fileName === undefined ? {} : { fileName: request.fileName });
  const delivered = arkit ? scene : fitted ? fitted.scene : mergeByMaterial(scene);
  // Geometry that a budgeted delivery keeps shared is written once and instanced; a model the
  // budget leaves alone is written as it always was.
  const usdzOptions = { instanceable: fitted !== undefined && fitted.report.steps.length > 0 };
  const toFile = outputs.includes('usdz') && request.usdzPath !== undefined;
  const usdzFile = !toFile
    ? undefined
    : arkit
      ? writeUsdzBytesFile(arkit.bytes, request.usdzPath!)
      : writeUsdzFile(delivered, request.usdzPath!, usdzOptions);
  const usdz =
    !outputs.includes('usdz') || toFile
      ? undefined
      : arkit
        ? arkit.bytes.slice()
        : new Uint8Array(Buffer.concat(writeUsdz(delivered, usdzOptions)));
  const glbBytes = outputs.includes('glb') ? await (await import('../glb/writeGlb.js')).writeGlb(delivered) : undefined;
  const glbFile = glbBytes && request.glbPath !== undefined ? writeHashedFile(request.glbPath, (write) => write(glbBytes)) : undefined;
  const glb = glbFile ? undefined : glbBytes;
  const parts = budget && !arkit && request.partsPath !== undefined ? await writeParts(scene, budget, request.partsPath) : undefined;
  const elements =
    scene.elementRecords && request.elementsPath !== undefined
      ? await (await import('../elements/writeElementRecords.js')).writeElementRecords(
          scene.elementRecords,
          recordsSchema(scene.source),
          request.elementsPath,
        )
      : undefined;
  const written = performance.now();
  // Known now, while the package is at hand: whether a session can later anchor it for AR Quick Look.
  // Read only for a package delivered as it came: the anchoring rules load the USD reader.
  const refusal = arkit && (await import('../usdz/anchor/anchorUsdz.js')).usdzAnchorRefusal(arkit.bytes);
  return {
    format: scene.source.format,
    source: scene.source,
    stats: {
      ...delivered.stats,
      drawCalls: drawCalls(delivered),
      elements: scene.streamReduced?.sourceElements ?? scene.stats.meshNodes,
      trianglesWithoutElement: trianglesWithoutElement(delivered),
    },
    bounds: delivered.bounds,
    offset: delivered.offset,
    warnings: arkit ? delivered.warnings.filter((w) => !CONVERTED_ONLY.has(w.code)) : delivered.warnings,
    delivery: !arkit ? 'converted' : arkit.repacked ? 'repacked' : 'as_uploaded',
    ...(refusal && { anchorRefusal: { rule: refusal.rule, message: refusal.message } }),
    timings: {
      readMs: round(read - started),
      writeMs: round(written - read),
      startedAt: Math.round(performance.timeOrigin + started),
      ...(request.detectDoor && { detectMs: round(detected - detecting) }),
    },
    ...(budget && { budget: budgetReport(scene, delivered, fitted, budget, request.bytes.length, usdzFile?.bytes ?? usdz?.length) }),
    ...(doorOpenings && { doorOpenings }),
    ...(door && { door }),
    ...(usdz && { usdz }),
    ...(usdzFile && { usdzFileBytes: usdzFile.bytes, usdzFileSha256: usdzFile.sha256 }),
    ...(glb && { glb }),
    ...(glbFile && { glbFileBytes: glbFile.bytes, glbFileSha256: glbFile.sha256 }),
    ...(parts && { parts }),
    ...(elements && { elements }),
    storeys: arkit ? [] : deliveredStoreys(delivered, usdzOptions),
  };
}

/**
 * The parts of a model over the budget, written to `path`: by storey, and by cells where one is
 * over it. A model within the budget (or one that makes a single part) has none: its file is whole.
 */
async function writeParts(scene: ModelScene, budget: ArBudget, path: string): Promise<DeliveredParts | undefined> {
  if (!scene.streamReduced && scene.stats.triangles <= budget.triangles) return undefined;
  // A model reduced for the budget as it was read has its parts' richer level beside it.
  const source = scene.partsSource ?? scene;
  const { splitIntoParts } = await import('../parts/splitIntoParts.js');
  const split = splitIntoParts(source, scene.levels, { triangles: budget.triangles });
  if (split.length < 2) return undefined;
  const { deliverParts } = await import('../parts/deliverParts.js');
  return deliverParts(source, split, path, { budget, ...(source.streamReduced && { streamReduced: source.streamReduced }) });
}

/**
 * The model as read in full, for door detection: a model reduced as it was read (over the
 * budget) is read again without the reduction, so a door is found on the full geometry (walls
 * and openings measured in full) whatever the budget; one too large for that, or for the memory
 * bound, is searched as reduced.
 */
async function fullScene(
  scene: ModelScene,
  bytes: Uint8Array,
  options: Partial<ReadModelOptions>,
  budgetTriangles: number,
): Promise<ModelScene> {
  if (!scene.streamReduced || scene.streamReduced.sourceTriangles > fullReadTriangles(budgetTriangles)) return scene;
  try {
    return await readModel(bytes, options);
  } catch (err) {
    if (err instanceof ModelTooLargeError) return scene;
    throw err;
  }
}

/** Whether an ARKit-ready upload can be delivered as it came: its scene and its bytes within budget. */
function arkitWithinBudget(scene: SceneData, bytes: number, budget: ArBudget): boolean {
  return withinBudget(budgetFigures(scene), budget) && bytes <= budget.packageBytes;
}

/** The budget's report with the bytes in and out; the package's own size decides whether it fits. */
function budgetReport(
  scene: SceneData,
  delivered: SceneData,
  fitted: FittedScene | undefined,
  budget: ArBudget,
  sourceBytes: number,
  usdzBytes: number | undefined,
): BudgetReport {
  const base = fitted?.report ?? {
    budget,
    source: budgetFigures(scene),
    delivered: budgetFigures(delivered),
    steps: [],
    maxDeviation: 0,
    maxUncovered: 0,
    withinBudget: true,
    categories: [],
  };
  const bytesWithin = usdzBytes === undefined || usdzBytes <= budget.packageBytes;
  return {
    ...base,
    source: { ...base.source, bytes: sourceBytes },
    delivered: { ...base.delivered, ...(usdzBytes !== undefined && { bytes: usdzBytes }) },
    withinBudget: base.withinBudget && bytesWithin,
  };
}

/**
 * Warnings about what converting a USDZ changed in it: an upload delivered as it came (or only
 * repacked) had none of it done — its prims, meshes, materials and textures are the uploader's.
 */
const CONVERTED_ONLY: ReadonlySet<WarningCode> = new Set<WarningCode>([
  'prims_dropped',
  'mesh_skipped',
  'instances_expanded',
  'mirrored_node_baked',
  'material_without_surface',
  'specular_workflow',
  'several_uv_sets',
  'texture_dropped',
  'texture_transcoded_tga',
  'texture_unreadable',
]);

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** What the element records say they are read from: the IFC schema, `glTF 2.0` or `USD`. */
function recordsSchema(source: SceneData['source']): string {
  if (source.format === 'glb') return 'glTF 2.0';
  if (source.format === 'usdz') return 'USD';
  return source.schema ?? '';
}
