import type { AssetOnWire, ModelFrame } from './AssetInfo.js';
import type { PlacementOnWire } from './Placement.js';

/** `GET /api/vision/v1/session/{id}/`: the detail record (contract.md). */
export interface SessionDetail {
  session_id: string;
  deeplink: string;
  created_at: string;
  expires_at: string;
  placement: PlacementOnWire;
  model_frame: ModelFrame;
  model_assets: AssetOnWire[];
}
