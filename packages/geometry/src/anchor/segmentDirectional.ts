import { vec3 } from 'gl-matrix';
import type { Vec3 } from '../types/vector.js';
import type { AnchorFrame } from './anchorFrame.js';
import { AnchorFieldReader, type AnchorOptions } from './anchorFields.js';
import { frameFromNormalAndForward } from './frameFromNormalAndForward.js';

/** Where a segment anchor's points were taken; only `model_surface` is defined by the spec. */
export type PlacementSource = 'model_surface';

/** Fields of a `segment_directional` anchor. */
export interface SegmentDirectionalInput {
  anchorType?: string;
  segmentPoint1: readonly number[];
  segmentPoint2: readonly number[];
  planeNormal: readonly number[];
  /** Default `model_surface`. */
  placementSource?: string;
}

/** A segment anchor's frame and length. */
export interface SegmentAnchorFrame extends AnchorFrame {
  kind: 'segment_directional';
  length: number;
  placementSource: PlacementSource;
}

const PLACEMENT_SOURCES: readonly string[] = ['model_surface'];
/** Shortest segment accepted (m): below this its direction is noise. */
export const MIN_SEGMENT_LENGTH = 0.01;

/**
 * Frame of a segment anchor: origin at the segment's midpoint (robust to a length mismatch between
 * model and room), y along `plane_normal`, x from point 1 toward point 2 (projected into the plane).
 *
 * @example
 * ```ts
 * const f = segmentDirectionalFrame({ segmentPoint1: [0, 0, 0], segmentPoint2: [2, 0, 0], planeNormal: [0, 1, 0] });
 * f.pose.position; // → [1, 0, 0]
 * f.length;        // → 2
 * ```
 */
export function segmentDirectionalFrame(input: SegmentDirectionalInput, options: Partial<AnchorOptions> = {}): SegmentAnchorFrame {
  const r = new AnchorFieldReader(options);
  r.anchorType(input.anchorType, 'segment_directional');
  const p1 = r.point(input.segmentPoint1, 'segment_point_1');
  const p2 = r.point(input.segmentPoint2, 'segment_point_2');
  const normal = r.direction(input.planeNormal, 'plane_normal');
  const source = input.placementSource ?? 'model_surface';
  if (!PLACEMENT_SOURCES.includes(source)) {
    r.problems.push({
      field: r.field('placement_source'),
      code: 'unknown_value',
      message: `placement_source ${JSON.stringify(source)} is not supported; use one of ${PLACEMENT_SOURCES.join(', ')}`,
    });
  }
  let frame: ReturnType<typeof frameFromNormalAndForward>;
  let length = 0;
  if (p1 && p2) {
    length = vec3.distance(p1, p2);
    if (!Number.isFinite(length)) {
      // Two finite points near ±1.8e308 can be further apart than a double holds.
      r.problems.push({
        field: r.field('segment_point_2'),
        code: 'out_of_range',
        message: 'segment_point_1 and segment_point_2 are too far apart to measure (coordinates near ±1e308); send them in metres',
      });
    } else if (length < MIN_SEGMENT_LENGTH) {
      r.problems.push({
        field: r.field('segment_point_2'),
        code: 'degenerate_segment',
        message:
          `segment_point_1 and segment_point_2 are ${(length * 100).toFixed(2)} cm apart ` +
          `(at least ${MIN_SEGMENT_LENGTH * 100} cm); they must be two distinct points`,
      });
    } else if (normal) {
      const mid = vec3.lerp([0, 0, 0], p1, p2, 0.5) as Vec3;
      const dir = vec3.scale([0, 0, 0], vec3.sub([0, 0, 0], p2, p1), 1 / length) as Vec3;
      frame = frameFromNormalAndForward(mid, normal, dir, r.field('segment_point_2'), r.problems, r.options);
    }
  }
  r.finish();
  return { kind: 'segment_directional', pose: frame!.pose, correctionDeg: frame!.correctionDeg, length, placementSource: 'model_surface' };
}
