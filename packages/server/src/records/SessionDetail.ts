import { componentRef } from '@arsession/convert/schemas';
import { type Static, Type } from '@sinclair/typebox';
import { ModelAsset, ModelFrame } from './AssetInfo.js';
import { orNull, url } from './wireSchemaHelpers.js';
import {
  ByPlanePlacementOnWire,
  ByRefimagePlacementOnWire,
  ByScanPlacementOnWire,
  type PlacementOnWire,
  VirtualAnchorPlacementOnWire,
} from './Placement.js';

/**
 * `GET /api/vision/v1/session/{id}/`: the detail record (contract.md). The one declaration of
 * its type and of the OpenAPI schema `SessionDetail`.
 */
export const SessionDetail = Type.Object(
  {
    session_id: Type.String(),
    deeplink: Type.String({ format: 'uri' }),
    created_at: Type.String({ format: 'date-time' }),
    expires_at: Type.String({ format: 'date-time' }),
    placement: Type.Unsafe<PlacementOnWire>({
      oneOf: [
        componentRef('ByPlanePlacement', ByPlanePlacementOnWire),
        componentRef('ByScanPlacement', ByScanPlacementOnWire),
        componentRef('VirtualAnchorPlacement', VirtualAnchorPlacementOnWire),
        componentRef('ByRefimagePlacement', ByRefimagePlacementOnWire),
      ],
      description: 'what the AR client needs to place the model, in the delivered frame of the first model',
    }),
    model_frame: ModelFrame,
    model_assets: Type.Array(componentRef('ModelAsset', ModelAsset)),
    page_url: Type.String({ format: 'uri', description: 'the session page for people (HTML)' }),
    preview_glb_url: orNull(url(), 'the first model with the placement drawn (GLB), as the page shows it; made on its first request'),
  },
  { additionalProperties: false },
);
/** The detail record (see the schema of the same name). */
export type SessionDetail = Static<typeof SessionDetail>;
