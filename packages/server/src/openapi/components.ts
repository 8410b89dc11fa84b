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
import { Problem } from '../records/Problem.js';
import { AppSiteAssociation, Health, Readiness } from '../records/ServiceStatus.js';
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

/**
 * The typed records the server sends, by their OpenAPI names: each declared once, as a TypeBox
 * schema whose `Static` is the record's type, in `src/records/` (`SessionDetail`, `ModelAsset`,
 * the placements, `Problem`, …) or `@arsession/convert/schemas` (what the converter reports).
 * Each is closed (`additionalProperties: false`), so that a field the server sends and this
 * document does not describe fails the tests, which validate every response against it.
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
  AppSiteAssociation,
  Health,
  Readiness,
  Problem,
} as const satisfies Record<string, Schema>;
