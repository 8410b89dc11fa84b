import {
  ArBudgetOnWire,
  BudgetFiguresOnWire,
  CategoryOnWire,
  ElementRecord,
  PartStoreyOnWire,
  PropertySets,
} from '@arsession/convert/schemas';
import { Type } from '@sinclair/typebox';
import { AssetPartsOnWire, AssetStorey, ModelAsset, ModelPart, QuickLookPackage } from '../records/AssetInfo.js';
import { SavedModelOnWire, SavedModelsOnWire } from '../records/SavedModelOnWire.js';
import { SessionDetail } from '../records/SessionDetail.js';
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

const integer: Schema = { type: 'integer', minimum: 0 };
const text: Schema = { type: 'string' };
const url: Schema = { type: 'string', format: 'uri' };
const sha256: Schema = { type: 'string', pattern: '^[0-9a-f]{64}$' };
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
  QuickLookPackage,
  ModelAsset,
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
  SessionDetail,
  SavedModel: SavedModelOnWire,
  SavedModels: SavedModelsOnWire,
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
