import type { Vec3 } from '@arsession/geometry';
import type { FlatMesh, IfcAPI } from 'web-ifc';
import type { StreamReduction } from '../budget/StreamReduction.js';
import type { ElementRecord } from '../elements/ElementRecord.js';
import {
  ELEMENT_RECORD_RELATIONS,
  readElementRecords,
  recordTypeObjects,
  type ElementRecordRelation,
} from '../elements/readElementRecords.js';
import { ModelTooLargeError, ModelUnreadableError } from '../errors/ConvertError.js';
import { detectFormat } from '../format/detectFormat.js';
import { ArrayBlocks } from '../scene/ArrayBlocks.js';
import { chooseOffset } from '../scene/chooseOffset.js';
import { emptyBounds } from '../scene/growBounds.js';
import type { SceneData, SceneNode, SceneWarning, StreamReducedFigures } from '../scene/SceneData.js';
import type { SceneLevel } from '../scene/SceneLevel.js';
import { sceneStats } from '../scene/sceneStats.js';
import { assembleIfcScene, IfcStoreys } from './assembleIfcScene.js';
import { collect, keep, moveByOffset, NO_OFFSET, type CollectTarget, type StreamedGeometry } from './collectGeometry.js';
import { DoorIndex } from './DoorIndex.js';
import type { DoorOpeningRecord, IfcElementRef } from './DoorOpeningRecord.js';
import { IfcClassNames } from './IfcClassNames.js';
import { ifcLengthUnit } from './ifcLengthUnit.js';
import { ids, spatialStructure, type SpatialStructure } from './ifcRelations.js';
import { InstancedPlacements } from './InstancedPlacements.js';
import { loadWebIfc } from './loadWebIfc.js';
import { readIfcHeader } from './readIfcHeader.js';
import { SharedGeometries, type LevelOfDetail } from './SharedGeometries.js';
import { StepFile } from './step/StepFile.js';
import { STEP_SYNTAX_CHECK_DEFAULTS, StepSyntaxCheck } from './StepSyntaxCheck.js';
import { stepText } from './step/StepValue.js';
import { UNZIP_IFC_DEFAULTS, unzipIfc } from './unzipIfc.js';
import { sharedFrom } from '../io/readSharedFile.js';
import { finishWebIfcRead, returnWebIfcHeap, startWebIfcRead } from './webIfcApi.js';

/** Options of {@link readIfc}. */
export interface ReadIfcOptions {
  fileName?: string;
  /** Segments web-ifc uses per full circle; 12 matches web-ifc's default (and the corpus facts). */
  circleSegments: number;
  /**
   * Models whose geometry lies farther than this from the origin (m) are re-centred: float32
   * has a step of ~3 cm at 5·10⁵ m, so georeferenced coordinates must not reach the buffers.
   */
  recentreBeyond: number;
  /**
   * Build the door index (door → opening → wall, with measured openings). Door detection and
   * inspection need it; plain conversion does not, and skips web-ifc's opening geometry.
   */
  doorIndex: boolean;
  /**
   * Bytes of geometry the reading may hold (positions, normals, indices): past it the model is
   * refused with {@link ModelTooLargeError} while web-ifc is still streaming, before the process
   * runs short of memory.
   */
  maxGeometryBytes: number;
  /** An `.ifczip`: bytes its IFC may unpack to (see `unzipIfc`). */
  maxUnpackedBytes: number;
  /**
   * The AR budget's first stage: every geometry is kept once with its placements while web-ifc
   * streams, and a model far over the budget has its shared geometry simplified before anything is
   * placed, so memory follows the unique geometry and the budget (see `StreamReduction`). Absent:
   * each geometry is placed as it arrives.
   */
  reduction?: StreamReduction;
  /** Read every drawn element's record (class, name, type, storey, materials, property sets, quantities) into `elementRecords`. */
  elementRecords: boolean;
  /**
   * A richer level for the parts of a model the `reduction` reduces (see `splitIntoParts`): the
   * geometry is reduced by this too, from the full geometry, and placed a second time into
   * `partsSource`. Absent, or when `reduction` leaves the model as read: no second placing.
   */
  partsReduction?: StreamReduction;
  /**
   * Files from this size (bytes) in shared memory have their STEP syntax checked on a helper
   * thread (see `StepSyntaxCheck`); an IFC unpacked from an `.ifczip` is put there from this size.
   */
  checkBesideFromBytes: number;
}

