import type { SceneMesh } from '../scene/SceneData.js';
import { pointBounds } from '../scene/pointBounds.js';
import type { BudgetCategory } from './BudgetCategory.js';

/** Options of {@link categoryOfShape}. */
export interface CategoryOfShapeOptions {
  /** Diagonal (m) from which a flat-faced mesh is taken for part of the building. */
  minEnvelopeSize: number;
  /** Share of its area a mesh must have in a few planes' directions to count as flat-faced. */
  minFlatShare: number;
}

/** Defaults of {@link categoryOfShape}: two metres, nine tenths of the area. */
export const CATEGORY_OF_SHAPE_DEFAULTS: Readonly<CategoryOfShapeOptions> = { minEnvelopeSize: 2, minFlatShare: 0.9 };

/** Face directions a flat-faced mesh has most of its area in: a box's six, and a few more. */
const FLAT_DIRECTIONS = 8;

/**
 * The budget category of a mesh that names no IFC class (a GLB, a USDZ), from its shape: one at
 * least {@link CategoryOfShapeOptions.minEnvelopeSize} across (in metres, at `scale`) with most of
 * its area facing a few directions (walls, floors, roofs, panes) is `envelope`; anything else is
 * `other`, coarsened first.
 *
 * @example
 * ```ts
 * categoryOfShape(wallMesh, 1); // → 'envelope'
 * categoryOfShape(chairMesh, 1); // → 'other'
 * ```
 */
export function categoryOfShape(
  mesh: Pick<SceneMesh, 'positions' | 'indices'>,
  scale: number,
  options: Partial<CategoryOfShapeOptions> = {},
): BudgetCategory {
  const opts = { ...CATEGORY_OF_SHAPE_DEFAULTS, ...options };
  const p = mesh.positions,
    idx = mesh.indices;
  const { min, max } = pointBounds(p);
  if (Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) * scale < opts.minEnvelopeSize) return 'other';
  // Area by facing direction, quantised to about 3° (both sides of a plane are one direction).
  const byDirection = new Map<number, number>();
  let total = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const a = idx[t]! * 3,
      b = idx[t + 1]! * 3,
      c = idx[t + 2]! * 3;
    const ux = p[b]! - p[a]!,
      uy = p[b + 1]! - p[a + 1]!,
      uz = p[b + 2]! - p[a + 2]!;
    const vx = p[c]! - p[a]!,
      vy = p[c + 1]! - p[a + 1]!,
      vz = p[c + 2]! - p[a + 2]!;
    let nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    const area = Math.hypot(nx, ny, nz);
    if (!(area > 0)) continue;
    const sign = nx < 0 || (nx === 0 && (ny < 0 || (ny === 0 && nz < 0))) ? -1 / area : 1 / area;
    nx *= sign;
    ny *= sign;
    nz *= sign;
    const key = Math.round((nx + 1) * 20) * 10_000 + Math.round((ny + 1) * 20) * 100 + Math.round((nz + 1) * 20);
    byDirection.set(key, (byDirection.get(key) ?? 0) + area);
    total += area;
  }
  if (!(total > 0)) return 'other';
  const largest = [...byDirection.values()].sort((x, y) => y - x).slice(0, FLAT_DIRECTIONS);
  return largest.reduce((n, a) => n + a, 0) >= opts.minFlatShare * total ? 'envelope' : 'other';
}
