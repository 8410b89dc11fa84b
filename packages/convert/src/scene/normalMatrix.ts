/**
 * The 3×3 (row-major) that carries normals through the column-major 4×4 `m`: the cofactor
 * matrix of its upper 3×3, signed so normals stay outward when `m` mirrors. It equals the inverse
 * transpose up to a positive factor (results are renormalised), and needs no division.
 */
export function normalMatrix(m: ArrayLike<number>): Float64Array {
  const a00 = m[0]!, a10 = m[1]!, a20 = m[2]!, a01 = m[4]!, a11 = m[5]!, a21 = m[6]!, a02 = m[8]!, a12 = m[9]!, a22 = m[10]!;
  const c00 = a11 * a22 - a12 * a21, c01 = a12 * a20 - a10 * a22, c02 = a10 * a21 - a11 * a20;
  const c10 = a02 * a21 - a01 * a22, c11 = a00 * a22 - a02 * a20, c12 = a01 * a20 - a00 * a21;
  const c20 = a01 * a12 - a02 * a11, c21 = a02 * a10 - a00 * a12, c22 = a00 * a11 - a01 * a10;
  const s = a00 * c00 + a01 * c01 + a02 * c02 < 0 ? -1 : 1;
  return new Float64Array([s * c00, s * c01, s * c02, s * c10, s * c11, s * c12, s * c20, s * c21, s * c22]);
}

/** Determinant of the upper 3×3 of a column-major 4×4: negative when it mirrors. */
export function determinant3(m: ArrayLike<number>): number {
  return m[0]! * (m[5]! * m[10]! - m[9]! * m[6]!) - m[4]! * (m[1]! * m[10]! - m[9]! * m[2]!) + m[8]! * (m[1]! * m[6]! - m[5]! * m[2]!);
}