/** Defaults of {@link readIfc}. */
export const READ_IFC_DEFAULTS: Readonly<ReadIfcOptions> = {
  circleSegments: 12,
  recentreBeyond: 1000,
  doorIndex: true,
  elementRecords: false,
  maxGeometryBytes: Number.POSITIVE_INFINITY,
  maxUnpackedBytes: UNZIP_IFC_DEFAULTS.maxBytes,
  checkBesideFromBytes: STEP_SYNTAX_CHECK_DEFAULTS.besideFromBytes,
};

/** Scene data of an IFC model, with its door index. */
export interface IfcSceneData extends SceneData {
  doorOpenings: DoorOpeningRecord[];
  /** The spatial containers drawn as nodes (storeys, buildings, sites), with a storey's elevation. */
  levels: SceneLevel[];
  /** Every drawn element's record, when `elementRecords` asked for them; records share the sets and types they have in common. */
  elementRecords?: ElementRecord[];
  /**
   * The same model at the `partsReduction`'s level (the same nodes, levels, frame and bounds):
   * what its parts are made from. Present only when the model was reduced for the budget.
   */
  partsSource?: SceneData;
}

/**
 * Reads an IFC (or `.ifczip`) through web-ifc into {@link SceneData}: Y-up metres, one node per
 * product (IFC class, GlobalId, Name, storey) under its storey, one material per distinct colour,
 * geometry re-centred in float64 when far from the origin (`offset`), and the door index. A
 * model its `reduction` simplified as it streamed keeps its repeated geometry (mapped items, type
 * instances) shared: one mesh each, drawn by a node per placement under the product's node.
 * Every failure of web-ifc (−1, a throw, a WASM exception, a truncated file it would half-read)
 * becomes a {@link ModelUnreadableError}. web-ifc can also abort: run this where that is
 * contained (the conversion worker does).
 *
 * @example
 * ```ts
 * const scene = await readIfc(readFileSync('AC20-FZK-Haus.ifc'));
 * scene.doorOpenings.length; // → 5
 * ```
 */
export async function readIfc(input: Uint8Array, options: Partial<ReadIfcOptions> = {}): Promise<IfcSceneData> {
  const opts = { ...READ_IFC_DEFAULTS, ...options };
  const label = opts.fileName ?? 'IFC';
  const fail = (why: string, cause?: unknown) =>
    new ModelUnreadableError(`${label}: ${why}`, {
      ...(opts.fileName !== undefined && { fileName: opts.fileName }),
      ...(cause !== undefined && { cause }),
    });

  // An IFC unpacked from a zip is put in shared memory when large, to be checked beside web-ifc's parse too.
  const bytes =
    detectFormat(input) === 'ifczip'
      ? sharedFrom(
          unzipIfc(input, { maxBytes: opts.maxUnpackedBytes, ...(opts.fileName !== undefined && { fileName: opts.fileName }) }),
          opts.checkBesideFromBytes,
        )
      : input;
  const header = readIfcHeader(bytes);
  if (!header.schema) throw fail('no FILE_SCHEMA in the STEP header');
  // web-ifc half-reads a truncated file without complaint; the STEP terminator says it is whole.
  const tail = new TextDecoder('latin1').decode(bytes.subarray(Math.max(0, bytes.length - 4096)));
  if (!tail.includes('END-ISO-10303-21')) throw fail('the file is truncated (no END-ISO-10303-21; at its end)');
  // web-ifc trusts the STEP structure: it spins on unbalanced parentheses and mangles 64-bit ids.
  // A large file is checked beside web-ifc's parse (see StepSyntaxCheck); any other before it.
  const check = StepSyntaxCheck.start(bytes, { besideFromBytes: opts.checkBesideFromBytes });
  if (check.settled?.problem !== undefined) throw fail(`not a well-formed STEP file: ${check.settled.problem}`);
  try {
    const streamed = await streamModel(bytes, header.schema, check, opts, fail);
    // web-ifc has let go of the model (and, after a large file, of its heap) before the budget's work.
    await returnWebIfcHeap();
    return await buildScene(streamed, header.schema, opts);
  } catch (err) {
    if (err instanceof ModelUnreadableError) throw err;
    if (err instanceof GeometryOverBound)
      throw new ModelTooLargeError(err.held, opts.maxGeometryBytes, opts.fileName === undefined ? {} : { fileName: opts.fileName });
    throw fail(`web-ifc failed while reading its geometry (${err instanceof Error ? err.message : String(err)})`, err);
  } finally {
    check.cancel();
  }
}

