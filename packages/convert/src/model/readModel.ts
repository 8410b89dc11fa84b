import type { SceneLevel } from '../scene/SceneLevel.js';
import type { ElementRecord } from '../elements/ElementRecord.js';
import { ConvertError, ModelTooLargeError, ModelUnreadableError, UnsupportedFormatError } from '../errors/ConvertError.js';
import { detectFormat, type ModelFormat } from '../format/detectFormat.js';
import { checkMeshNodeLimit, MESH_NODE_LIMIT } from '../glb/checkMeshNodeLimit.js';
import type { DoorOpeningRecord } from '../ifc/DoorOpeningRecord.js';
import type { SceneData } from '../scene/SceneData.js';
import type { StreamReduction } from '../budget/StreamReduction.js';

/** Options of {@link readModel}. */
export interface ReadModelOptions {
  /** Name of the uploaded file, for messages. */
  fileName?: string;
  /** Request field the file came in (`model_file`, `model_files`), for errors. */
  field?: string;
  /** GLB mesh-node limit; default 5000. */
  meshNodeLimit: number;
  /**
   * Bytes of geometry (positions, normals, texture coordinates, indices) a model may need: an IFC
   * is refused as web-ifc streams past it, a GLB or USDZ once read ({@link ModelTooLargeError}).
   */
  maxGeometryBytes: number;
  /**
   * Bytes an archive may unpack to, all its entries together: a USDZ's loaded entries (those left
   * out are never inflated), an `.ifczip`'s IFC. Declared sizes are checked before anything is
   * inflated, and inflating stops at the declared size (a zip bomb lies about it).
   */
  maxUnpackedBytes: number;
  /** IFC: the AR budget's first stage, simplifying a huge model's geometry as it streams (see `readIfc`). */
  reduction?: StreamReduction;
  /** A richer level for the parts of a model `reduction` reduces, placed into `partsSource` (see `readIfc`). */
  partsReduction?: StreamReduction;
  /** Read every drawn element's record into `elementRecords` (IFC: see `readElementRecords`; GLB, USDZ: `nodeElementRecords`). */
  elementRecords?: boolean;
}

/** Defaults of {@link readModel}. */
export const READ_MODEL_DEFAULTS: Readonly<ReadModelOptions> = {
  meshNodeLimit: MESH_NODE_LIMIT,
  maxGeometryBytes: Number.POSITIVE_INFINITY,
  maxUnpackedBytes: 1024 * 1024 * 1024,
};

/** A model read into scene data, with the IFC door index when the model has semantics. */
export interface ModelScene extends SceneData {
  doorOpenings?: DoorOpeningRecord[];
  /** A USDZ that ARKit takes as it is (see `readUsdz`): delivered instead of a rewrite. */
  arkitPackage?: { bytes: Uint8Array; repacked: boolean };
  /** The spatial containers an IFC draws its elements under (storeys), which parts are split along. */
  levels?: SceneLevel[];
  /** Every drawn element's record, when `elementRecords` asked for them. */
  elementRecords?: ElementRecord[];
  /** The same model at the richer level its parts are made from, when it was reduced for the budget as it was read (see `readIfc`). */
  partsSource?: SceneData;
}

/**
 * Reads any accepted model into {@link SceneData}, recognising the format by content. GLBs are
 * checked against the mesh-node limit before anything is decoded. Runs in the calling thread:
 * web-ifc can hang or abort on hostile input, so services should use `convertModel`, which runs
 * this in a worker with a deadline.
 *
 * @example
 * ```ts
 * const scene = await readModel(readFileSync('house.ifc'), { fileName: 'house.ifc' });
 * ```
 */
export async function readModel(bytes: Uint8Array, options: Partial<ReadModelOptions> = {}): Promise<ModelScene> {
  const opts = { ...READ_MODEL_DEFAULTS, ...options };
  const named = { ...(opts.fileName !== undefined && { fileName: opts.fileName }), ...(opts.field !== undefined && { field: opts.field }) };
  const format = detectFormat(bytes);
  try {
    const scene = await readByFormat(format, bytes, opts, named);
    refuseNonFiniteGeometry(scene, opts.fileName, named);
    const held = geometryBytes(scene);
    if (held > opts.maxGeometryBytes) throw new ModelTooLargeError(held, opts.maxGeometryBytes, named);
    return scene;
  } catch (err) {
    // Readers name the file; the request field is only known here.
    if (err instanceof ConvertError && opts.field !== undefined && err.field !== opts.field) Object.assign(err, { field: opts.field });
    throw err;
  }
}

async function readByFormat(
  format: ModelFormat | undefined,
  bytes: Uint8Array,
  opts: ReadModelOptions,
  named: { fileName?: string; field?: string },
): Promise<ModelScene> {
  switch (format) {
    case 'glb':
      checkMeshNodeLimit(bytes, { limit: opts.meshNodeLimit, ...named });
      // glTF-Transform and its decoders cost ~60 ms to load: an IFC or USDZ reader never pays it.
      return (await import('../glb/readGlb.js')).readGlb(bytes, { ...named, ...(opts.elementRecords && { elementRecords: true }) });
    case 'ifc':
    case 'ifczip':
      // web-ifc takes ~0.15 s to load even from its code cache: a worker that only ever sees GLB never pays it.
      return (await import('../ifc/readIfc.js')).readIfc(bytes, {
        ...named,
        maxGeometryBytes: opts.maxGeometryBytes,
        maxUnpackedBytes: opts.maxUnpackedBytes,
        ...(opts.reduction && { reduction: opts.reduction }),
        ...(opts.partsReduction && { partsReduction: opts.partsReduction }),
        ...(opts.elementRecords && { elementRecords: true }),
      });
    case 'usdz':
      // Each reader loads with its first model, so a worker's start-up holds only what it is asked for.
      return (await import('../usdz/readUsdz.js')).readUsdz(bytes, {
        ...named,
        maxUnpackedBytes: opts.maxUnpackedBytes,
        ...(opts.elementRecords && { elementRecords: true }),
      });
    default:
      throw new UnsupportedFormatError(`${opts.fileName ?? 'the file'} is not an IFC (STEP), GLB (binary glTF 2.0) or USDZ model`, named);
  }
}

/**
 * Every reader can be led by its file into NaN or infinite coordinates (a 1e308 scale, a
 * placement that refers to itself, a 2-element matrix): such a model has no place to be put, and
 * AR clients draw nothing or crash, so it is refused rather than delivered with `null` bounds.
 */
function refuseNonFiniteGeometry(scene: ModelScene, fileName: string | undefined, named: { fileName?: string; field?: string }): void {
  if (scene.stats.triangles === 0) return; // an empty model has no bounds; callers decide about it
  const { min, max } = scene.bounds;
  if ([...min, ...max].every(Number.isFinite)) return;
  throw new ModelUnreadableError(
    `${fileName ?? 'the model'}: its geometry has coordinates that are not finite numbers (bounds from ` +
      `[${min.join(', ')}] to [${max.join(', ')}]); a transform or placement in the file is malformed`,
    named,
  );
}

/** Bytes of a scene's mesh arrays, each counted once however often it is drawn. */
function geometryBytes(scene: SceneData): number {
  return scene.meshes.reduce(
    (n, m) => n + m.positions.byteLength + (m.normals?.byteLength ?? 0) + (m.uvs?.byteLength ?? 0) + m.indices.byteLength,
    0,
  );
}
