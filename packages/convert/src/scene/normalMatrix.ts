/**
 * The 3×3 (row-major) that carries normals through the column-major 4×4 `m`: the cofactor
 * matrix of its upper 3×3, signed so normals stay outward when `m` mirrors. It equals the inverse
 * transpose up to a positive factor (results are renormalised), and needs no division.
 */
export function normalMatrix(m: ArrayLike<number>): Float64Array {
  const a00 = m[0]!,
    a10 = m[1]!,
    a20 = m[2]!,
    a01 = m[4]!,
    a11 = m[5]!,
    a21 = m[6]!,
    a02 = m[8]!,
    a12 = m[9]!,
    a22 = m[10]!;
  const c00 = a11 * a22 - a12 * a21,
    c01 = a12 * a20 - a10 * a22,
    c02 = a10 * a21 - a11 * a20;
  const c10 = a02 * a21 - a01 * a22,
    c11 = a00 * a22 - a02 * a20,
    c12 = a01 * a20 - a00 * a21;
  const c20 = a01 * a12 - a02 * a11,
    c21 = a02 * a10 - a00 * a12,
    c22 = a00 * a11 - a01 * a10;
  const s = a00 * c00 + a01 * c01 + a02 * c02 < 0 ? -1 : 1;
  return new Float64Array([s * c00, s * c01, s * c02, s * c10, s * c11, s * c12, s * c20, s * c21, s * c22]);
}

/** Determinant of the upper 3×3 of a column-major 4×4: negative when it mirrors. */
export function determinant3(m: ArrayLike<number>): number {
  return m[0]! * (m[5]! * m[10]! - m[9]! * m[6]!) - m[4]! * (m[1]! * m[10]! - m[9]! * m[2]!) + m[8]! * (m[1]! * m[6]! - m[5]! * m[2]!);
}

/**
 * When the normal matrix `nm` ({@link normalMatrix}) takes every unit normal to one and the same
 * length (its transform is a rotation, mirror and uniform scale, as IFC placements are), the
 * factor that brings them back to unit length; else 0: each normal must be renormalised on its
 * own. Lets a vertex loop skip a square root and a division per normal.
 */
export function uniformNormalScale(nm: Float64Array): number {
  const a = nm[0]!,
    b = nm[1]!,
    c = nm[2]!,
    d = nm[3]!,
    e = nm[4]!,
    f = nm[5]!,
    g = nm[6]!,
    h = nm[7]!,
    i = nm[8]!;
  const r0 = a * a + b * b + c * c,
    r1 = d * d + e * e + f * f,
    r2 = g * g + h * h + i * i;
  const k = (r0 + r1 + r2) / 3;
  // Rows of one length and at right angles, to far below float32's precision.
  const tolerance = 1e-9 * k;
  const similar =
    k > 0 &&
    Math.abs(r0 - k) <= tolerance &&
    Math.abs(r1 - k) <= tolerance &&
    Math.abs(r2 - k) <= tolerance &&
    Math.abs(a * d + b * e + c * f) <= tolerance &&
    Math.abs(a * g + b * h + c * i) <= tolerance &&
    Math.abs(d * g + e * h + f * i) <= tolerance;
  return similar ? 1 / Math.sqrt(k) : 0;
}