/** What {@link streamModel} read while web-ifc held the model: all the scene needs of web-ifc. */
interface StreamedModel {
  /** Each product web-ifc streamed, in stream order (a product may repeat). */
  products: number[];
  /** With a reduction: every geometry once, with its placements, not yet placed. */
  shared: SharedGeometries | undefined;
  /** Without one: every geometry placed as it came. */
  placing: Placing;
  /** Every product, container, door, opening and wall as the scene names it. */
  ref: (id: number) => IfcElementRef;
  structure: SpatialStructure;
  /** Metres per length unit of the file. */
  unit: number;
  doors: DoorIndex | undefined;
  /** Reads every drawn element's record from the STEP text (when asked for): called after web-ifc closes. */
  elementRecords: (() => ElementRecord[]) | undefined;
  /** The STEP text, its entities found by offset. */
  file: StepFile;
}

/**
 * Streams the model through web-ifc and reads everything the scene asks of it (classes, spatial
 * structure, doors, the ids element records are read through), then closes it: a large model's
 * web-ifc heap (~630 MB at 223 MB) is let go before the budget reduces and places the geometry,
 * and before the records are read, not held beside them.
 */
async function streamModel(
  bytes: Uint8Array,
  schema: string,
  check: StepSyntaxCheck,
  opts: ReadIfcOptions,
  fail: (why: string, cause?: unknown) => Error,
): Promise<StreamedModel> {
  const api = await startWebIfcRead();
  try {
    const opened = openedModel(api, bytes, schema, opts, fail);
    try {
      // Nothing web-ifc parsed is read before the check has passed the file; where both refuse it, the check says why.
      const { problem, offsets } = await check.result();
      if (problem !== undefined) throw fail(`not a well-formed STEP file: ${problem}`);
      if ('refused' in opened) throw opened.refused;
      const file = new StepFile(bytes, offsets);
      const classes = new IfcClassNames(api, opened.model);
      try {
        return { ...readStreamed(api, opened.model, file, classes, opts), file };
      } finally {
        classes.close();
      }
    } finally {
      if ('model' in opened) api.CloseModel(opened.model);
    }
  } finally {
    finishWebIfcRead(api, bytes.length);
  }
}

/** The model opened in web-ifc, or why it could not be. */
function openedModel(
  api: IfcAPI,
  bytes: Uint8Array,
  schema: string,
  opts: ReadIfcOptions,
  fail: (why: string, cause?: unknown) => Error,
): { model: number } | { refused: unknown } {
  try {
    return { model: openModel(api, bytes, schema, opts, fail) };
  } catch (err) {
    return { refused: err };
  }
}

