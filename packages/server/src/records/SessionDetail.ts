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
  /** The session's page for people: a 3D preview, "View in AR", the deep link as a QR code (HTML). */
  page_url: string;
  /** The first model with the placement drawn over it (GLB), as the page shows it; `null` for sessions made before there was one. */
  preview_glb_url: string | null;
}
