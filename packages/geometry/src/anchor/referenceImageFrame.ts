import { poseAxis, poseFromAxes } from '../pose/pose.js';
import type { Vec3 } from '../types/vector.js';
import type { AnchorFrame } from './anchorFrame.js';
import { AnchorFieldReader, type AnchorOptions } from './anchorFields.js';
import { frameFromNormalAndForward } from './frameFromNormalAndForward.js';

/** Where a printed reference image sits on the model (contract.md, by_refimage). */
export interface ReferenceImageInput {
  /** Centre of the printed image (m). */
  center: readonly number[];
  /** Normal of the image's face, pointing away from the surface it is fixed to. */
  normal: readonly number[];
  /** The image's up direction, in its plane. */
  up: readonly number[];
  /** Printed width of the image (m): what ARKit needs to detect it at the right scale. */
  physicalWidth: number;
}

/** A reference image's frame and printed width. */
export interface ReferenceImageFrame extends Omit<AnchorFrame, 'kind'> {
  kind: 'reference_image';
  physicalWidth: number;
}

/**
 * Frame of a reference image in ARKit's image-anchor convention: origin at the image centre,
 * y along the face normal, x toward the image's right, z toward its bottom edge. A detected
 * `ARImageAnchor` has this same frame, so the model's pose is this frame's inverse times the anchor.
 *
 * @example
 * ```ts
 * const f = referenceImageFrame({ center: [0, 1.5, 0], normal: [0, 0, 1], up: [0, 1, 0], physicalWidth: 0.3 });
 * f.pose.rotation; // → [0.7071, 0, 0, 0.7071]: y turned onto +z, z onto −y
 * ```
 */
export function referenceImageFrame(input: ReferenceImageInput, options: Partial<AnchorOptions> = {}): ReferenceImageFrame {
  const r = new AnchorFieldReader({ fieldPrefix: 'reference_image', ...options });
  const center = r.point(input.center, 'center');
  const normal = r.direction(input.normal, 'normal');
  const up = r.direction(input.up, 'up');
  const width = r.length(input.physicalWidth, 'physical_width');
  // y = normal, x = up (in the plane); the image frame turns that about y: right = up × normal.
  const upFrame = center && normal && up ? frameFromNormalAndForward(center, normal, up, r.field('up'), r.problems, r.options) : undefined;
  r.finish();
  const { pose, correctionDeg } = upFrame!;
  const inPlaneUp = poseAxis([0, 0, 0], pose, 0);
  const right = poseAxis([0, 0, 0], pose, 2);
  const down: Vec3 = [-inPlaneUp[0], -inPlaneUp[1], -inPlaneUp[2]];
  return {
    kind: 'reference_image',
    pose: poseFromAxes(pose.position, right, poseAxis([0, 0, 0], pose, 1), down),
    correctionDeg,
    physicalWidth: width!,
  };
}
