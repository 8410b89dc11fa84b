import { uniformRandom } from './uniformRandom.js';

/** Points spread over a surface by area, each with the category of the triangle it lies on. */
export interface SurfaceSamples {
  /** x y z per sample, in the triangles' frame. */
  points: Float32Array;
  /** Per sample, its triangle's category index. */
  categories: Uint8Array;
  /** Area of the whole surface (m²). */
  area: number;
  /** Area of each category's triangles (m²), by category index. */
  categoryArea: number[];
}

/**
 * `count` points on a triangle soup (nine floats a triangle), area-weighted and seeded: the
 * surface's total area is cut into `count` equal strata along the triangle list and one point
 * drawn in each (jittered), so every triangle gets its area's share of the points to within one,
 * with less spread than independent draws; within its triangle a point is uniform. Degenerate
 * triangles get none. `categories` holds a category index per triangle (0–255).
 *
 * @example
 * ```ts
 * const { points, categories } = sampleSurface(soup.positions, soup.categories, 200_000);
 * ```
 */
export function sampleSurface(positions: Float32Array, categories: Uint8Array, count: number, seed = 1): SurfaceSamples {
  const triangles = categories.length;
  const categoryArea: number[] = [];
  let area = 0;
  for (let t = 0; t < triangles; t++) {
    const a = triangleArea(positions, t);
    area += a;
    categoryArea[categories[t]!] = (categoryArea[categories[t]!] ?? 0) + a;
  }
  const rand = uniformRandom(seed);
  const points = new Float32Array(count * 3);
  const sampled = new Uint8Array(count);
  const step = area / count;
  let k = 0,
    next = rand() * step,
    reached = 0,
    last = -1;
  // The same sums in the same order as above, so the walk ends where the total did; a rounding
  // slip past the last triangle puts the last few points on the last triangle with area.
  for (let t = 0; t < triangles && k < count; t++) {
    const a = triangleArea(positions, t);
    if (!(a > 0)) continue;
    reached += a;
    last = t;
    while (k < count && next < reached) {
      place(positions, t, rand, points, k);
      sampled[k] = categories[t]!;
      next = (++k + rand()) * step;
    }
  }
  for (; k < count && last >= 0; k++) {
    place(positions, last, rand, points, k);
    sampled[k] = categories[last]!;
  }
  for (let c = 0; c < categoryArea.length; c++) categoryArea[c] ??= 0;
  return { points: last >= 0 ? points : new Float32Array(0), categories: last >= 0 ? sampled : new Uint8Array(0), area, categoryArea };
}

/** Area of triangle `t` of a soup (float64 from its float32 corners). */
function triangleArea(p: Float32Array, t: number): number {
  const o = t * 9;
  const ux = p[o + 3]! - p[o]!,
    uy = p[o + 4]! - p[o + 1]!,
    uz = p[o + 5]! - p[o + 2]!;
  const vx = p[o + 6]! - p[o]!,
    vy = p[o + 7]! - p[o + 1]!,
    vz = p[o + 8]! - p[o + 2]!;
  const cx = uy * vz - uz * vy,
    cy = uz * vx - ux * vz,
    cz = ux * vy - uy * vx;
  return 0.5 * Math.sqrt(cx * cx + cy * cy + cz * cz);
}

/** A uniform point on triangle `t`, written as sample `k` (a point past the diagonal folded back). */
function place(p: Float32Array, t: number, rand: () => number, out: Float32Array, k: number): void {
  let u = rand(),
    v = rand();
  if (u + v > 1) {
    u = 1 - u;
    v = 1 - v;
  }
  const o = t * 9;
  for (let d = 0; d < 3; d++) out[k * 3 + d] = p[o + d]! + u * (p[o + 3 + d]! - p[o + d]!) + v * (p[o + 6 + d]! - p[o + d]!);
}
