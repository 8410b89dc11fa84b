import { createPose, poseAxis, poseFromAxes, type Pose } from '../pose/pose.js';
import type { ReadonlyVec3, Vec3 } from '../types/vector.js';

/**
 * What a placement anchors to, in the delivered frame (Y-up metres), as AR Quick Look is to find it:
 * - `floor`: a point on a horizontal surface (by_plane's footprint anchor);
 * - `wall`: a point on a wall and the wall's normal (a door opening: its bottom centre);
 * - `surface`: a frame whose +Y is a surface's normal and +X a direction in it (a virtual anchor);
 * - `image`: a printed image's frame in ARKit's image-anchor convention (+Y out of the image, +X to
 *   its right, +Z toward its bottom edge).
 */
export type QuickLookTarget =
  | { kind: 'floor'; origin: ReadonlyVec3 }
  | { kind: 'wall'; origin: ReadonlyVec3; normal: ReadonlyVec3 }
  | { kind: 'surface'; pose: Pose }
  | { kind: 'image'; pose: Pose };

/**
 * How AR Quick Look anchors the package, and the anchor's frame in the delivered frame as Apple
 * defines anchors (`Preliminary_AnchoringAPI`): origin at the anchor's centre, +Y along its normal;
 * on a horizontal plane +Y is up; on a vertical plane +X runs level to the right as one faces it
 * and +Z down, as on an image anchor. Or why it cannot.
 */
export type QuickLookAnchor =
  | { type: 'plane'; alignment: 'horizontal' | 'vertical'; frame: Pose }
  | { type: 'image'; frame: Pose }
  | { type: 'none'; reason: string };

/** Options of {@link quickLookAnchor}. */
export interface QuickLookAnchorOptions {
  /** Largest tilt (degrees) of a surface's normal from up (horizontal) or from level (vertical) that is still taken as that plane. */
  toleranceDeg: number;
}

/** Defaults of {@link quickLookAnchor}. */
export const QUICK_LOOK_ANCHOR_DEFAULTS: Readonly<QuickLookAnchorOptions> = { toleranceDeg: 10 };

const UP: Vec3 = [0, 1, 0];

/**
 * The anchoring AR Quick Look can express for a placement: a horizontal plane for a floor or a
 * level surface, a vertical plane for a wall or an upright surface, the image for a printed image.
 * Quick Look's planes are level or plumb (it knows gravity), so a surface within `toleranceDeg` of
 * one is taken as it, its frame set upright; a surface between them, or one facing down, cannot be
 * expressed (`none`, with the reason). The model then stands at `inverse(frame)` in the anchor.
 *
 * @example
 * ```ts
 * quickLookAnchor({ kind: 'wall', origin: [0, 0, 1], normal: [0, 0, 1] });
 * // → { type: 'plane', alignment: 'vertical', frame: { position: [0, 0, 1], rotation: … } }
 * ```
 */
export function quickLookAnchor(target: QuickLookTarget, options: Partial<QuickLookAnchorOptions> = {}): QuickLookAnchor {
  const { toleranceDeg } = { ...QUICK_LOOK_ANCHOR_DEFAULTS, ...options };
  switch (target.kind) {
    case 'floor':
      return { type: 'plane', alignment: 'horizontal', frame: createPose(target.origin) };
    case 'image':
      return { type: 'image', frame: target.pose };
    case 'wall': {
      const frame = wallFrame(target.origin, target.normal);
      return frame
        ? { type: 'plane', alignment: 'vertical', frame }
        : { type: 'none', reason: 'the wall normal points straight up or down' };
    }
    case 'surface': {
      const normal = poseAxis([0, 0, 0], target.pose, 1);
      const tilt = (Math.acos(Math.max(-1, Math.min(1, normal[1]))) * 180) / Math.PI; // from up
      if (tilt <= toleranceDeg) return { type: 'plane', alignment: 'horizontal', frame: levelFrame(target.pose) };
      if (Math.abs(tilt - 90) <= toleranceDeg)
        return { type: 'plane', alignment: 'vertical', frame: wallFrame(target.pose.position, normal)! };
      if (tilt >= 180 - toleranceDeg)
        return {
          type: 'none',
          reason:
            `the anchor's plane faces down (${round(180 - tilt)}° from ` +
            `straight down); AR Quick Look anchors to floors, tables and walls`,
        };
      return {
        type: 'none',
        reason:
          `the anchor's plane is tilted ${round(tilt)}° from level; AR Quick Look ` +
          `anchors only to level (within ${toleranceDeg}°) or upright planes`,
      };
    }
  }
}

/** A level frame at the pose's origin, its +X the pose's +X laid level (world X when that is vertical). */
function levelFrame(pose: Pose): Pose {
  const x = poseAxis([0, 0, 0], pose, 0);
  const level: Vec3 = [x[0], 0, x[2]];
  const l = Math.hypot(level[0], level[2]);
  const ax: Vec3 = l > 1e-9 ? [level[0] / l, 0, level[2] / l] : [1, 0, 0];
  return poseFromAxes(pose.position, ax, UP, cross(ax, UP));
}

/** The vertical-plane frame at `origin`: +Y the level part of `normal`, +X = up × normal (right, facing the wall), +Z down. */
function wallFrame(origin: ReadonlyVec3, normal: ReadonlyVec3): Pose | undefined {
  const l = Math.hypot(normal[0], normal[2]);
  if (l < 1e-9) return undefined;
  const y: Vec3 = [normal[0] / l, 0, normal[2] / l];
  const x = cross(UP, y);
  return poseFromAxes(origin, x, y, cross(x, y));
}

function cross(a: ReadonlyVec3, b: ReadonlyVec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function round(deg: number): number {
  return Math.round(deg * 10) / 10;
}
