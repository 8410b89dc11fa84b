import { BUDGET_CATEGORIES } from '@arsession/convert';
import { planCellsCapacity, planGrid, trianglePlanCells } from './planGrid.js';

/** Options of {@link insideStand}. */
export interface InsideStandOptions {
  /** Height bands (m) surfaces are sorted into. */
  band: number;
  /** Plan cells across the model's longer side. */
  cells: number;
  /**
   * Room a floor needs above it clear of the building's horizontal surfaces (m, from its top): a
   * terrain running on under a building's ground slab lies a slab's thickness under the next surface.
   */
  clearance: number;
  /**
   * Share of the largest floor's area a band needs to count as a floor: a main floor, not pile caps,
   * landings, or the terrain under an overhang (the Janesville restaurant's comes to ~35% of its largest floor).
   */
  share: number;
  /** Least upward component of a face's unit normal for it to be floor (cos ~18°). */
  minUp: number;
  /** Least (absolute) vertical component for a face to count as covering what is under it (pitched roofs do). */
  minCover: number;
  /** Floors and roofs are faces of this category (index into `BUDGET_CATEGORIES`): slabs, not tabletops. */
  category: number;
  /**
   * Room (m) round the spot stood on clear of the building (walls, columns, glass) between ankle and
   * head height; furniture need only be off the spot itself, or a full dining room leaves nowhere to stand.
   */
  elbowRoom: number;
}

/** Defaults of {@link insideStand}: 10 cm bands, 128 cells, 1.8 m clear, half the largest floor, 0.6 m elbow room. */
export const INSIDE_STAND_DEFAULTS: Readonly<InsideStandOptions> = {
  band: 0.1,
  cells: 128,
  clearance: 1.8,
  share: 0.5,
  minUp: 0.95,
  minCover: 0.5,
  category: BUDGET_CATEGORIES.indexOf('envelope'),
  elbowRoom: 0.6,
};

/** Where a person stands inside a model, and which way the longest clear view runs. */
export interface InsideStand {
  /** Height of the floor's upper face (to a band). */
  floorY: number;
  x: number;
  z: number;
  /** Unit direction along x or z in which the view runs farthest before something blocks it. */
  look: [number, number];
  /** Area of the floor (m², to whole cells): indoor floor in its height band. */
  floorArea: number;
}

/**
 * Where a person would stand in a building: on its lowest floor, clear of walls and furniture,
 * looking the way the room is deepest. The floor is the lowest height band where at least
 * `share` of the largest floor's area is indoor floor — an upward face of the building (envelope
 * triangles, wound outward as `SceneData` delivers them) with `clearance` free above it and
 * something of the building (a slab, a roof) over that. Bounds alone would put the eye among the
 * piles under a building (ISSUE_021) or at knee height on the terrain a building is set in (the
 * Janesville restaurant's site lies 0.8 m under its ground floor), neither with a roof overhead.
 * On that floor, the indoor cell nearest the floor's centroid with `elbowRoom` free of the
 * building and nothing else on it, between 0.2 m and `clearance` above the floor; then, of ±x
 * and ±z, the direction whose line runs farthest before the building blocks it (over the
 * furniture: across the room). `undefined` when nothing is such a floor.
 * Cost: two passes over the triangles, two bitmaps of plan cells × height bands.
 *
 * @example
 * ```ts
 * const { positions, categories } = worldTriangles(scene);
 * const stand = insideStand(positions, categories); // { floorY: 0.05, x: 101.2, z: 3.4, look: [1, 0], floorArea: 705 }
 * ```
 */
