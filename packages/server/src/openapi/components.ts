import {
  ArBudgetOnWire,
  BudgetFiguresOnWire,
  CategoryOnWire,
  ElementRecord,
  PartStoreyOnWire,
  PropertySets,
} from '@arsession/convert/schemas';
import { Type } from '@sinclair/typebox';
import { AssetPartsOnWire, AssetStorey, ModelPart } from '../records/AssetInfo.js';
import {
  ByPlanePlacementOnWire,
  ByRefimagePlacementOnWire,
  ByScanPlacementOnWire,
  PlacementWarnings,
  PoseOnWire,
  QuickLook,
  VirtualAnchorPlacementOnWire,
} from '../records/Placement.js';
import { ClaimResponse, SessionResponse } from '../records/SessionResponse.js';
import { ASSET_WARNING_CODES } from '../records/warningCodes.js';
/** A JSON Schema (2020-12, as OpenAPI 3.1 takes it). */
export type Schema = Record<string, unknown>;

/** A reference to one of the schemas below. */
export const ref = (name: keyof typeof SCHEMAS): Schema => ({ $ref: `#/components/schemas/${name}` });

/** An object of exactly these properties, all required unless listed as optional. */
function record(properties: Record<string, Schema>, optional: readonly string[] = [], description?: string): Schema {
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    properties,
    ...(description && { description }),
  };
}

const number: Schema = { type: 'number' };
const integer: Schema = { type: 'integer', minimum: 0 };
const text: Schema = { type: 'string' };
const url: Schema = { type: 'string', format: 'uri' };
const sha256: Schema = { type: 'string', pattern: '^[0-9a-f]{64}$' };
const vec3 = (description: string): Schema => ({ type: 'array', items: number, minItems: 3, maxItems: 3, description });
const nullable = (schema: Schema): Schema => ({ oneOf: [schema, { type: 'null' }] });

/**
 * The typed records the server sends, as JSON Schemas: each the wire form of a record in
 * `src/records/` (`SessionDetail`, `AssetOnWire`, `PlacementOnWire`, `QuickLook`, …), closed
 * (`additionalProperties: false`) so that a field the server sends and this document does not
 * describe fails the tests, which validate every response against it.
 */
