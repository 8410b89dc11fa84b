import { buildBvh, nearestDistance, type TriangleMesh } from '@arsession/geometry';

/** Options of {@link measureDeviation}. */
export interface MeasureDeviationOptions {
  /** Triangles sampled on each side at most (each gives its three corners, edge midpoints and centroid). */
  samples: number;
}

/** Defaults of {@link measureDeviation}: enough to find a pruned part, cheap beside the simplification. */
export const MEASURE_DEVIATION_DEFAULTS: Readonly<MeasureDeviationOptions> = { samples: 20_000 };

/** How far apart a full surface and its simplified version are, each way, in the meshes' units. */
export interface Deviation {
  /** Largest distance from the simplified surface to the full one: what simplification moved. */
  simplifiedToFull: number;
  /**
   * Largest distance from the full surface to the simplified one: also counts what was taken away
   * (a pruned bolt measures its distance to the nearest surface that is left).
   */
  fullToSimplified: number;
}

/**
 * How far apart two versions of a surface are: a Hausdorff estimate each way. Points on one
 * (corners, edge midpoints and centroids of evenly strided triangles) are measured to the nearest
 * point of the other with a BVH. Deterministic: no random sampling, so a report never changes
 * between runs.
 *
 * @example
 * ```ts
 * measureDeviation(full, simplified).simplifiedToFull; // → 0.004: nothing moved more than 4 mm
 * ```
 */
export function measureDeviation(full: TriangleMesh, simplified: TriangleMesh, options: Partial<MeasureDeviationOptions> = {}): Deviation {
  const { samples } = { ...MEASURE_DEVIATION_DEFAULTS, ...options };
  const fullEmpty = full.indices.length === 0, simplifiedEmpty = simplified.indices.length === 0;
  if (fullEmpty || simplifiedEmpty) {
    const d = fullEmpty === simplifiedEmpty ? 0 : Infinity;
    return { simplifiedToFull: simplifiedEmpty ? 0 : d, fullToSimplified: fullEmpty ? 0 : d };
  }
  return { simplifiedToFull: oneSided(simplified, full, samples), fullToSimplified: oneSided(full, simplified, samples) };
}

/** Largest distance from sampled points of `from` to the surface of `to`. */
function oneSided(from: TriangleMesh, to: TriangleMesh, samples: number): number {
  const bvh = buildBvh(to);
  const p = from.positions, idx = from.indices;
  const triangles = idx.length / 3;
  const stride = Math.max(1, Math.floor(triangles / samples));
  let worst = 0;
  const at = (x: number, y: number, z: number) => {
    // Only whether a point is farther than the worst so far matters: stop early below it.
    const d = nearestDistance(bvh, to, x, y, z, worst);
    if (d > worst) worst = d;
  };
  for (let t = 0; t < triangles; t += stride) {
    const a = idx[t * 3]! * 3, b = idx[t * 3 + 1]! * 3, c = idx[t * 3 + 2]! * 3;
    const ax = p[a]!, ay = p[a + 1]!, az = p[a + 2]!, bx = p[b]!, by = p[b + 1]!, bz = p[b + 2]!, cx = p[c]!, cy = p[c + 1]!, cz = p[c + 2]!;
    at(ax, ay, az);
    at(bx, by, bz);
    at(cx, cy, cz);
    at((ax + bx) / 2, (ay + by) / 2, (az + bz) / 2);
    at((bx + cx) / 2, (by + cy) / 2, (bz + cz) / 2);
    at((cx + ax) / 2, (cy + ay) / 2, (cz + az) / 2);
    at((ax + bx + cx) / 3, (ay + by + cy) / 3, (az + bz + cz) / 3);
  }
  return worst;
}
