import { vec3 } from 'gl-matrix';
import { toYUp } from '../axes/upAxis.js';
import { OpeningValidationError, type Problem } from '../errors/GeometryValidationError.js';
import { poseFromAxes } from '../pose/pose.js';
import type { UpAxis, Vec3 } from '../types/vector.js';
import { readDirection, readVec3 } from '../validation/readVector.js';
import { DOOR_SIZE_LIMITS, type DoorSizeLimits } from './doorSize.js';
import type { Opening } from './opening.js';

/** What a client sends for by_scan mode 2. */
export interface OpeningInput {
  /** Four points [BL, BR, TR, TL] (metres, in `coordinateSystem`). */
  corners: ReadonlyArray<readonly number[]>;
  /** Normal of the wall, pointing to the side the corners are named from. */
  wallNormal: readonly number[];
  /** Axis convention of the values above; default `y-up`. */
  coordinateSystem?: UpAxis;
}

/** Tolerances of {@link validateOpening}. */
export interface ValidateOpeningOptions {
  /** Largest distance of a corner from the plane of the four (m). Phone scans are noisy to ~1–2 cm. */
  maxPlaneDistance: number;
  /** Largest tilt of `wall_normal` out of the horizontal plane (degrees): walls are vertical. */
  maxNormalTiltDeg: number;
  /** Largest angle between `wall_normal` and the normal of the corners' own plane (degrees). */
  maxNormalDeviationDeg: number;
  /** Largest slope of the bottom edge BL→BR against the horizontal (degrees). */
  maxBottomSlopeDeg: number;
  /** Shortest edge accepted (m); shorter means two corners coincide. */
  minEdgeLength: number;
  /** Plausible door sizes. */
  size: DoorSizeLimits;
  /** Field names used in problems, so embedders with other request shapes can rename them. */
  fields: { corners: string; wallNormal: string };
}

/** Default tolerances: see each field of {@link ValidateOpeningOptions} for the reasoning. */
export const VALIDATE_OPENING_DEFAULTS: Readonly<ValidateOpeningOptions> = {
  maxPlaneDistance: 0.03,
  maxNormalTiltDeg: 15,
  maxNormalDeviationDeg: 15,
  maxBottomSlopeDeg: 10,
  minEdgeLength: 0.01,
  size: DOOR_SIZE_LIMITS,
  fields: { corners: 'alignment.corners', wallNormal: 'alignment.wall_normal' },
};

const CORNER_NAMES = ['BL', 'BR', 'TR', 'TL'] as const;
const UP: Vec3 = [0, 1, 0];
const DEG = 180 / Math.PI;

/**
 * Validates a door opening given by its corners and wall normal and returns it in Y-up, or throws
 * an {@link OpeningValidationError} listing every problem found.
 *
 * Left and right are judged looking at the opening from the side `wallNormal` points to, so with
 * the horizontal normal `n` the viewer's right is `r = up × n`, and BL→BR must run along `+r`.
 *
 * @example
 * ```ts
 * const opening = validateOpening({
 *   corners: [[-0.45, 0, 0], [0.45, 0, 0], [0.45, 2.1, 0], [-0.45, 2.1, 0]],
 *   wallNormal: [0, 0, 1],
 * });
 * opening.width;  // → 0.9
 * opening.height; // → 2.1
 * ```
 */
