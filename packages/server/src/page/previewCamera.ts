import type { PlacementOnWire } from '../records/Placement.js';

/** Where the session page's 3D preview starts looking from (model-viewer's camera-target and camera-orbit). */
export interface PreviewCamera {
  /** The point looked at, in the delivered frame (metres). */
  target: [number, number, number];
  /** Azimuth around +Y from +Z toward +X (degrees), as model-viewer's theta. */
  thetaDeg: number;
  /** Angle down from +Y (degrees), as model-viewer's phi. */
  phiDeg: number;
}

/** Not quite level: a picture from eye height shows the floor an opening stands on (90° − this at a level normal). */
const LOOK_DOWN_DEG = 12;
/** model-viewer's default limits on phi: a camera beyond them is moved back inside. */
const MIN_PHI_DEG = 22.5,
  MAX_PHI_DEG = 157.5;

/**
 * The preview camera that shows a placement from the side it is meant to be seen from: a door
 * opening from the viewer's side of its wall, a reference image from in front of its face, at
 * model-viewer's own distance for the whole model (closer, an interior door would be seen through
 * the walls around it, or not at all). Other placements (a plane, an anchor) are best seen with
 * model-viewer's own framing: undefined.
 *
 * @example
 * ```ts
 * previewCamera(detail.placement); // { target: [2, 1.05, 0], thetaDeg: 90, phiDeg: 78 } for a door facing +X
 * ```
 */
export function previewCamera(placement: PlacementOnWire): PreviewCamera | undefined {
  if (placement.method === 'by_scan') {
    const [bl, , tr] = placement.corners as [number[], number[], number[]];
    const target = [0, 1, 2].map((k) => (bl[k]! + tr[k]!) / 2) as [number, number, number];
    return facing(target, placement.wall_normal);
  }
  if (placement.method === 'by_refimage') {
    // The image's normal is the pose's +Y: the matrix's second column.
    const m = placement.pose.matrix;
    return facing(placement.pose.position as [number, number, number], [m[4]!, m[5]!, m[6]!]);
  }
  return undefined;
}

function facing(target: [number, number, number], normal: readonly number[]): PreviewCamera {
  const [x, y, z] = normal as [number, number, number];
  const length = Math.hypot(x, y, z) || 1;
  const horizontal = Math.hypot(x, z) / length;
  const thetaDeg = horizontal > 1e-6 ? (Math.atan2(x, z) * 180) / Math.PI : 0;
  // Along the normal, whatever way it faces (a wall, an image on a table or a sloping ceiling),
  // tilted down the most where the normal is level; a step between an upright and a lying view
  // would show an image tilted near the step almost edge-on.
  const alongNormal = (Math.acos(Math.max(-1, Math.min(1, y / length))) * 180) / Math.PI;
  const phiDeg = Math.min(MAX_PHI_DEG, Math.max(MIN_PHI_DEG, alongNormal - LOOK_DOWN_DEG * horizontal * horizontal));
  return { target, thetaDeg: round(thetaDeg), phiDeg: round(phiDeg) };
}

const round = (v: number) => Math.round(v * 1000) / 1000 + 0;
