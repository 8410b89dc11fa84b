import { vec3 } from 'gl-matrix';
import type { Vec3 } from '../types/vector.js';
import type { AnchorFrame } from './anchorFrame.js';
import { AnchorFieldReader, type AnchorOptions } from './anchorFields.js';
import { frameFromNormalAndForward } from './frameFromNormalAndForward.js';

/** Fields of a `corner_directional` anchor (contract.md). */
export interface CornerDirectionalInput {
  anchorType?: string;
  corner: readonly number[];
  edge1Direction: readonly number[];
  edge2Direction: readonly number[];
  planeNormal: readonly number[];
}

/** A corner anchor's frame and the angle between its two edges. */
export interface CornerAnchorFrame extends AnchorFrame {
  kind: 'corner_directional';
  /** Angle between the two edges in the plane (degrees). */
  openingAngleDeg: number;
}

/** Edges closer than this to parallel or antiparallel (degrees) have no meaningful bisector. */
export const MIN_CORNER_ANGLE_DEG = 5;

/**
 * Frame of a corner anchor: origin at `corner`, y along `plane_normal`, x along the bisector of
 * the two edges (each first projected into the plane). `correctionDeg` is the larger of the two
 * edges' corrections.
 *
 * @example
 * ```ts
 * const f = cornerDirectionalFrame({
 *   corner: [0, 0, 0], edge1Direction: [1, 0, 0], edge2Direction: [0, 0, 1], planeNormal: [0, 1, 0],
 * });
 * f.openingAngleDeg; // → 90
 * ```
 */
export function cornerDirectionalFrame(input: CornerDirectionalInput, options: Partial<AnchorOptions> = {}): CornerAnchorFrame {
  const r = new AnchorFieldReader(options);
  r.anchorType(input.anchorType, 'corner_directional');
  const corner = r.point(input.corner, 'corner');
  const e1 = r.direction(input.edge1Direction, 'edge_1_direction');
  const e2 = r.direction(input.edge2Direction, 'edge_2_direction');
  const normal = r.direction(input.planeNormal, 'plane_normal');
  let frame: ReturnType<typeof frameFromNormalAndForward>;
  let openingAngleDeg = 0;
  if (corner && e1 && e2 && normal) {
    // Frame each edge on its own first: that checks it against the normal and projects it into the plane.
    const f1 = frameFromNormalAndForward(corner, normal, e1, r.field('edge_1_direction'), r.problems, r.options);
    const f2 = frameFromNormalAndForward(corner, normal, e2, r.field('edge_2_direction'), r.problems, r.options);
    if (f1 && f2) {
      const x1: Vec3 = [f1.pose.matrix[0]!, f1.pose.matrix[1]!, f1.pose.matrix[2]!];
      const x2: Vec3 = [f2.pose.matrix[0]!, f2.pose.matrix[1]!, f2.pose.matrix[2]!];
      openingAngleDeg = (Math.acos(Math.max(-1, Math.min(1, vec3.dot(x1, x2)))) * 180) / Math.PI;
      if (openingAngleDeg < MIN_CORNER_ANGLE_DEG || openingAngleDeg > 180 - MIN_CORNER_ANGLE_DEG) {
        r.problems.push({
          field: r.field('edge_2_direction'),
          code: 'edges_parallel',
          message:
            `the two edges are ${openingAngleDeg.toFixed(1)}° apart in the plane; a corner ` +
            `needs them between ${MIN_CORNER_ANGLE_DEG}° and ${180 - MIN_CORNER_ANGLE_DEG}°`,
        });
      } else {
        const bisector = vec3.normalize([0, 0, 0], vec3.add([0, 0, 0], x1, x2)) as Vec3;
        const f = frameFromNormalAndForward(corner, normal, bisector, r.field('edge_1_direction'), r.problems, r.options)!;
        frame = { pose: f.pose, correctionDeg: Math.max(f1.correctionDeg, f2.correctionDeg) };
      }
    }
  }
  r.finish();
  return { kind: 'corner_directional', pose: frame!.pose, correctionDeg: frame!.correctionDeg, openingAngleDeg };
}