function readStreamed(
  api: IfcAPI,
  model: number,
  file: StepFile,
  classes: IfcClassNames,
  opts: ReadIfcOptions,
): Omit<StreamedModel, 'file'> {
  const products: number[] = [];
  const placing = newPlacing(opts.recentreBeyond);
  const bound = (held: number) => GeometryOverBound.check(held, opts.maxGeometryBytes);
  const shared = opts.reduction ? new SharedGeometries(classes) : undefined;
  api.StreamAllMeshes(model, (mesh: FlatMesh) => {
    products.push(mesh.expressID);
    // Thrown through web-ifc's stream, which stops it (the model is closed after, as always).
    if (shared) bound((placing.target.held = shared.add(api, model, mesh)));
    else {
      collect(api, model, mesh, placing.target, placing.geometries);
      bound(placing.target.held);
    }
  });
  const structure = spatialStructure(api, model, file);
  const unit = ifcLengthUnit(file, ids(api, model, loadWebIfc().IFCPROJECT)[0]);
  const doors = opts.doorIndex ? DoorIndex.read(api, model, file, unit) : undefined;
  const { storeyOf, parentOf } = structure;
  classes.read(products);
  classes.read(storeyOf.values());
  classes.read(parentOf.keys());
  classes.read(parentOf.values());
  if (doors) classes.read(doors.entities());
  const ref = elementRefs(file, classes);
  // Only the relationships' ids are asked of web-ifc: the records themselves are read from the STEP
  // text once its heap is gone (at 500 MB they hold ~270 MB, which beside it passed the worker's bound).
  const relations = !opts.elementRecords
    ? undefined
    : (Object.fromEntries(ELEMENT_RECORD_RELATIONS.map((ifcClass) => [ifcClass, ids(api, model, loadWebIfc()[ifcClass])])) as Record<
        ElementRecordRelation,
        number[]
      >);
  if (relations) classes.read(recordTypeObjects(file, relations.IFCRELDEFINESBYTYPE));
  const elementRecords =
    relations &&
    (() =>
      readElementRecords(
        {
          file,
          idsOf: (ifcClass) => relations[ifcClass],
          classOf: (id) => classes.of(id),
          storeyOf: (id) => {
            const storey = storeyOf.get(id);
            return storey === undefined ? undefined : ref(storey).name;
          },
        },
        new Set(products),
      ));
  return { products, shared, placing, ref, structure, unit, doors, elementRecords };
}

/** Each entity's reference (class, GlobalId, Name), made once. */
function elementRefs(file: StepFile, classes: IfcClassNames): (id: number) => IfcElementRef {
  const info = new Map<number, IfcElementRef>();
  return (id) => {
    let r = info.get(id);
    if (!r) {
      // Written out field by field (not spread): every reference then has one shape, and code that
      // reads them stays optimised (a spread, and a literal of another shape, gave the placing of
      // vertices a "wrong map" deopt in the middle of its loop, again and again).
      const { globalId, name } = rootIdentity(file, id);
      r = { expressId: id, ifcClass: classes.of(id), globalId, name };
      info.set(id, r);
    }
    return r;
  };
}

/** Opens the model in web-ifc, or refuses the file by name. */
function openModel(
  api: IfcAPI,
  bytes: Uint8Array,
  schema: string,
  opts: ReadIfcOptions,
  fail: (why: string, cause?: unknown) => Error,
): number {
  let model: number;
  try {
    model = api.OpenModel(bytes, { COORDINATE_TO_ORIGIN: false, CIRCLE_SEGMENTS: opts.circleSegments });
  } catch (err) {
    throw fail(`web-ifc cannot parse it (${(err as Error).message})`, err);
  }
  if (model < 0)
    throw fail(`web-ifc could not open this ${schema} model (it stops at values it cannot parse, such as some binary literals)`);
  return model;
}

