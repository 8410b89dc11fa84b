import type { ArBudgetOnWire, ConversionResult } from '@arsession/convert';
import { count, nullable, PartOnWire, sha256Hex, StoreyOnWire } from '@arsession/convert/schemas';
import { type Static, Type } from '@sinclair/typebox';
import type { QuickLook } from './Placement.js';
import type { AssetWarning } from './warningCodes.js';

/** One delivered model as stored with its session (the detail record adds its URLs). */
export interface AssetInfo {
  format: ConversionResult['format'];
  /** How the USDZ was made: converted, delivered as uploaded (ARKit-ready), or repacked. */
  usdz_delivery: ConversionResult['delivery'];
  preferred_format: 'usdz' | 'reality';
  /** The USDZ's name among the session's files. */
  usdz_file: string;
  /**
   * The same scene as GLB (web previews, Android's Scene Viewer), its name among the session's
   * files; `null` for sessions made before GLBs were delivered.
   */
  glb_file: string | null;
  /** The Reality file's name, when a compiler made one. */
  reality_file: string | null;
  source_bytes: number;
  usdz_bytes: number;
  usdz_sha256: string;
  glb_bytes: number | null;
  glb_sha256: string | null;
  triangles: number;
  mesh_nodes: number;
  draw_calls: number;
  /** Source elements (IFC products, GLB mesh nodes) before merging. */
  elements: number;
  /** Delivered triangles no element owns: what a tap cannot name (absent for sessions made before it was counted). */
  triangles_without_element?: number;
  bounds: { min: number[]; max: number[] };
  offset: number[];
  warnings: AssetWarning[];
  /** What the AR budget did (`null` when it was off, or for sessions made before there was one). */
  ar_budget?: ArBudgetOnWire | null;
  /** IFC door openings the model lists. */
  door_openings?: number;
  /** The package that places itself in AR Quick Look (`null` for sessions made before there was one). */
  quick_look: QuickLookFile | null;
  /** The parts of a model over the AR budget; `null` (or absent, for sessions made before parts) for one within it. */
  parts?: StoredParts | null;
  /** The model's element records (gzipped JSON, its name among the session's files); `null` for older sessions. */
  element_records?: { file: string; bytes: number; sha256: string; count: number } | null;
  /** The USDZ's storeys, bottom up, each with its Xform's path (absent for sessions made before storeys were stated). */
  storeys?: StoreyOnWire[];
}

/** The parts of a model over the AR budget, as its session stores them. */
export interface StoredParts {
  /** The archive of every part (a stored zip), its name among the session's files. */
  file: string;
  bytes: number;
  sha256: string;
  /** Each part, with its own file's name among the session's files. */
  items: Array<PartOnWire & { file: string }>;
  /** The index of the part where the placement ties the model to the room; `null` when it lies off every part. */
  at_placement: number | null;
}

/**
 * An asset's package for AR Quick Look: the USDZ with the session's anchoring around the model
 * (made on first request, then listed among the session's files), or, when Quick Look cannot
 * anchor it (`anchoring: 'none'`, with the reason), the plain USDZ itself.
 */
export interface QuickLookFile {
  /** Its name among the session's files. */
  file: string;
  anchoring: QuickLook['anchoring'];
  /** Why this package does not anchor itself; `null` when it does. */
  reason: string | null;
}

/** A model asset as the detail record shows it. */
export type AssetOnWire = Omit<
  AssetInfo,
  | 'usdz_file'
  | 'glb_file'
  | 'reality_file'
  | 'quick_look'
  | 'ar_budget'
  | 'parts'
  | 'triangles_without_element'
  | 'element_records'
  | 'storeys'
