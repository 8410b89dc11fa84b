import type { PlacementWarning } from './warningCodes.js';
import type { PoseJson } from '../placement/poseJson.js';

/**
 * How AR Quick Look anchors the session's packages (each asset's `quick_look` file): Apple's
 * anchoring schema, with the anchor's frame in the delivered frame (origin at the anchor's centre,
 * +Y its normal; on an upright plane or an image +X level to the right and +Z down); or `none`
 * with the reason (then the packages open unanchored, as the plain USDZ does).
 */
export type QuickLook =
  | { anchoring: 'plane'; alignment: 'horizontal' | 'vertical'; frame: PoseJson }
  | { anchoring: 'image'; frame: PoseJson; physical_width: number }
  | { anchoring: 'none'; reason: string };

/** by_plane: the footprint anchor (bottom centre of every model's bounds) in the delivered frame. */
export interface ByPlanePlacement {
  method: 'by_plane';
  anchor: PoseJson;
}

/** How by_scan mode 1 found its door. */
export interface DoorDetection {
  method: 'semantic' | 'geometric';
  /** 0–1. */
  confidence: number;
  /** The model element the opening belongs to, when the semantics name it. */
  source: { id: string; name?: string } | null;
}

/** by_scan: the door opening, detected (mode 1) or given (mode 2), in the delivered frame. */
export interface ByScanPlacement {
  method: 'by_scan';
  found: 'detected' | 'given';
  /** Bottom-left, bottom-right, top-right, top-left. */
  corners: number[][];
  wall_normal: number[];
  width: number;
  height: number;
  frame: PoseJson;
  detection?: DoorDetection;
}

/** What every virtual anchor states; each kind adds its sizes. */
interface AnchorPlacementBase {
  method: 'by_virtual_anchor';
  pose: PoseJson;
  /** How far the sent direction was turned to be perpendicular to the plane normal (degrees). */
  correction_deg: number;
}

/** Each anchor kind's sizes (metres; the corner's angle in degrees). */
export type AnchorSizes =
  | { anchor_type: 'rectangle_short_side'; width: number; height: number }
  | { anchor_type: 'segment_directional'; length: number; placement_source: string }
  | { anchor_type: 'circle_directional'; radius: number }
  | { anchor_type: 'corner_directional'; opening_angle_deg: number };

/** by_virtual_anchor: the anchor frame of the endpoint's kind, with its sizes. */
export type VirtualAnchorPlacement = AnchorPlacementBase & AnchorSizes;

/** by_refimage as stored: the image frame and the name of the image among the session's files. */
export interface ByRefimagePlacement {
  method: 'by_refimage';
  pose: PoseJson;
  physical_width: number;
  correction_deg: number;
  image_file: string;
}

/** A session's placement as a method states it: one of the four methods' records. */
export type Placement = ByPlanePlacement | ByScanPlacement | VirtualAnchorPlacement | ByRefimagePlacement;

/**
 * A session's placement as stored: the method's record and how AR Quick Look anchors it
 * (`quick_look`; absent for sessions made before packages anchored themselves).
 */
export type StoredPlacement = Placement & { quick_look?: QuickLook; warnings?: PlacementWarning[] };

/**
 * A placement as the detail record shows it: the reference image as a URL instead of a file name, and always its `quick_look` (`null`
 * when unknown).
 */
export type PlacementOnWire = (
  | Exclude<Placement, ByRefimagePlacement>
  | (Omit<ByRefimagePlacement, 'image_file'> & { image_url: string })
) & { quick_look: QuickLook | null; warnings: PlacementWarning[] };

/**
 * The placement of the detail record: the stored one, with the reference image's file name made
 * into its URL under `filesUrl`.
 *
 * @example
 * ```ts
 * placementOnWire(session.placement, `${base}/api/vision/v1/session/${id}/files/`);
 * ```
 */
export function placementOnWire(placement: StoredPlacement, filesUrl: string): PlacementOnWire {
  // Sessions made before placements were checked for plausibility have no warnings: none, not absent.
  const quickLook = placement.quick_look ?? null,
    warnings = placement.warnings ?? [];
  if (placement.method !== 'by_refimage') return { ...placement, quick_look: quickLook, warnings };
  const { image_file: imageFile, ...rest } = placement;
  return { ...rest, image_url: filesUrl + imageFile, quick_look: quickLook, warnings };
}