export function validateOpening(input: OpeningInput, options: Partial<ValidateOpeningOptions> = {}): Opening {
  const opts = { ...VALIDATE_OPENING_DEFAULTS, ...options };
  const F = opts.fields;
  const system: UpAxis = input.coordinateSystem ?? 'y-up';
  const problems: Problem[] = [];

  // 1. Shape and finiteness: nothing else can be judged without four finite points.
  const corners = readCorners(input.corners, F.corners, problems);
  const rawNormal = readDirection(input.wallNormal, F.wallNormal, problems, 'wall_normal');
  if (!corners) throw new OpeningValidationError(problems);
  const [bl, br, tr, tl] = corners.map((c) => toYUp([0, 0, 0], c, system)) as [Vec3, Vec3, Vec3, Vec3];
  const n = rawNormal ? toYUp([0, 0, 0], rawNormal, system) : undefined;

  // 2. The normal must be (nearly) horizontal: it names a side of a vertical wall.
  let nh: Vec3 | undefined;
  if (n) {
    const tilt = Math.asin(Math.min(1, Math.abs(n[1]))) * DEG;
    if (tilt > opts.maxNormalTiltDeg) {
      problems.push({
        field: F.wallNormal,
        code: 'normal_not_horizontal',
        message:
          `wall_normal is tilted ${tilt.toFixed(1)}° out of the horizontal (at most ` +
          `${opts.maxNormalTiltDeg}°); a wall normal points sideways, not up or down${coordinateHint(system)}`,
      });
    } else {
      nh = vec3.normalize([0, 0, 0], [n[0], 0, n[2]]) as Vec3;
    }
  }

  // 3. Coinciding corners.
  const pts = [bl, br, tr, tl];
  let degenerate = false;
  for (let i = 0; i < 4; i++) {
    const a = pts[i]!,
      b = pts[(i + 1) % 4]!;
    const len = vec3.distance(a, b);
    if (len < opts.minEdgeLength) {
      degenerate = true;
      problems.push({
        field: F.corners,
        code: 'degenerate_edge',
        message:
          `${CORNER_NAMES[i]} and ${CORNER_NAMES[(i + 1) % 4]} are ` +
          `${(len * 100).toFixed(1)} cm apart; corners must be distinct points`,
      });
    }
  }

  // 4. Plane of the corners (Newell's method: robust for any simple or slightly warped quad).
  const centroid = vec3.scale([0, 0, 0], vec3.add([0, 0, 0], vec3.add([0, 0, 0], bl, br), vec3.add([0, 0, 0], tr, tl)), 0.25) as Vec3;
  const newell: Vec3 = [0, 0, 0];
  for (let i = 0; i < 4; i++) {
    const a = pts[i]!,
      b = pts[(i + 1) % 4]!;
    newell[0] += (a[1] - b[1]) * (a[2] + b[2]);
    newell[1] += (a[2] - b[2]) * (a[0] + b[0]);
    newell[2] += (a[0] - b[0]) * (a[1] + b[1]);
  }
  const newellLen = vec3.length(newell);
  const planeNormal = newellLen > 1e-12 ? (vec3.scale([0, 0, 0], newell, 1 / newellLen) as Vec3) : undefined;
  if (!degenerate && planeNormal) {
    let worst = 0,
      worstIdx = 0;
    for (let i = 0; i < 4; i++) {
      const d = Math.abs(vec3.dot(vec3.sub([0, 0, 0], pts[i]!, centroid), planeNormal));
      if (d > worst) {
        worst = d;
        worstIdx = i;
      }
    }
    if (worst > opts.maxPlaneDistance) {
      problems.push({
        field: F.corners,
        code: 'not_planar',
        message:
          `the corners are not in one plane: ${CORNER_NAMES[worstIdx]} is ${(worst * 100).toFixed(1)} ` +
          `cm off the plane of the four (at most ${(opts.maxPlaneDistance * 100).toFixed(1)} cm)`,
      });
    }
  }

  // 5. Outline order, judged in the wall plane as the viewer sees it (x = right, y = up).
  //    Without a usable normal we cannot say which side is "right", so order checks wait for it.
  if (nh && !degenerate) {
    const right = vec3.cross([0, 0, 0], UP, nh) as Vec3;
    const q = pts.map((p) => [vec3.dot(p, right), p[1]] as const);
    problems.push(...outlineProblems(q, F.corners, F.wallNormal));

    // 6. The wall normal must agree with the corners' plane (either sign: a flipped normal is an order problem, reported above).
    if (planeNormal && n) {
      const dev = Math.acos(Math.min(1, Math.abs(vec3.dot(planeNormal, n)))) * DEG;
      if (dev > opts.maxNormalDeviationDeg) {
        problems.push({
          field: F.wallNormal,
          code: 'normal_not_perpendicular',
          message:
            `wall_normal is ${dev.toFixed(1)}° away from the perpendicular of the ` +
            `opening the corners describe (at most ${opts.maxNormalDeviationDeg}°)`,
        });
      }
    }
  }

  // 7. Bottom edge horizontal.
  if (!degenerate) {
    const e = vec3.sub([0, 0, 0], br, bl);
    const slope = Math.asin(Math.min(1, Math.abs(e[1]) / vec3.length(e))) * DEG;
    if (slope > opts.maxBottomSlopeDeg) {
      problems.push({
        field: F.corners,
        code: 'bottom_not_horizontal',
        message:
          `the bottom edge BL→BR slopes ${slope.toFixed(1)}° (at most ${opts.maxBottomSlopeDeg}°); ` +
          `BL and BR must be the two floor-level corners${coordinateHint(system)}`,
      });
    }
  }

  // 8. Size.
  const width = (vec3.distance(bl, br) + vec3.distance(tl, tr)) / 2;
  const height = (vec3.distance(bl, tl) + vec3.distance(br, tr)) / 2;
  if (!degenerate) {
    const s = opts.size;
    if (width < s.minWidth || width > s.maxWidth) {
      problems.push({
        field: F.corners,
        code: 'implausible_width',
        message:
          `the opening is ${width.toFixed(3)} m wide; a door opening is ` +
          `${s.minWidth}–${s.maxWidth} m wide (are the coordinates in metres?)`,
      });
    }
    if (height < s.minHeight || height > s.maxHeight) {
      problems.push({
        field: F.corners,
        code: 'implausible_height',
        message:
          `the opening is ${height.toFixed(3)} m high; a door opening is ` +
          `${s.minHeight}–${s.maxHeight} m high (are the coordinates in metres?)`,
      });
    }
  }

  if (problems.length > 0 || !nh) throw new OpeningValidationError(problems);

  const right = vec3.cross([0, 0, 0], UP, nh) as Vec3;
  const origin = vec3.scale([0, 0, 0], vec3.add([0, 0, 0], bl, br), 0.5) as Vec3;
  return {
    corners: [bl, br, tr, tl],
    wallNormal: nh,
    width,
    height,
    frame: poseFromAxes(origin, right, UP, nh),
  };
}