export const SCHEMAS = {
  SessionResponse,
  ClaimResponse,
  Pose: PoseOnWire,
  QuickLook,
  PlacementWarnings,
  ByPlanePlacement: ByPlanePlacementOnWire,
  ByScanPlacement: ByScanPlacementOnWire,
  VirtualAnchorPlacement: VirtualAnchorPlacementOnWire,
  ByRefimagePlacement: ByRefimagePlacementOnWire,
  QuickLookPackage: record({
    usdz_url: {
      ...url,
      description: 'the USDZ that places itself in AR Quick Look (the plain USDZ when anchoring is none); made on its first request',
    },
    bytes: { ...nullable(integer), description: 'null until the package has been made (its first request)' },
    sha256: { ...nullable(sha256), description: 'null until the package has been made (its first request)' },
    anchoring: { type: 'string', enum: ['plane', 'image', 'none'] },
    reason: nullable(text),
  }),
  ModelAsset: record(
    {
      order: integer,
      source_name: text,
      format: { type: 'string', enum: ['ifc', 'ifczip', 'glb', 'usdz'] },
      usdz_delivery: {
        type: 'string',
        enum: ['converted', 'as_uploaded', 'repacked'],
        description:
          'converted: written from the model; as_uploaded: an ARKit-ready USDZ upload delivered byte for ' +
          'byte; repacked: one whose only faults were compression or alignment, its entries untouched',
      },
      preferred_format: { type: 'string', enum: ['reality', 'usdz'] },
      reality_url: {
        ...nullable(url),
        description:
          'the Reality file, when the operator configured a compiler (ARSESSION_REALITY_COMPILER: Apple publishes no ' +
          'writer) and it succeeded; null otherwise — a configured compiler that failed adds the warning reality_failed',
      },
      reality_status: {
        type: 'string',
        enum: ['made', 'not_configured', 'failed'],
        description:
          'why reality_url is what it is: made; not_configured (the server has no ARSESSION_REALITY_COMPILER: ' +
          'Apple publishes no Reality writer, so a macOS build host with Reality Composer ' +
          "Pro's tools provides one); failed (the compiler failed on this model, with the warning " +
          'reality_failed). The client rule holds either way: Reality when there is one, else USDZ',
      },
      usdz_url: url,
      glb_url: {
        ...nullable(url),
        description:
          'the same scene as GLB; each vertex names its element through EXT_mesh_features feature ids into an ' +
          'EXT_structural_metadata table (globalId, ifcClass, name). Null for sessions made before GLBs were delivered',
      },
      source_bytes: integer,
      usdz_bytes: integer,
      usdz_sha256: sha256,
      glb_bytes: nullable(integer),
      glb_sha256: nullable(sha256),
      triangles: integer,
      mesh_nodes: integer,
      draw_calls: integer,
      elements: integer,
      triangles_without_element: {
        ...nullable(integer),
        description:
          'delivered triangles no element owns: what a tap cannot name. Every other triangle maps to its source element ' +
          '(an IFC GlobalId, a GLB or USD node), through simplification, merging and stand-ins: in the USDZ as the ' +
          'indexed primvar primvars:element of each Mesh prim (one value per face); null for ' +
          'sessions made before it was counted',
      },
      bounds: record(
        { min: vec3('lowest corner'), max: vec3('highest corner') },
        [],
        "in this model's delivered frame, of the full model (placement is computed " +
          'on it; a simplified delivery lies within ar_budget.max_deviation_m of it)',
      ),
      offset: vec3("this model's own re-centring (Y-up, m)"),
      warnings: {
        type: 'array',
        description: 'what the conversion changed or dropped, never silently; the model was delivered',
        items: record({
          code: {
            type: 'string',
            enum: Object.keys(ASSET_WARNING_CODES),
            description: Object.entries(ASSET_WARNING_CODES)
              .map(([code, meaning]) => `${code}: ${meaning}`)
              .join('; '),
          },
          message: { ...text, description: "the same in words, with this model's figures and names" },
        }),
      },
      door_openings: integer,
      quick_look: nullable({ $ref: '#/components/schemas/QuickLookPackage' }),
      element_records: {
        ...nullable(
          record({
            url: {
              ...url,
              description: 'gzipped JSON: {schema, elements: {<id>: record}}, each record as GET …/elements/{global_id} answers it',
            },
            bytes: { ...integer, description: 'size of the file (bytes, gzipped)' },
            sha256: { ...sha256, description: 'SHA-256 of the file, hex (also its ETag)' },
            count: { ...integer, description: 'elements it holds' },
          }),
        ),
        description: "every element's record in one file, for an app that answers taps offline; null for sessions made before",
      },
      storeys: {
        ...nullable({ type: 'array', items: { $ref: '#/components/schemas/AssetStorey' } }),
        description:
          "the USDZ's storeys, bottom up (those without an elevation last): every prim of a storey lies under its Xform, " +
          'so an app hides or shows a storey by its prim_path, and each storey and element Xform carries an accessibility ' +
          'label and description (OpenUSD AccessibilityAPI); empty for a model without storeys (a GLB, a USDZ); null for ' +
          'sessions made before storeys were stated',
      },
      parts: {
        ...nullable({ $ref: '#/components/schemas/AssetParts' }),
        description:
          'a model over the AR budget is also delivered as parts a device loads where the user stands: ' +
          'one per storey, cut into neighbouring cells where a storey is over the budget, each within the ' +
          'budget with its walls, slabs and roofs as read; null for a model within the budget (or sessions made before parts)',
      },
      ar_budget: {
        ...nullable({ $ref: '#/components/schemas/ArBudget' }),
        description:
          'what the AR budget did to this model; null when the server runs ' +
          'without one (ARSESSION_AR_BUDGET=false) or for sessions made before it',
      },
    },
    ['door_openings'],
  ),
  ElementRecord: Type.Object(
    { order: Type.Integer({ minimum: 0, description: 'the model (model_assets order) it belongs to' }), ...ElementRecord.properties },
    { additionalProperties: false },
  ),
  PropertySets,
  AssetParts: AssetPartsOnWire,
  ModelPart,
  AssetStorey,
  PartStorey: PartStoreyOnWire,
  ArBudgetFigures: BudgetFiguresOnWire,
  ArBudget: ArBudgetOnWire,
  ArBudgetCategory: CategoryOnWire,
  SessionDetail: record({
    session_id: text,
    deeplink: url,
    created_at: { type: 'string', format: 'date-time' },
    expires_at: { type: 'string', format: 'date-time' },
    placement: {
      oneOf: [
        { $ref: '#/components/schemas/ByPlanePlacement' },
        { $ref: '#/components/schemas/ByScanPlacement' },
        { $ref: '#/components/schemas/VirtualAnchorPlacement' },
        { $ref: '#/components/schemas/ByRefimagePlacement' },
      ],
      description: 'what the AR client needs to place the model, in the delivered frame of the first model',
    },
    model_frame: record({
      up_axis: { const: 'y' },
      handedness: { const: 'right' },
      units: { const: 'm' },
      offset: vec3('a submitted point p lands at to_y_up(p) − offset'),
    }),
    model_assets: { type: 'array', items: { $ref: '#/components/schemas/ModelAsset' } },
    page_url: { ...url, description: 'the session page for people (HTML)' },
    preview_glb_url: {
      ...nullable(url),
      description: 'the first model with the placement drawn (GLB), as the page shows it; made on its first request',
    },
  }),
  SavedModel: record(
    {
      id: { ...text, description: 'its id, for DELETE /api/vision/v1/models/{model_id}' },
      session_id: { ...text, description: 'the session it was first sent with (which may have expired)' },
      source_name: { ...text, description: 'its file name as uploaded' },
      format: { type: 'string', enum: ['ifc', 'ifczip', 'glb', 'usdz'], description: 'the format it was read as' },
      bytes: { ...integer, description: 'its size as uploaded' },
      sha256: { ...sha256, description: 'SHA-256 of its bytes, hex' },
      created_at: { type: 'string', format: 'date-time', description: 'when it was saved' },
    },
    [],
    "A model saved to the key's account: GET …/models/{id}/file gives its bytes, DELETE …/models/{id} forgets it.",
  ),
  SavedModels: record({
    account: { ...text, description: "the key's account" },
    models: {
      type: 'array',
      description: 'newest first; a model is kept once per content (the same file sent again is not stored twice)',
      items: { $ref: '#/components/schemas/SavedModel' },
    },
    next_cursor: { ...nullable(text), description: 'pass as cursor for the next page; null on the last page' },
  }),
  AppSiteAssociation: record({
    applinks: record(
      {
        details: {
          type: 'array',
          items: record({
            appIDs: { type: 'array', items: text, description: 'the apps, each <Team ID>.<bundle id>' },
            components: {
              type: 'array',
              items: record({
                '/': { ...text, description: 'the paths they open' },
                comment: { ...text, description: 'what those paths are' },
              }),
              description: 'the links they open: session pages',
            },
          }),
          description: 'one entry: the configured apps and the links they open',
        },
      },
      [],
      'the apps that open links of this domain, and which links',
    ),
  }),
  Health: record({
    status: { const: 'ok' },
    version: {
      type: 'string',
      description:
        "the converter's version, e.g. 0.1.0+13: the package version, and after the " +
        '+ the revision of what it writes (the conversion cache keys entries by it)',
    },
  }),
  Readiness: record({
    status: { type: 'string', enum: ['ready', 'not_ready'] },
    checks: {
      type: 'object',
      additionalProperties: text,
      description:
        "each dependency (database, jobs, objects, data_dir, accepting): 'ok', or which way it failed ('cannot " +
        "be reached', 'is not writable', 'shutting down'); the error itself is in the server's log, never here",
    },
    in_flight: integer,
    capacity: integer,
  }),
  Problem: record(
    {
      type: { ...url, description: 'urn:arsession:problem:<code>' },
      title: text,
      status: { type: 'integer' },
      detail: text,
      code: text,
      errors: { type: 'array', items: record({ field: text, message: text, code: text }, ['code']), description: 'the fields at fault' },
      request_id: { type: 'string', description: 'also the X-Request-Id response header' },
      reason: { type: 'string', description: 'door_not_found: why no door was found' },
      file: { type: 'string', description: 'the uploaded file at fault' },
    },
    ['request_id', 'reason', 'file'],
    'RFC 9457 problem details with the fields at fault.',
  ),
} as const satisfies Record<string, Schema>;
