import type { Bounds } from '@arsession/geometry';
import type { Camera } from './camera.js';
import { fitDistance } from './fitDistance.js';
import type { View } from './View.js';

/** Options of {@link lineViews} and {@link isLine}. */
export interface LineViewsOptions {
  /** Width ÷ height of the picture the cameras are framed for. */
  aspect: number;
  /** A model is a line when its longer horizontal side is this many times its shorter one… */
  ratio: number;
  /** …or at least this long (m): no building is. */
  length: number;
  /**
   * Length of line the close views are about (m): a few sleepers' worth is not enough to see a
   * curve, a kilometre too much to see a sleeper.
   */
  stretch: number;
  /** Vertical field of view of the plan and the stretch (degrees). */
  fovY: number;
  /** How far the stretch view looks down on the line (degrees above the horizon). */
  elevation: number;
  /** How far round from square on the stretch is seen (degrees), so both its side and its length show. */
  skew: number;
  /** Horizontal field of view along the line (degrees). */
  trackFovX: number;
  /** Height of the eye above what it stands on (m). */
  eyeHeight: number;
  /** Share of the picture the framed views leave free round their box, each side. */
  margin: number;
}

/** Defaults of {@link lineViews}: a 30 m stretch, seen 30° from above and 30° round from square on. */
export const LINE_VIEWS_DEFAULTS: Readonly<LineViewsOptions> = {
  aspect: 1024 / 640,
  ratio: 8,
  length: 1000,
  stretch: 30,
  fovY: 35,
  elevation: 30,
  skew: 30,
  trackFovX: 90,
  eyeHeight: 1.6,
  margin: 0.04,
};

/**
 * Whether a model's box is a line's — a railway, a road, a pipeline — rather than a building's:
 * framed whole, a line kilometres long is a thread across the picture, and a building's views
 * (outside, façade, inside) say nothing of it.
 *
 * @example
 * ```ts
 * isLine({ min: [0, 0, 0], max: [5000, 30, 200] }); // → true
 * ```
 */
export function isLine(bounds: Bounds, options: Partial<Pick<LineViewsOptions, 'ratio' | 'length'>> = {}): boolean {
  const { ratio, length } = { ...LINE_VIEWS_DEFAULTS, ...options };
  const dx = bounds.max[0] - bounds.min[0],
    dz = bounds.max[2] - bounds.min[2];
  const longer = Math.max(dx, dz),
    shorter = Math.min(dx, dz);
  return longer >= length || longer >= ratio * Math.max(shorter, 1e-9);
}

/**
 * Three fixed views of a line (positions a soup, nine floats a triangle, Y-up metres; `bounds`,
 * their bounds when the caller has them), so a line
 * and a reduced delivery of it, given the full line's views, are seen from the same cameras:
 *
 * - `plan` — the whole line from straight above, north (−z, for a model converted from IFC) up.
 * - `stretch` — `stretch` metres of it near the middle of its longer side (where most of its
 *   triangles lie across it there, so on the track rather than the terrain beside it), seen
 *   `elevation` degrees from above and `skew` degrees round from square on to the line's
 *   direction there (the principal direction of the stretch's triangles).
 * - `track` — along the line at that spot, the eye `eyeHeight` above what lies there (the
 *   90th percentile of its triangles' heights, so a mast does not lift it), looking level.
 *
 * @example
 * ```ts
 * const [plan, stretch, track] = lineViews(positions);
 * rasterize(soup, stretch.camera);
 * ```
 */
