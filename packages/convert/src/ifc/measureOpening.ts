import type { Vec3 } from '@arsession/geometry';
import type { OpeningFace } from './DoorOpeningRecord.js';

/** What {@link measureOpening} needs: the opening solid and, when known, its wall and the door's axis. */
export interface MeasureOpeningInput {
  /** Triangles of the opening solid in the delivered frame. */
  positions: Float32Array;
  indices: Uint32Array;
  /** Vertices of the host wall (delivered frame), to clamp the faces to the wall's surfaces. */
  wallPositions?: readonly Float32Array[];
  /** A horizontal direction close to the wall normal (e.g. the door placement's y axis). */
  normalHint?: Vec3;
}

/** The measured opening. */
export interface MeasuredOpening {
  width: number;
  height: number;
  thickness: number;
  faces: [OpeningFace, OpeningFace];
}

const UP: Vec3 = [0, 1, 0];

/**
 * Measures a door opening from its solid: the wall normal from the solid's vertical faces (their
 * area-weighted orientation modulo 90°, disambiguated by the door's axis or, without one, by the
 * thinner extent), then the clear rectangle on each wall face. Openings are often modelled deeper
 * than the wall, so faces are clamped to the wall's own surfaces when the wall is known.
 */
export function measureOpening(input: MeasureOpeningInput): MeasuredOpening | undefined {
  const { positions: p, indices } = input;
  // Vertical faces of a box have normals at θ, θ+90°, θ+180°, θ+270°: 4θ is the same for all.
  let c4 = 0,
    s4 = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3,
      b = indices[t + 1]! * 3,
      c = indices[t + 2]! * 3;
    const ux = p[b]! - p[a]!,
      uy = p[b + 1]! - p[a + 1]!,
      uz = p[b + 2]! - p[a + 2]!;
    const vx = p[c]! - p[a]!,
      vy = p[c + 1]! - p[a + 1]!,
      vz = p[c + 2]! - p[a + 2]!;
    const nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    const area2 = Math.hypot(nx, ny, nz);
    if (area2 === 0 || Math.abs(ny) > 0.2 * area2) continue;
    const theta = Math.atan2(nz, nx);
    c4 += area2 * Math.cos(4 * theta);
    s4 += area2 * Math.sin(4 * theta);
  }
  if (c4 === 0 && s4 === 0) return undefined;
  const theta = Math.atan2(s4, c4) / 4;
  const axisA: Vec3 = [Math.cos(theta), 0, Math.sin(theta)];
  const axisB: Vec3 = [-Math.sin(theta), 0, Math.cos(theta)];
  const extent = (d: Vec3) => range(p, d);
  const n = chooseNormal(input, axisA, axisB, extent);
  const r: Vec3 = [UP[1] * n[2] - UP[2] * n[1], UP[2] * n[0] - UP[0] * n[2], UP[0] * n[1] - UP[1] * n[0]];
  const [r0, r1] = extent(r),
    [y0, y1] = extent(UP);
  let [d0, d1] = extent(n);
  if (input.wallPositions?.length) {
    const [w0, w1] = wallDepth(input.wallPositions, r, n, r0 - 0.3, r1 + 0.3, y0, y1);
    if (w1 > w0 && w0 < d1 && w1 > d0) {
      d0 = Math.max(d0, w0);
      d1 = Math.min(d1, w1);
    }
  }
  const point = (rr: number, yy: number, dd: number): Vec3 => [
    rr * r[0] + yy * UP[0] + dd * n[0],
    rr * r[1] + yy * UP[1] + dd * n[1],
    rr * r[2] + yy * UP[2] + dd * n[2],
  ];
  const front: OpeningFace = { normal: n, corners: [point(r0, y0, d1), point(r1, y0, d1), point(r1, y1, d1), point(r0, y1, d1)] };
  // Seen from the other side, left and right swap.
  const back: OpeningFace = {
    normal: [-n[0], -n[1], -n[2]],
    corners: [point(r1, y0, d0), point(r0, y0, d0), point(r0, y1, d0), point(r1, y1, d0)],
  };
  return { width: r1 - r0, height: y1 - y0, thickness: d1 - d0, faces: [front, back] };
}

/**
 * Which of the opening box's two horizontal axes is the wall normal. The host wall decides first
 * (it is thin across its normal near the opening); then the door's axis; then the thinner side of
 * the box, which fails only for a door narrower than its wall is thick.
 */
function chooseNormal(input: MeasureOpeningInput, a: Vec3, b: Vec3, extent: (d: Vec3) => [number, number]): Vec3 {
  if (input.wallPositions?.length) {
    const [y0, y1] = extent(UP);
    const depthAcross = (n: Vec3, along: Vec3) => {
      const [s0, s1] = extent(along);
      const [w0, w1] = wallDepth(input.wallPositions!, along, n, s0 - 0.3, s1 + 0.3, y0, y1);
      return w1 > w0 ? w1 - w0 : Infinity;
    };
    const da = depthAcross(a, b),
      db = depthAcross(b, a);
    if (Number.isFinite(da) || Number.isFinite(db)) return da <= db ? a : b;
  }
  const h = input.normalHint;
  if (h && Math.hypot(h[0], h[2]) > 0.5) {
    return Math.abs(h[0] * a[0] + h[2] * a[2]) >= Math.abs(h[0] * b[0] + h[2] * b[2]) ? a : b;
  }
  const [a0, a1] = extent(a),
    [b0, b1] = extent(b);
  return a1 - a0 <= b1 - b0 ? a : b;
}

function range(p: Float32Array, d: Vec3): [number, number] {
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < p.length; i += 3) {
    const s = p[i]! * d[0] + p[i + 1]! * d[1] + p[i + 2]! * d[2];
    if (s < lo) lo = s;
    if (s > hi) hi = s;
  }
  return [lo, hi];
}

function wallDepth(
  walls: readonly Float32Array[],
  r: Vec3,
  n: Vec3,
  rMin: number,
  rMax: number,
  yMin: number,
  yMax: number,
): [number, number] {
  let lo = Infinity,
    hi = -Infinity;
  for (const p of walls) {
    for (let i = 0; i < p.length; i += 3) {
      const x = p[i]!,
        y = p[i + 1]!,
        z = p[i + 2]!;
      if (y < yMin - 0.01 || y > yMax + 0.01) continue;
      const along = x * r[0] + z * r[2];
      if (along < rMin || along > rMax) continue;
      const depth = x * n[0] + z * n[2];
      if (depth < lo) lo = depth;
      if (depth > hi) hi = depth;
    }
  }
  return [lo, hi];
}
