import type { Bounds } from '@arsession/geometry';

/** An empty box, for {@link growBounds} to grow. */
export function emptyBounds(): Bounds {
  return { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
}

/**
 * The box round two boxes, a new one.
 *
 * @example
 * ```ts
 * const all = parts.reduce((b, p) => unionBounds(b, p.bounds), emptyBounds());
 * ```
 */
export function unionBounds(a: Bounds, b: Bounds): Bounds {
  return {
    min: [Math.min(a.min[0], b.min[0]), Math.min(a.min[1], b.min[1]), Math.min(a.min[2], b.min[2])],
    max: [Math.max(a.max[0], b.max[0]), Math.max(a.max[1], b.max[1]), Math.max(a.max[2], b.max[2])],
  };
}

/**
 * Grows `out` to contain every point of `positions` — x, y, z at the start of every `stride`
 * numbers — each through the column-major 4×4 `matrix`, in float64 (a scene's bounds, node by
 * node through its world matrix): the {@link linearBounds} box moved by the translation, which is
 * each point's float64 coordinate taken to its extreme (a NaN coordinate is never taken).
 *
 * @example
 * ```ts
 * const box = growBounds(emptyBounds(), mesh.positions, 3, node.matrix);
 * ```
 */
export function growBounds(out: Bounds, positions: Float32Array, stride: number, matrix: Float64Array): Bounds {
  const box = linearBounds(positions, stride, matrix);
  for (let k = 0; k < 3; k++) {
    const low = box[k]! + matrix[12 + k]!,
      high = box[3 + k]! + matrix[12 + k]!;
    if (low < out.min[k]!) out.min[k] = low;
    if (high > out.max[k]!) out.max[k] = high;
  }
  return out;
}

/**
 * The box of `positions` (x, y, z at the start of every `stride` numbers) through the linear part
 * of the column-major 4×4 `matrix`, its translation left out: `[minX, minY, minZ, maxX, maxY,
 * maxZ]`. Adding the translation (`box[k] + matrix[12 + k]`) gives exactly, to the bit, the box of
 * the points through the whole matrix, each computed as `m0·x + m4·y + m8·z + m12` in that order:
 * the translation comes last, and rounding a sum is monotonic, so the smallest and largest stay
 * so. The box stays in locals while the loop runs, as it is run over every vertex of a model;
 * typed arguments only, so the loop stays monomorphic.
 * Placements that differ only by where they are (a building's copies, a type moved along a
 * façade) then measure their geometry once.
 *
 * @example
 * ```ts
 * const box = linearBounds(vertices, 6, matrix);
 * const minX = box[0] + matrix[12]; // === growBounds(emptyBounds(), vertices, 6, matrix).min[0]
 * ```
 */
export function linearBounds(positions: Float32Array, stride: number, matrix: Float64Array): Float64Array {
  const m0 = matrix[0]!,
    m1 = matrix[1]!,
    m2 = matrix[2]!,
    m4 = matrix[4]!,
    m5 = matrix[5]!,
    m6 = matrix[6]!;
  const m8 = matrix[8]!,
    m9 = matrix[9]!,
    m10 = matrix[10]!;
  let x0 = Infinity,
    y0 = Infinity,
    z0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity,
    z1 = -Infinity;
  for (let i = 0; i + 2 < positions.length; i += stride) {
    const x = positions[i]!,
      y = positions[i + 1]!,
      z = positions[i + 2]!;
    const wx = m0 * x + m4 * y + m8 * z;
    const wy = m1 * x + m5 * y + m9 * z;
    const wz = m2 * x + m6 * y + m10 * z;
    if (wx < x0) x0 = wx;
    if (wx > x1) x1 = wx;
    if (wy < y0) y0 = wy;
    if (wy > y1) y1 = wy;
    if (wz < z0) z0 = wz;
    if (wz > z1) z1 = wz;
  }
  return Float64Array.of(x0, y0, z0, x1, y1, z1);
}
