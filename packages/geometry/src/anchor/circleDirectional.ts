import type { AnchorFrame } from './anchorFrame.js';
import { AnchorFieldReader, type AnchorOptions } from './anchorFields.js';
import { frameFromNormalAndForward } from './frameFromNormalAndForward.js';

/** Fields of a `circle_directional` anchor (contract.md). */
export interface CircleDirectionalInput {
  anchorType?: string;
  center: readonly number[];
  radius: number;
  planeNormal: readonly number[];
  /** The anchor's forward, in the circle's plane. */
  direction: readonly number[];
}

/** A circle anchor's frame and radius. */
export interface CircleAnchorFrame extends AnchorFrame {
  kind: 'circle_directional';
  radius: number;
}

/**
 * Frame of a circle anchor: origin at `center`, y along `plane_normal`, x along `direction`
 * (projected into the circle's plane).
 *
 * @example
 * ```ts
 * const f = circleDirectionalFrame({ center: [1, 0, 2], radius: 0.5, planeNormal: [0, 1, 0], direction: [0, 0, -1] });
 * f.pose.position; // → [1, 0, 2]
 * ```
 */
export function circleDirectionalFrame(input: CircleDirectionalInput, options: Partial<AnchorOptions> = {}): CircleAnchorFrame {
  const r = new AnchorFieldReader(options);
  r.anchorType(input.anchorType, 'circle_directional');
  const center = r.point(input.center, 'center');
  const radius = r.length(input.radius, 'radius');
  const normal = r.direction(input.planeNormal, 'plane_normal');
  const forward = r.direction(input.direction, 'direction');
  const frame =
    center && normal && forward
      ? frameFromNormalAndForward(center, normal, forward, r.field('direction'), r.problems, r.options)
      : undefined;
  r.finish();
  return { kind: 'circle_directional', pose: frame!.pose, correctionDeg: frame!.correctionDeg, radius: radius! };
}
