import type { Pose } from '../pose/pose.js';
import type { Vec3 } from '../types/vector.js';

/**
 * A door opening in the delivered frame (right-handed, Y-up, metres). Produced by corner
 * validation (by_scan mode 2) and by door detection (mode 1) alike.
 */
export interface Opening {
  /** Corners in the order BL, BR, TR, TL, as seen from the side `wallNormal` points to. */
  corners: [Vec3, Vec3, Vec3, Vec3];
  /** Unit, horizontal wall normal pointing toward the viewer's side. */
  wallNormal: Vec3;
  /** Mean of the bottom and top edge lengths (m). */
  width: number;
  /** Mean of the left and right edge lengths (m). */
  height: number;
  /**
   * The door frame: origin at the middle of the bottom edge, x to the viewer's right, y up,
   * z along `wallNormal` toward the viewer.
   */
  frame: Pose;
}