export function lineViews(positions: Float32Array, options: Partial<LineViewsOptions> & { bounds?: Bounds } = {}): View[] {
  const { aspect, stretch, fovY, elevation, skew, trackFovX, eyeHeight, margin } = { ...LINE_VIEWS_DEFAULTS, ...options };
  // The caller's, when it has them: a pass over tens of millions of triangles saved.
  const all = options.bounds ?? soupBounds(positions, () => true);
  const size = Math.max(all.max[0] - all.min[0], all.max[1] - all.min[1], all.max[2] - all.min[2], 1e-3);
  const a = all.max[0] - all.min[0] >= all.max[2] - all.min[2] ? 0 : 2,
    b = 2 - a;
  const centreOf = (t: number, k: number) => (positions[t * 9 + k]! + positions[t * 9 + 3 + k]! + positions[t * 9 + 6 + k]!) / 3;
  const triangles = positions.length / 9;

  // The spot: across the middle of the longer side, where the line's own triangles crowd.
  const middle = (all.min[a] + all.max[a]) / 2;
  const slab: number[] = [];
  for (let t = 0; t < triangles; t++) if (Math.abs(centreOf(t, a) - middle) <= stretch / 2) slab.push(t);
  const spot: [number, number] = [0, 0];
  spot[a === 0 ? 0 : 1] = middle;
  spot[a === 0 ? 1 : 0] = slab.length ? median(slab.map((t) => centreOf(t, b))) : (all.min[b]! + all.max[b]!) / 2;
  const near = (t: number, r: number) => Math.hypot(centreOf(t, 0) - spot[0], centreOf(t, 2) - spot[1]) <= r;
  const inWindow: number[] = [];
  for (let t = 0; t < triangles; t++) if (near(t, stretch / 2)) inWindow.push(t);
  // Corners within the stretch, not whole triangles: a ballast bed drawn in 100 m strips would frame all of them.
  const window = inWindow.length ? cornerBounds(positions, inWindow, spot, stretch / 2) : all;
  const along = principalDirection(inWindow.map((t) => [centreOf(t, 0), centreOf(t, 2)] as const)) ?? (a === 0 ? [1, 0] : [0, 1]);

  const framed = (box: Bounds, towardsEye: readonly [number, number, number], up: readonly [number, number, number]): Camera => {
    const centre = [(box.min[0] + box.max[0]) / 2, (box.min[1] + box.max[1]) / 2, (box.min[2] + box.max[2]) / 2] as const;
    const boxSize = Math.max(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2], 1e-3);
    const nearPlane = Math.max(0.01, boxSize * 1e-4);
    const d = fitDistance(box, centre, { towardsEye, up, fovY, aspect, margin, near: nearPlane });
    return {
      eye: [centre[0] + towardsEye[0] * d, centre[1] + towardsEye[1] * d, centre[2] + towardsEye[2] * d],
      target: centre,
      up,
      fovY,
      near: nearPlane,
    };
  };

  const e = (elevation * Math.PI) / 180,
    s = (skew * Math.PI) / 180;
  // Square on to the line, from its +z (or +x) side, turned `skew` towards its direction.
  const side: [number, number] = along[1] > 0 || (along[1] === 0 && along[0] < 0) ? [along[1], -along[0]] : [-along[1], along[0]];
  const horizontal: [number, number] = [side[0] * Math.cos(s) + along[0] * Math.sin(s), side[1] * Math.cos(s) + along[1] * Math.sin(s)];
  const stretchEye = [horizontal[0] * Math.cos(e), Math.sin(e), horizontal[1] * Math.cos(e)] as const;

  const heights = inWindow.filter((t) => near(t, 1.5)).map((t) => centreOf(t, 1));
  const ground = heights.length ? quantile(heights, 0.9) : window.min[1];
  const eye: [number, number, number] = [spot[0], ground + eyeHeight, spot[1]];
  const trackFovY = (2 * Math.atan(Math.tan((trackFovX * Math.PI) / 360) / aspect) * 180) / Math.PI;

  return [
    {
      name: 'plan',
      title: 'the whole line from above',
      camera: { ...framed(all, [0, 1, 0], [0, 0, -1]), near: Math.max(0.01, size * 1e-4) },
    },
    { name: 'stretch', title: `${stretch} m of it near the middle, 3/4 from above`, camera: framed(window, stretchEye, [0, 1, 0]) },
    {
      name: 'track',
      title: 'along the line at eye height',
      camera: { eye, target: [eye[0] + along[0], eye[1], eye[2] + along[1]], up: [0, 1, 0], fovY: trackFovY, near: 0.05 },
    },
  ];
}

/** Bounds of the triangles of a soup that `include` accepts. */
function soupBounds(positions: Float32Array, include: (triangle: number) => boolean): Bounds {
  const min: [number, number, number] = [Infinity, Infinity, Infinity],
    max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let t = 0; t < positions.length / 9; t++) {
    if (!include(t)) continue;
    for (let o = t * 9; o < t * 9 + 9; o += 3) {
      for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k]!, positions[o + k]!);
        max[k] = Math.max(max[k]!, positions[o + k]!);
      }
    }
  }
  return { min, max };
}

/** Bounds of the corners of triangles `of` that lie within `radius` of `spot` (x, z), or of all their corners when none does. */
function cornerBounds(positions: Float32Array, of: readonly number[], spot: readonly [number, number], radius: number): Bounds {
  const min: [number, number, number] = [Infinity, Infinity, Infinity],
    max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (const t of of) {
    for (let o = t * 9; o < t * 9 + 9; o += 3) {
      if (Math.hypot(positions[o]! - spot[0], positions[o + 2]! - spot[1]) > radius) continue;
      for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k]!, positions[o + k]!);
        max[k] = Math.max(max[k]!, positions[o + k]!);
      }
    }
  }
  if (min[0] <= max[0]) return { min, max };
  const set = new Set(of);
  return soupBounds(positions, (t) => set.has(t));
}

/** The unit direction (x, z) along which points spread most; undefined when they do not spread. */
function principalDirection(points: ReadonlyArray<readonly [number, number]>): [number, number] | undefined {
  if (points.length < 2) return undefined;
  let mx = 0,
    mz = 0;
  for (const [x, z] of points) {
    mx += x / points.length;
    mz += z / points.length;
  }
  let xx = 0,
    xz = 0,
    zz = 0;
  for (const [x, z] of points) {
    xx += (x - mx) ** 2;
    xz += (x - mx) * (z - mz);
    zz += (z - mz) ** 2;
  }
  if (!(xx + zz > 0)) return undefined;
  const angle = Math.atan2(2 * xz, xx - zz) / 2;
  return [Math.cos(angle), Math.sin(angle)];
}

function median(values: number[]): number {
  return quantile(values, 0.5);
}

function quantile(values: number[], q: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