async function buildScene(streamed: StreamedModel, schema: string, opts: ReadIfcOptions): Promise<IfcSceneData> {
  const { file } = streamed;
  const warnings: SceneWarning[] = [];
  const { products, shared, placing, ref, unit } = streamed;
  const bound = (held: number) => GeometryOverBound.check(held, opts.maxGeometryBytes);
  let sourceElements = 0;
  let detail: Placing | undefined;
  if (shared && opts.reduction) {
    // Every geometry copied once and its placements noted; placed only once the model's size is
    // known, from the reduced geometry when it is far over the budget. Placed in stream order with
    // the same arithmetic, so a model that is not reduced comes out as one placed as it streamed.
    // Elements as a full read counts them: products that draw a geometry with triangles.
    sourceElements = new Set(shared.placements.filter((p) => p.geometry.indices.length >= 3).map((p) => p.product)).size;
    // The richer level for parts is reduced from the full geometry too, then set aside: the
    // budget's level below is the one a read without parts makes.
    const full = shared.levelOfDetail();
    let partsLevel: LevelOfDetail | undefined;
    if (opts.partsReduction) {
      await opts.partsReduction.reduce(shared.geometries());
      partsLevel = shared.levelOfDetail();
      shared.useLevelOfDetail(full);
    }
    await opts.reduction.reduce(shared.geometries());
    placing.target.held = 0;
    placeShared(shared.placements, placing, opts.reduction.reduced > 0, () => bound(placing.target.held));
    if (partsLevel && opts.reduction.reduced > 0) {
      detail = newPlacing(opts.recentreBeyond);
      // Parts are extra: a model whose richer level would pass the memory bound has none, and is read as ever.
      try {
        const placements = shared.placementsAt(partsLevel);
        placeShared(placements, detail, opts.partsReduction!.reduced > 0, () => bound(placing.target.held + detail!.target.held));
      } catch (err) {
        if (!(err instanceof GeometryOverBound)) throw err;
        detail = undefined;
      }
    }
  }

  // Offset: chosen from the geometries' float64 centres. A geometry far from the origin has coarse
  // float32 points: it is placed again from its local vertices, into the same arrays, with the
  // offset removed in float64, so the delivered points are as fine as near the origin. One near
  // the origin (a stray element) has fine points already, and is moved by the offset.
  // A model reduced before placing is framed as placed in full: pruned or simplified geometry
  // must not move its offset.
  const fullCentres = opts.reduction?.reduced ? opts.reduction.fullCentres : placing.centres;
  const offset = chooseOffset(Float64Array.from(fullCentres), opts.recentreBeyond);
  let bounds = placing.target.box;
  if (offset.some((v) => v !== 0)) {
    warnings.push({
      code: 'recentred',
      message:
        `geometry was ${Math.round(Math.hypot(...offset))} m from the ` + `origin and was re-centred; model_frame.offset states the shift`,
    });
    bounds = moveByOffset(placing.geometries, offset);
    if (detail) moveByOffset(detail.geometries, offset);
  }

  // A model reduced before placing keeps the bounds of its full geometry (placements use them).
  const fullBounds = opts.reduction?.reduced ? opts.reduction.fullBounds : undefined;
  if (fullBounds)
    bounds = {
      min: fullBounds.min.map((v, k) => Math.fround(v - offset[k]!)) as Vec3,
      max: fullBounds.max.map((v, k) => Math.fround(v - offset[k]!)) as Vec3,
    };

  const storeys = new IfcStoreys(file, ref, streamed.structure, unit);
  const assemble = (placed: Placing) => assembleIfcScene(placed, products, storeys, ref, offset);
  const { positionsOfProduct, levels, nodeOfProduct: _nodes, ...base } = assemble(placing);
  const { meshes } = base;
  const { instanced } = placing;
  if (meshes.length === 0) warnings.push({ code: 'no_geometry', message: 'the model has no geometry web-ifc can draw' });

  const wallPositions = (product: number): Float32Array[] | undefined => {
    const placed = [...(positionsOfProduct.get(product) ?? []), ...(instanced.size > 0 ? instanced.placedPositions(product, offset) : [])];
    return placed.length ? placed : undefined;
  };
  const doorOpenings = streamed.doors?.measure({ offset, ref, storeyOf: streamed.structure.storeyOf, wallPositions }) ?? [];
  const elementRecords = streamed.elementRecords?.();
  if (meshes.length > 0 && [...bounds.min, ...bounds.max].some((v) => Math.abs(v) > 10 * opts.recentreBeyond)) {
    warnings.push({
      code: 'far_outliers',
      message:
        `some elements lie more than ${(10 * opts.recentreBeyond) / 1000} km from the rest ` +
        `of the model (stray placements?); they are delivered where the file puts them`,
    });
  }
  const source = { format: 'ifc' as const, schema };
  const partsSource =
    detail &&
    (() => {
      const { positionsOfProduct: _p, levels: _l, nodeOfProduct, ...parts } = assemble(detail);
      const reduced =
        opts.partsReduction!.reduced > 0
          ? streamReducedOf(opts.partsReduction!, sourceElements, productOfNodes(parts.nodes, nodeOfProduct))
          : undefined;
      return { source, ...parts, offset, bounds, stats: sceneStats(parts), warnings: [], ...(reduced && { streamReduced: reduced }) };
    })();
  const reduction = opts.reduction;
  return {
    source,
    ...base,
    offset,
    bounds,
    stats: sceneStats(base),
    warnings,
    doorOpenings,
    levels,
    ...(elementRecords && { elementRecords }),
    ...(reduction && reduction.reduced > 0 && { streamReduced: streamReducedOf(reduction, sourceElements) }),
    ...(partsSource && { partsSource }),
  };
}

