import type { AnchorFrame } from './anchorFrame.js';
import { AnchorFieldReader, type AnchorOptions } from './anchorFields.js';
import { frameFromNormalAndForward } from './frameFromNormalAndForward.js';

/** Fields of a `rectangle_short_side` anchor (the names mirror `virtual_anchor.*`). */
export interface RectangleShortSideInput {
  anchorType?: string;
  center: readonly number[];
  width: number;
  height: number;
  planeNormal: readonly number[];
  shortSideDirection: readonly number[];
}

/** A rectangle anchor's frame and size. */
export interface RectangleAnchorFrame extends AnchorFrame {
  kind: 'rectangle_short_side';
  width: number;
  height: number;
}

/**
 * Frame of a rectangle anchor: origin at `center`, y along `plane_normal`, x along the short side
 * direction (projected into the plane).
 *
 * @example
 * ```ts
 * const f = rectangleShortSideFrame({
 *   center: [0, 0, 0], width: 0.6, height: 1.2, planeNormal: [0, 1, 0], shortSideDirection: [1, 0, 0],
 * });
 * f.pose.rotation; // → [0, 0, 0, 1]
 * ```
 */
export function rectangleShortSideFrame(input: RectangleShortSideInput, options: Partial<AnchorOptions> = {}): RectangleAnchorFrame {
  const r = new AnchorFieldReader(options);
  r.anchorType(input.anchorType, 'rectangle_short_side');
  const center = r.point(input.center, 'center');
  const width = r.length(input.width, 'width');
  const height = r.length(input.height, 'height');
  const normal = r.direction(input.planeNormal, 'plane_normal');
  const forward = r.direction(input.shortSideDirection, 'short_side_direction');
  const frame =
    center && normal && forward
      ? frameFromNormalAndForward(center, normal, forward, r.field('short_side_direction'), r.problems, r.options)
      : undefined;
  r.finish();
  return { kind: 'rectangle_short_side', pose: frame!.pose, correctionDeg: frame!.correctionDeg, width: width!, height: height! };
}