export function insideStand(
  positions: Float32Array,
  categories: Uint8Array,
  options: Partial<InsideStandOptions> = {},
): InsideStand | undefined {
  const { band, cells, clearance, share, minUp, minCover, category, elbowRoom } = { ...INSIDE_STAND_DEFAULTS, ...options };
  const min = [Infinity, Infinity, Infinity],
    max = [-Infinity, -Infinity, -Infinity];
  for (let t = 0; t < categories.length; t++) {
    if (categories[t] !== category) continue;
    for (let k = t * 9; k < t * 9 + 9; k++) {
      min[k % 3] = Math.min(min[k % 3]!, positions[k]!);
      max[k % 3] = Math.max(max[k % 3]!, positions[k]!);
    }
  }
  if (!(max[0]! >= min[0]!)) return undefined;
  const grid = planGrid(min[0]!, min[2]!, max[0]!, max[2]!, cells);
  const { nx, nz, cell } = grid;
  // A tall model in 10 cm bands would want too many: coarser bands keep the bitmaps within ~2 × 32 MB.
  const step = Math.max(band, (max[1]! - min[1]!) / 2048);
  const bands = Math.floor((max[1]! - min[1]!) / step) + 1;
  const bandOf = (y: number) => Math.min(bands - 1, Math.max(0, Math.floor((y - min[1]!) / step)));
  // Per plan cell and band: an upward face there (floor), any face that covers what is under it (cover).
  const floor = new Uint8Array(nx * nz * bands),
    cover = new Uint8Array(nx * nz * bands);
  const touched = new Int32Array(planCellsCapacity(grid));

  for (let t = 0; t < categories.length; t++) {
    if (categories[t] !== category) continue;
    const o = t * 9;
    const ax = positions[o + 3]! - positions[o]!,
      ay = positions[o + 4]! - positions[o + 1]!,
      az = positions[o + 5]! - positions[o + 2]!;
    const bx = positions[o + 6]! - positions[o]!,
      by = positions[o + 7]! - positions[o + 1]!,
      bz = positions[o + 8]! - positions[o + 2]!;
    const ny = az * bx - ax * bz;
    const length = Math.hypot(ay * bz - az * by, ny, ax * by - ay * bx);
    if (length === 0 || Math.abs(ny) < minCover * length) continue;
    const y0 = positions[o + 1]!,
      y1 = positions[o + 4]!,
      y2 = positions[o + 7]!;
    const low = bandOf(Math.min(y0, y1, y2)),
      high = bandOf(Math.max(y0, y1, y2));
    const floorBand = ny >= minUp * length ? bandOf((y0 + y1 + y2) / 3) : -1;
    for (let k = 0, n = trianglePlanCells(grid, positions, o, touched); k < n; k++) {
      const column = touched[k]! * bands;
      cover.fill(1, column + low, column + high + 1);
      if (floorBand >= 0) floor[column + floorBand] = 1;
    }
  }

  // Indoor floor: nothing of the building from two bands above the floor's to `clearance`, something above that.
  const clear = Math.ceil(clearance / step);
  const indoor = (c: number, b: number) => {
    const column = c * bands;
    if (!floor[column + b]) return false;
    for (let k = b + 2; k <= b + clear && k < bands; k++) if (cover[column + k]) return false;
    for (let k = b + clear + 1; k < bands; k++) if (cover[column + k]) return true;
    return false;
  };
  const counts = new Float64Array(bands),
    sumI = new Float64Array(bands),
    sumJ = new Float64Array(bands);
  for (let c = 0; c < nx * nz; c++) {
    for (let b = 0; b < bands; b++) {
      if (!indoor(c, b)) continue;
      counts[b] = counts[b]! + 1;
      sumI[b] = sumI[b]! + (c % nx);
      sumJ[b] = sumJ[b]! + Math.floor(c / nx);
    }
  }
  let largest = 0;
  for (const n of counts) largest = Math.max(largest, n);
  if (largest === 0) return undefined;
  const b = counts.findIndex((n) => n >= share * largest);
  const floorY = min[1]! + (b + 0.5) * step;

  // Cells where something stands between ankle and head height: 1 the building (walls, columns, glass), 2 anything else.
  const blocked = new Uint8Array(nx * nz);
  for (let t = 0; t < categories.length; t++) {
    const o = t * 9;
    const y0 = positions[o + 1]!,
      y1 = positions[o + 4]!,
      y2 = positions[o + 7]!;
    if (Math.max(y0, y1, y2) < floorY + 0.2 || Math.min(y0, y1, y2) > floorY + clearance) continue;
    const mark = categories[t] === category ? 1 : 2;
    for (let k = 0, n = trianglePlanCells(grid, positions, o, touched); k < n; k++) blocked[touched[k]!] ||= mark;
  }
  const wall = (i: number, j: number) => i < 0 || i >= nx || j < 0 || j >= nz || blocked[j * nx + i] === 1;
  const reach = Math.ceil(elbowRoom / cell);
  const roomy = (c: number) => {
    const i = c % nx,
      j = Math.floor(c / nx);
    if (blocked[c]) return false;
    for (let dj = -reach; dj <= reach; dj++) for (let di = -reach; di <= reach; di++) if (wall(i + di, j + dj)) return false;
    return true;
  };
  // The indoor cell nearest the floor's centroid (which may lie outside an L-shaped plan), roomy if any is.
  const ci = sumI[b]! / counts[b]!,
    cj = sumJ[b]! / counts[b]!;
  let best = -1,
    bestDistance = Infinity,
    fallback = -1,
    fallbackDistance = Infinity;
  for (let c = 0; c < nx * nz; c++) {
    const distance = ((c % nx) - ci) ** 2 + (Math.floor(c / nx) - cj) ** 2;
    if (distance >= fallbackDistance && distance >= bestDistance) continue;
    if (!indoor(c, b)) continue;
    if (distance < fallbackDistance) [fallback, fallbackDistance] = [c, distance];
    if (distance < bestDistance && roomy(c)) [best, bestDistance] = [c, distance];
  }
  const stand = best >= 0 ? best : fallback;
  const i = stand % nx,
    j = Math.floor(stand / nx);

  // The longer side's directions first: on a tie the view runs along the building.
  const along: Array<[number, number]> =
    nx >= nz
      ? [
          [1, 0],
          [-1, 0],
          [0, 1],
          [0, -1],
        ]
      : [
          [0, 1],
          [0, -1],
          [1, 0],
          [-1, 0],
        ];
  let look = along[0]!,
    longest = -1;
  for (const [di, dj] of along) {
    let run = 1;
    for (let ii = i + di, jj = j + dj; !wall(ii, jj); ii += di, jj += dj) run++;
    if (run > longest) [look, longest] = [[di, dj], run];
  }
  return { floorY, x: grid.minX + (i + 0.5) * cell, z: grid.minZ + (j + 0.5) * cell, look, floorArea: counts[b]! * cell * cell };
}
