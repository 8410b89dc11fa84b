import { footprintPose, type Bounds } from '@arsession/geometry';
import type { ByPlanePlacement } from '../records/Placement.js';
import type { PlacementMethod } from './PlacementMethod.js';
import { deliveredPose } from './poseJson.js';

/**
 * by_plane: the model stands on a detected plane by its footprint anchor, the bottom centre of
 * the bounds of all its models (each model's delivered bounds moved into the first one's frame).
 */
export const byPlane: PlacementMethod<Record<string, never>, ByPlanePlacement> = {
  path: 'by_plane',
  method: 'by_plane',
  requiresKey: false,
  form: [],
  read: () => ({}),
  place(_input, { primary, all }) {
    const bounds: Bounds = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
    for (const m of all) {
      for (let k = 0; k < 3; k++) {
        const shift = m.offset[k]! - primary.offset[k]!;
        bounds.min[k] = Math.min(bounds.min[k]!, m.bounds.min[k]! + shift);
        bounds.max[k] = Math.max(bounds.max[k]!, m.bounds.max[k]! + shift);
      }
    }
    return { method: 'by_plane', anchor: deliveredPose(footprintPose(bounds), [0, 0, 0]) };
  },
};
