import type { Pose } from '../pose/pose.js';

/** The kinds of virtual anchor, one per by_virtual_anchor endpoint. */
export type AnchorKind = 'rectangle_short_side' | 'segment_directional' | 'circle_directional' | 'corner_directional';

/**
 * The rigid frame of a virtual anchor in Y-up metres: y along the plane normal, x along the
 * anchor's forward direction (in the plane), z = x × y.
 */
export interface AnchorFrame {
  kind: AnchorKind;
  pose: Pose;
  /**
   * How far (degrees) the given forward direction had to be turned to lie in the anchor's plane.
   * 0 for a direction that was already orthogonal to the normal.
   */
  correctionDeg: number;
}