> & {
  /**
   * The USDZ's storeys, bottom up: hide or show a storey's Xform (`prim_path`) and every prim of
   * it goes with it. `session_level` numbers it across the session's models, as the parts' do.
   * Empty for a model without storeys; `null` for sessions made before storeys were stated.
   */
  storeys: AssetStorey[] | null;
  /**
   * Every element's record in one file (gzipped JSON, by id: class, name, type, storey,
   * materials, property sets, quantities), for an app that answers taps offline; one element's
   * is at `…/elements/{global_id}`. `null` for sessions made before.
   */
  element_records: { url: string; bytes: number; sha256: string; count: number } | null;
  /** `null` for sessions made before it was counted. */
  triangles_without_element: number | null;
  ar_budget: ArBudgetOnWire | null;
  order: number;
  source_name: string;
  usdz_url: string;
  glb_url: string | null;
  reality_url: string | null;
  /** Why `reality_url` is what it is: made; no compiler configured; or the compiler failed (with the warning reality_failed). */
  reality_status: 'made' | 'not_configured' | 'failed';
  /** Its size and SHA-256 are those of the session's file, `null` until a package made on request has been made. */
  quick_look: (Omit<QuickLookFile, 'file'> & { usdz_url: string; bytes: number | null; sha256: string | null }) | null;
  /** The parts a device loads where the user stands, for a model over the AR budget; `null` for one within it. */
  parts: AssetPartsOnWire | null;
};

/** The frame every delivered file is stated in: Y-up, right-handed metres, moved by −offset. */
export interface ModelFrame {
  up_axis: 'y';
  handedness: 'right';
  units: 'm';
  offset: number[];
}

/**
 * A storey of an asset on the wire: the converter's `StoreyOnWire` and its level across the
 * session's models. The one declaration of its type and of the OpenAPI schema `AssetStorey`.
 */
export const AssetStorey = Type.Object(
  {
    ...StoreyOnWire.properties,
    session_level: nullable(
      count(),
      "the storey across the session's models, numbered as the parts' session_level: storeys of one level are one storey",
    ),
  },
  { additionalProperties: false },
);
/** A storey of an asset on the wire (see the schema of the same name). */
export type AssetStorey = Static<typeof AssetStorey>;

/** A part on the wire: the converter's `PartOnWire`, its URL and its level across the session (OpenAPI `ModelPart`). */
export const ModelPart = Type.Object(
  {
    ...PartOnWire.properties,
    usdz_url: Type.String({ format: 'uri', description: 'the part as a USDZ that works alone, in the same frame as the whole' }),
    session_level: nullable(
      count(),
      "the storey across the session's models, from 0 at the lowest: parts of a federation (architecture, structure, " +
        'services, each its own file) whose storey elevations agree within 0.5 m have the same level and are loaded together; ' +
        'storeys without an elevation get one level per name, after those; null for elements no storey holds',
    ),
  },
  { additionalProperties: false },
);
/** A part on the wire (see the schema of the same name). */
export type ModelPart = Static<typeof ModelPart>;

/** The parts of a model over the AR budget as the detail record shows them (OpenAPI `AssetParts`). */
export const AssetPartsOnWire = Type.Object(
  {
    zip_url: Type.String({
      format: 'uri',
      description: 'every part at once: a stored zip of their USDZ files (00.usdz, 01.usdz, …), for an app that works offline',
    }),
    zip_bytes: count(),
    zip_sha256: sha256Hex(),
    items: Type.Array(Type.Unsafe<ModelPart>({ $ref: '#/components/schemas/ModelPart' }), {
      description: 'bottom storey first, then elements no storey holds; together they draw the whole model',
    }),
    at_placement: nullable(
      count(),
      'the index of the part where the placement ties the model to the room (the door of a by_scan, the anchor, the image, ' +
        "by_plane's footprint anchor; a metre up from those on a floor, where a person stands): the one to load first; " +
        'null when that point lies more than 3 m from every part',
    ),
  },
  { additionalProperties: false },
);
/** The parts of a model over the AR budget on the wire (see the schema of the same name). */
export type AssetPartsOnWire = Static<typeof AssetPartsOnWire>;
