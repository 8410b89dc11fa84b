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
 * node through its world matrix). The box stays in locals while the loop runs, as it is run over
 * every vertex of a model. Typed arguments only: one shape of array at every call keeps the loop
 * monomorphic (plain arrays here made it 5× slower).
 *
 * @example
 * ```ts
 * const box = growBounds(emptyBounds(), mesh.positions, 3, node.matrix);
 * ```
 */
export function growBounds(out: Bounds, positions: Float32Array, stride: number, matrix: Float64Array): Bounds {
  const m0 = matrix[0]!,
    m1 = matrix[1]!,
    m2 = matrix[2]!,
    m4 = matrix[4]!,
    m5 = matrix[5]!,
    m6 = matrix[6]!;
  const m8 = matrix[8]!,
    m9 = matrix[9]!,
    m10 = matrix[10]!,
    m12 = matrix[12]!,
    m13 = matrix[13]!,
    m14 = matrix[14]!;
  // Not destructured: `let [a, b] = array` in this function made the whole loop 2× slower.
  let x0 = out.min[0],
    y0 = out.min[1],
    z0 = out.min[2],
    x1 = out.max[0],
    y1 = out.max[1],
    z1 = out.max[2];
  for (let i = 0; i + 2 < positions.length; i += stride) {
    const x = positions[i]!,
      y = positions[i + 1]!,
      z = positions[i + 2]!;
    const wx = m0 * x + m4 * y + m8 * z + m12;
    const wy = m1 * x + m5 * y + m9 * z + m13;
    const wz = m2 * x + m6 * y + m10 * z + m14;
    if (wx < x0) x0 = wx;
    if (wx > x1) x1 = wx;
    if (wy < y0) y0 = wy;
    if (wy > y1) y1 = wy;
    if (wz < z0) z0 = wz;
    if (wz > z1) z1 = wz;
  }
  out.min[0] = x0;
  out.min[1] = y0;
  out.min[2] = z0;
  out.max[0] = x1;
  out.max[1] = y1;
  out.max[2] = z1;
  return out;
}

/**
 * The box of `positions` (x, y, z at the start of every `stride` numbers) through the linear part
 * of the column-major 4×4 `matrix`, its translation left out: `[minX, minY, minZ, maxX, maxY,
 * maxZ]`. Adding the translation (`box[k] + matrix[12 + k]`) gives exactly, to the bit, the box
 * {@link growBounds} finds through the whole matrix: it computes each coordinate as this one plus
 * the translation, last, and rounding a sum is monotonic, so the smallest and largest stay so.
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
