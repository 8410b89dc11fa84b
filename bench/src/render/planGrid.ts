/** Square cells over a model's plan (x and z), row by row along x: cell `j · nx + i`. */
export interface PlanGrid {
  minX: number;
  minZ: number;
  /** Side of a cell (m). */
  cell: number;
  nx: number;
  nz: number;
}

/**
 * A grid of `cells` cells across the longer side of a plan rectangle (and as many of the same
 * size as fit the other way).
 *
 * @example
 * ```ts
 * const grid = planGrid(0, 0, 40, 20, 128); // cell 0.3125 m, 129 × 65
 * ```
 */
export function planGrid(minX: number, minZ: number, maxX: number, maxZ: number, cells: number): PlanGrid {
  const cell = Math.max(maxX - minX, maxZ - minZ, 1e-3) / cells;
  return { minX, minZ, cell, nx: Math.floor((maxX - minX) / cell) + 1, nz: Math.floor((maxZ - minZ) / cell) + 1 };
}

/** Length of the `out` array {@link trianglePlanCells} needs on a grid: any triangle's cells fit. */
export function planCellsCapacity(grid: PlanGrid): number {
  return grid.nx * grid.nz + 3 * (2 * (grid.nx + grid.nz) + 4);
}

/**
 * The grid cells a triangle's plan (its shadow on x z) touches: those whose centres it covers,
 * and those its edges pass through, sampled every half cell — so a wall, whose plan is a line,
 * marks the cells it runs through, and a triangle smaller than a cell marks the cell it is in.
 * Writes them to `out` (a cell may come twice; cells off the grid are left out) and returns how
 * many. The triangle is `positions[o … o + 8]`.
 *
 * @example
 * ```ts
 * const out = new Int32Array(planCellsCapacity(grid));
 * for (let k = 0, n = trianglePlanCells(grid, positions, t * 9, out); k < n; k++) blocked[out[k]!] = 1;
 * ```
 */
export function trianglePlanCells(grid: PlanGrid, positions: Float32Array, o: number, out: Int32Array): number {
  const { minX, minZ, cell, nx, nz } = grid;
  const x0 = positions[o]!,
    z0 = positions[o + 2]!,
    x1 = positions[o + 3]!,
    z1 = positions[o + 5]!,
    x2 = positions[o + 6]!,
    z2 = positions[o + 8]!;
  let n = 0;
  const ax = x1 - x0,
    az = z1 - z0,
    bx = x2 - x0,
    bz = z2 - z0;
  const det = ax * bz - az * bx;
  if (det !== 0) {
    const inv = 1 / det;
    const i0 = Math.max(0, Math.ceil((Math.min(x0, x1, x2) - minX) / cell - 0.5)),
      i1 = Math.min(nx - 1, Math.floor((Math.max(x0, x1, x2) - minX) / cell - 0.5));
    const j0 = Math.max(0, Math.ceil((Math.min(z0, z1, z2) - minZ) / cell - 0.5)),
      j1 = Math.min(nz - 1, Math.floor((Math.max(z0, z1, z2) - minZ) / cell - 0.5));
    for (let j = j0; j <= j1; j++) {
      for (let i = i0; i <= i1; i++) {
        const px = minX + (i + 0.5) * cell - x0,
          pz = minZ + (j + 0.5) * cell - z0;
        const u = (px * bz - pz * bx) * inv,
          v = (ax * pz - az * px) * inv;
        if (u >= 0 && v >= 0 && u + v <= 1) out[n++] = j * nx + i;
      }
    }
  }
  for (let e = 0; e < 3; e++) {
    const sx = positions[o + e * 3]!,
      sz = positions[o + e * 3 + 2]!;
    const dx = positions[o + ((e + 1) % 3) * 3]! - sx,
      dz = positions[o + ((e + 1) % 3) * 3 + 2]! - sz;
    const steps = Math.min(Math.ceil((2 * Math.hypot(dx, dz)) / cell), 2 * (nx + nz) + 2);
    for (let k = 0; k <= steps; k++) {
      const s = steps === 0 ? 0 : k / steps;
      const i = Math.floor((sx + s * dx - minX) / cell),
        j = Math.floor((sz + s * dz - minZ) / cell);
      if (i >= 0 && i < nx && j >= 0 && j < nz) out[n++] = j * nx + i;
    }
  }
  return n;
}