function readCorners(value: unknown, field: string, problems: Problem[]): Vec3[] | undefined {
  if (!Array.isArray(value)) {
    problems.push({ field, code: 'not_a_list', message: 'corners must be a list of 4 points [BL, BR, TR, TL], each [x, y, z]' });
    return undefined;
  }
  if (value.length !== 4) {
    problems.push({
      field,
      code: 'wrong_count',
      message: `corners must have exactly 4 points [BL, BR, TR, TL], got ${value.length}`,
    });
    return undefined;
  }
  const out: Vec3[] = [];
  for (let i = 0; i < 4; i++) {
    const v = readVec3(value[i], field, problems, `corner ${CORNER_NAMES[i]} (corners[${i}])`);
    if (v) out.push(v);
  }
  return out.length === 4 ? out : undefined;
}

/**
 * Problems with the order of the outline BL, BR, TR, TL given in wall-plane coordinates
 * (x to the viewer's right, y up). The correct outline runs counter-clockwise there.
 */
function outlineProblems(q: ReadonlyArray<readonly [number, number]>, cornersField: string, normalField: string): Problem[] {
  if (segmentsCross(q[0]!, q[1]!, q[2]!, q[3]!) || segmentsCross(q[1]!, q[2]!, q[3]!, q[0]!)) {
    return [
      {
        field: cornersField,
        code: 'edges_cross',
        message:
          'the outline BL→BR→TR→TL crosses itself: two corners are swapped; list them in the order BL, BR, TR, TL around the opening',
      },
    ];
  }
  const turns = [0, 1, 2, 3].map((i) => {
    const a = q[i]!,
      b = q[(i + 1) % 4]!,
      c = q[(i + 2) % 4]!;
    return (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
  });
  const positive = turns.filter((t) => t > 0).length;
  const negative = turns.filter((t) => t < 0).length;
  if (positive > 0 && negative > 0) {
    return [
      {
        field: cornersField,
        code: 'not_convex',
        message: 'the four corners do not form a convex quadrilateral; a door opening is a (near) rectangle',
      },
    ];
  }
  const bottomY = (q[0]![1] + q[1]![1]) / 2;
  const topY = (q[2]![1] + q[3]![1]) / 2;
  if (topY < bottomY) {
    return [
      {
        field: cornersField,
        code: 'upside_down',
        message: 'TR and TL lie below BL and BR: the corners are upside down; BL and BR are the floor-level corners',
      },
    ];
  }
  if (negative > 0) {
    return [
      {
        field: cornersField,
        code: 'mirrored_order',
        message:
          `seen from the side wall_normal points to, BR is left of BL: left and right ` +
          `are swapped, or ${normalField} points away from the viewer's side of the wall`,
      },
    ];
  }
  return [];
}

function segmentsCross(
  a: readonly [number, number],
  b: readonly [number, number],
  c: readonly [number, number],
  d: readonly [number, number],
): boolean {
  const o1 = orient(a, b, c),
    o2 = orient(a, b, d),
    o3 = orient(c, d, a),
    o4 = orient(c, d, b);
  return o1 * o2 < 0 && o3 * o4 < 0;
}

function orient(a: readonly [number, number], b: readonly [number, number], c: readonly [number, number]): number {
  return Math.sign((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
}

function coordinateHint(system: UpAxis): string {
  return system === 'y-up' ? ' (if the values come from a Z-up tool, send coordinate_system=z-up)' : '';
}
