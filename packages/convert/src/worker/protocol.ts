import type { DeliveredStorey } from '../usdz/layer/deliveredStoreys.js';
import type { Bounds, DetectedDoor, Problem, UpAxis, Vec3 } from '@arsession/geometry';
import type { ModelFormat } from '../format/detectFormat.js';
import type { DoorOpeningRecord } from '../ifc/DoorOpeningRecord.js';
import type { SceneSource, SceneStats, SceneWarning } from '../scene/SceneData.js';
import type { ArBudget, BudgetReport } from '../budget/ArBudget.js';
import type { DeliveredParts } from '../parts/deliverParts.js';

/** What the conversion worker is asked to do. */
export interface ConversionRequest {
  bytes: Uint8Array;
  /**
   * The model's file, read by the worker itself when `bytes` is empty: a worker process reads it
   * there, so the bytes never cross the pipe nor sit in the host's memory.
   */
  inputPath?: string;
  fileName?: string;
  field?: string;
  meshNodeLimit?: number;
  /** Which files to write; none for a read-only inspection. Default: USDZ only. */
  outputs?: ReadonlyArray<'usdz' | 'glb'>;
  /** Write the USDZ to this file (streamed, atomic) instead of returning its bytes. */
  usdzPath?: string;
  /** Write the GLB (when `outputs` asks for it) to this file (atomic) instead of returning its bytes. */
  glbPath?: string;
  /**
   * Write the parts of a model over the budget here (a stored zip of one USDZ per part, see
   * `deliverParts`): split by storey, and by cells where a storey is over the budget. Nothing is
   * written for a model within it. Needs a budget.
   */
  partsPath?: string;
  /**
   * Write the records of an IFC's elements here, as gzipped JSON (`ElementRecords`: class, name,
   * type, storey, materials, property sets, quantities, by GlobalId). Nothing is written for a
   * GLB or USDZ.
   */
  elementsPath?: string;
  /**
   * by_scan mode 1: find the door the viewer looks at (in the submitted model's own frame) once the
   * model is read, and write nothing when there is none.
   */
  /**
   * For `arsession inspect`: find, for each face of each IFC door opening, a viewer distance from
   * which mode 1 detects that door ({@link OpeningFace.viewerDistance}), by running the detector.
   */
  approachDoors?: boolean;
  detectDoor?: DoorQuery;
  /**
   * The AR budget the delivered files are brought within (limits left out take their defaults,
   * `AR_BUDGET_DEFAULTS`); `false` delivers the model as read, merged only past 300 draw calls.
   */
  budget?: Partial<ArBudget> | false;
  /**
   * Bytes of geometry the model may need (see `readModel`); beyond it the model is refused with
   * `ModelTooLargeError` while it is read. Default: no bound.
   */
  maxGeometryBytes?: number;
  /**
   * Bytes an archive (a USDZ, an `.ifczip`) may unpack to, all its entries together (see
   * `readModel`); a server passes its upload limit, so a bomb is held to what it would take as a
   * plain file. Default: 1 GiB.
   */
  maxUnpackedBytes?: number;
}

/** Where a viewer stands and looks, as by_scan mode 1 sends it. */
export interface DoorQuery {
  viewer: readonly number[];
  gaze: readonly number[];
  coordinateSystem: UpAxis;
}

/** A converted model: the AR file and what a client or operator wants to know about it. */
export interface ConversionResult {
  format: ModelFormat;
  source: SceneSource;
  /**
   * Counts of the delivered files (after merging); `elements` counts the source's mesh nodes,
   * `trianglesWithoutElement` the delivered triangles no element owns.
   */
  stats: SceneStats & { drawCalls: number; elements: number; trianglesWithoutElement: number };
  bounds: Bounds;
  /** model_frame.offset: a submitted point p (Y-up) is at p − offset in the delivered files. */
  offset: Vec3;
  warnings: SceneWarning[];
  /**
   * How the USDZ was made: written from the scene, or an ARKit-ready USDZ upload delivered byte
   * for byte (`as_uploaded`) or repacked with its contents untouched (`repacked`).
   */
  delivery: 'converted' | 'as_uploaded' | 'repacked';
  /**
   * Why the delivered USDZ cannot be extended into a package that places itself in AR Quick Look
   * (`anchorUsdz`): an upload that anchors itself already, or whose root layer is text. Absent
   * when it can, which a converted model always can.
   */
  anchorRefusal?: { rule: string; message: string };
  /**
   * Time spent in the worker (ms): reading the model into scene data (door detection included,
   * `detectMs` of it, present when a door was asked for), then merging and writing the outputs;
   * `startedAt`: when reading began (ms since the epoch), so the steps can be placed on a trace.
   */
  timings: { readMs: number; writeMs: number; detectMs?: number; startedAt: number };
  /**
   * What the AR budget did: source and delivered figures (bytes: the upload's and the USDZ's), steps, deviation. Absent with `budget:
   * false`.
   */
  budget?: BudgetReport;
  doorOpenings?: DoorOpeningRecord[];
  /** The door found for {@link ConversionRequest.detectDoor}: world coordinates, Y-up (subtract `offset` for the delivered frame). */
  door?: DetectedDoor;
  /** The ARKit-ready USDZ package, when asked for (and not written to `usdzPath`). */
  usdz?: Uint8Array;
  /** Size of the USDZ written to `usdzPath`. */
  usdzFileBytes?: number;
  /** SHA-256 (hex) of the USDZ written to `usdzPath`. */
  usdzFileSha256?: string;
  /** The same scene as GLB, when asked for (and not written to `glbPath`). */
  glb?: Uint8Array;
  /** Size of the GLB written to `glbPath`. */
  glbFileBytes?: number;
  /** SHA-256 (hex) of the GLB written to `glbPath`. */
  glbFileSha256?: string;
  /** The parts written to `partsPath`, when the model was over the budget: the archive's size and SHA-256, and each part. */
  parts?: DeliveredParts;
  /** The element records written to `elementsPath` (gzipped JSON): its size, SHA-256 and how many elements it holds. */
  elements?: { bytes: number; sha256: string; count: number };
  /** The delivered USDZ's storeys, bottom up, with their Xforms' paths; empty for a model without storeys or delivered as uploaded. */
  storeys?: DeliveredStorey[];
}

/** A ConvertError flattened for the trip across the thread boundary. */
export interface SerializedConvertError {
  className: string;
  code: string;
  message: string;
  field: string;
  fileName?: string;
  count?: number;
  limit?: number;
  rule?: string;
  /** Geometry errors (invalid viewer, no door found): every problem, and the detector's reason. */
  problems?: Problem[];
  reason?: string;
}

/** What the worker answers. */
export type ConversionReply = { ok: true; result: ConversionResult } | { ok: false; error: SerializedConvertError };

/** What a worker posts once, when it has loaded and listens for jobs. */
export interface WorkerReady {
  ready: true;
}

/** What a worker is told when it starts (its `workerData`). */
export interface WorkerStart {
  /** Load web-ifc before saying ready: set when IFC jobs are expected, so the load overlaps the host's own start. */
  preloadIfc?: boolean;
}
