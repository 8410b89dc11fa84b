import type { AssetInfo, ModelFrame } from '../../src/records/AssetInfo.js';
import type { ByPlanePlacement } from '../../src/records/Placement.js';
import type { StoredAsset } from '../../src/store/SessionStore.js';

/** A by_plane placement at the origin, as the store keeps it. */
export const PLACEMENT_AT_ORIGIN: ByPlanePlacement = {
  method: 'by_plane',
  anchor: { position: [0, 0, 0], rotation: [0, 0, 0, 1], matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] },
};

/** The delivered frame of a model that needed no re-centring. */
export const MODEL_FRAME: ModelFrame = { up_axis: 'y', handedness: 'right', units: 'm', offset: [0, 0, 0] };

/** One converted GLB asset (a 12-triangle box) delivered as `0.usdz` and `0.glb`. */
export function boxAsset(order = 0): StoredAsset {
  const info: AssetInfo = {
    format: 'glb',
    usdz_delivery: 'converted',
    preferred_format: 'usdz',
    usdz_file: `${order}.usdz`,
    glb_file: `${order}.glb`,
    reality_file: null,
    source_bytes: 1664,
    usdz_bytes: 1,
    usdz_sha256: '0'.repeat(64),
    glb_bytes: 1,
    glb_sha256: '0'.repeat(64),
    triangles: 12,
    mesh_nodes: 1,
    draw_calls: 1,
    elements: 1,
    bounds: { min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] },
    offset: [0, 0, 0],
    warnings: [],
    quick_look: null,
  };
  return { order, sourceName: 'm.glb', info };
}