/**
 * Each node's product: its own, or (a placement of shared geometry) its parent's; -1 for a
 * container. Only the parts' level needs it (see `StreamReducedFigures.nodeStrays`).
 */
function productOfNodes(nodes: readonly SceneNode[], nodeOfProduct: ReadonlyMap<number, number>): Float64Array {
  const productOf = new Float64Array(nodes.length).fill(-1);
  for (const [product, node] of nodeOfProduct) productOf[node] = product;
  nodes.forEach((n, i) => {
    if (productOf[i]! < 0 && n.parent >= 0 && n.meshes.length > 0) productOf[i] = productOf[n.parent]!;
  });
  return productOf;
}

/** What a reduction did, as a scene states it; with each node's product (`productOfNode`), what it did to each node's element. */
function streamReducedOf(reduction: StreamReduction, sourceElements: number, productOfNode?: Float64Array): StreamReducedFigures {
  const strays = reduction.productStrays;
  return {
    ...(productOfNode && strays && { nodeStrays: Array.from(productOfNode, (product) => strays.get(product)) }),
    sourceTriangles: reduction.sourceTriangles,
    sourceDrawCalls: reduction.sourceDrawCalls,
    sourceElements,
    reducedGeometries: reduction.reduced,
    maxDeviation: reduction.maxDeviation,
    maxUncovered: reduction.maxUncovered,
    categories: reduction.categories,
  };
}

/** Geometry being placed: where it goes, what was placed, what stays shared. */
interface Placing {
  target: CollectTarget;
  geometries: StreamedGeometry[];
  instanced: InstancedPlacements;
  centres: number[];
}

function newPlacing(recentreBeyond: number): Placing {
  const centres: number[] = [];
  // Every product node has the identity matrix: the scene's bounds are its meshes' points.
  // Each geometry is placed as it arrives, read straight from web-ifc's memory, as if the model
  // needed no re-centring.
  const target: CollectTarget = {
    blocks: new ArrayBlocks(),
    offset: NO_OFFSET,
    box: emptyBounds(),
    centres,
    keepBeyond: recentreBeyond,
    held: 0,
  };
  return { target, geometries: [], instanced: new InstancedPlacements(recentreBeyond), centres };
}

/**
 * Places every noted placement of `shared`; a reduced model is the budget's to deliver: its
 * repeated geometry stays shared (the budget's merge instances or bakes it); one read in full is
 * placed as ever.
 */
function placeShared(placements: SharedGeometries['placements'], placing: Placing, keepShared: boolean, bound: () => void): void {
  for (const placement of placements) {
    // The colour the reduction drew the geometry in, where not its own (see `SharedGeometry.drawnColor`).
    const p = placement.geometry.drawnColor ? { ...placement, color: placement.geometry.drawnColor } : placement;
    if (keepShared && placing.instanced.take(p, placing.centres)) continue;
    keep(placing.target, p.product, p.geometry.vertices, p.geometry.indices, p.transform, p.color, placing.geometries);
    bound();
  }
}

/** Stops web-ifc's stream once the geometry held passes the bound; becomes a {@link ModelTooLargeError}. */
class GeometryOverBound extends Error {
  constructor(readonly held: number) {
    super('geometry over its bound');
  }

  /** Throws once `held` bytes pass `max`. */
  static check(held: number, max: number): void {
    if (held > max) throw new GeometryOverBound(held);
  }
}

/** GlobalId and Name of an IfcRoot entity; `''` where the file writes no text (`$`, `*`, anything else). */
function rootIdentity(file: StepFile, id: number): { globalId: string; name: string } {
  return { globalId: stepText(file.attribute(id, ROOT.globalId)) ?? '', name: stepText(file.attribute(id, ROOT.name)) ?? '' };
}

// Attribute positions (0-based), the same in IFC2X3, IFC4 and IFC4X3.
const ROOT = { globalId: 0, name: 2 };
