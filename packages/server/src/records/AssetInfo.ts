import type { ArBudgetOnWire, ConversionResult } from '@arsession/convert';
import {
  ArBudgetOnWire as ArBudgetOnWireSchema,
  componentRef,
  count,
  nullable,
  PartOnWire,
  sha256Hex,
  StoreyOnWire,
} from '@arsession/convert/schemas';
import { type Static, Type } from '@sinclair/typebox';
import { orNull, stringEnum, url, vec3 } from './wireSchemaHelpers.js';
import type { QuickLook } from './Placement.js';
import { ASSET_WARNING_CODES, type AssetWarning } from './warningCodes.js';

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

/** An asset's package for AR Quick Look on the wire: its URL, and its size and digest once made (OpenAPI `QuickLookPackage`). */
export const QuickLookPackage = Type.Object(
  {
    usdz_url: url('the USDZ that places itself in AR Quick Look (the plain USDZ when anchoring is none); made on its first request'),
    bytes: orNull(count(), 'null until the package has been made (its first request)'),
    sha256: orNull(sha256Hex(), 'null until the package has been made (its first request)'),
    anchoring: stringEnum(['plane', 'image', 'none']),
    reason: orNull(Type.String()),
  },
  { additionalProperties: false },
);

/** A delivered model as the detail record shows it: the one declaration of its type and of the OpenAPI schema `ModelAsset`. */
export const ModelAsset = Type.Object(
  {
    order: count(),
    source_name: Type.String(),
    format: stringEnum(['ifc', 'ifczip', 'glb', 'usdz']),
    usdz_delivery: stringEnum(
      ['converted', 'as_uploaded', 'repacked'],
      'converted: written from the model; as_uploaded: an ARKit-ready USDZ upload delivered byte for ' +
        'byte; repacked: one whose only faults were compression or alignment, its entries untouched',
    ),
    preferred_format: stringEnum(['reality', 'usdz']),
    reality_url: orNull(
      url(),
      'the Reality file, when the operator configured a compiler (ARSESSION_REALITY_COMPILER: Apple publishes no ' +
        'writer) and it succeeded; null otherwise — a configured compiler that failed adds the warning reality_failed',
    ),
    reality_status: stringEnum(
      ['made', 'not_configured', 'failed'],
      'why reality_url is what it is: made; not_configured (the server has no ARSESSION_REALITY_COMPILER: ' +
        'Apple publishes no Reality writer, so a macOS build host with Reality Composer ' +
        "Pro's tools provides one); failed (the compiler failed on this model, with the warning " +
        'reality_failed). The client rule holds either way: Reality when there is one, else USDZ',
    ),
    usdz_url: url(),
    glb_url: orNull(
      url(),
      'the same scene as GLB; each vertex names its element through EXT_mesh_features feature ids into an ' +
        'EXT_structural_metadata table (globalId, ifcClass, name). Null for sessions made before GLBs were delivered',
    ),
    source_bytes: count(),
    usdz_bytes: count(),
    usdz_sha256: sha256Hex(),
    glb_bytes: orNull(count()),
    glb_sha256: orNull(sha256Hex()),
    triangles: count(),
    mesh_nodes: count(),
    draw_calls: count(),
    elements: count(),
    triangles_without_element: orNull(
      count(),
      'delivered triangles no element owns: what a tap cannot name. Every other triangle maps to its source element ' +
        '(an IFC GlobalId, a GLB or USD node), through simplification, merging and stand-ins: in the USDZ as the ' +
        'indexed primvar primvars:element of each Mesh prim (one value per face); null for ' +
        'sessions made before it was counted',
    ),
    bounds: Type.Object(
      { min: vec3('lowest corner'), max: vec3('highest corner') },
      {
        additionalProperties: false,
        description:
          "in this model's delivered frame, of the full model (placement is computed " +
          'on it; a simplified delivery lies within ar_budget.max_deviation_m of it)',
      },
    ),
    offset: vec3("this model's own re-centring (Y-up, m)"),
    warnings: Type.Array(
      Type.Object(
        {
          code: stringEnum(
            Object.keys(ASSET_WARNING_CODES) as AssetWarning['code'][],
            Object.entries(ASSET_WARNING_CODES)
              .map(([code, meaning]) => `${code}: ${meaning}`)
              .join('; '),
          ),
          message: Type.String({ description: "the same in words, with this model's figures and names" }),
        },
        { additionalProperties: false },
      ),
      { description: 'what the conversion changed or dropped, never silently; the model was delivered' },
    ),
    door_openings: Type.Optional(count()),
    quick_look: orNull(componentRef('QuickLookPackage', QuickLookPackage)),
    element_records: orNull(
      Type.Object(
        {
          url: url('gzipped JSON: {schema, elements: {<id>: record}}, each record as GET …/elements/{global_id} answers it'),
          bytes: count('size of the file (bytes, gzipped)'),
          sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of the file, hex (also its ETag)' }),
          count: count('elements it holds'),
        },
        { additionalProperties: false },
      ),
      "every element's record in one file, for an app that answers taps offline; null for sessions made before",
    ),
    storeys: orNull(
      Type.Array(componentRef('AssetStorey', AssetStorey)),
      "the USDZ's storeys, bottom up (those without an elevation last): every prim of a storey lies under its Xform, " +
        'so an app hides or shows a storey by its prim_path, and each storey and element Xform carries an accessibility ' +
        'label and description (OpenUSD AccessibilityAPI); empty for a model without storeys (a GLB, a USDZ); null for ' +
        'sessions made before storeys were stated',
    ),
    parts: orNull(
      componentRef('AssetParts', AssetPartsOnWire),
      'a model over the AR budget is also delivered as parts a device loads where the user stands: ' +
        'one per storey, cut into neighbouring cells where a storey is over the budget, each within the ' +
        'budget with its walls, slabs and roofs as read; null for a model within the budget (or sessions made before parts)',
    ),
    ar_budget: orNull(
      componentRef('ArBudget', ArBudgetOnWireSchema),
      'what the AR budget did to this model; null when the server runs ' +
        'without one (ARSESSION_AR_BUDGET=false) or for sessions made before it',
    ),
  },
  { additionalProperties: false },
);
/** A model asset as the detail record shows it (see the schema `ModelAsset`). */
export type AssetOnWire = Static<typeof ModelAsset>;

/** The frame every delivered file is stated in: Y-up, right-handed metres, moved by −offset (OpenAPI, in `SessionDetail`). */
export const ModelFrame = Type.Object(
  {
    up_axis: Type.Literal('y'),
    handedness: Type.Literal('right'),
    units: Type.Literal('m'),
    offset: vec3('a submitted point p lands at to_y_up(p) − offset'),
  },
  {
    additionalProperties: false,
    description: 'the frame every delivered file and every pose is in: Y-up, right-handed, metres, shifted by offset',
  },
);
/** The frame every delivered file is stated in (see the schema above). */
export type ModelFrame = Static<typeof ModelFrame>;
