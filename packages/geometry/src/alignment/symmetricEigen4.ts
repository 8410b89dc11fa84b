/**
 * Largest eigenpair of a symmetric 4×4 matrix (row-major, 16 numbers) by cyclic Jacobi rotations.
 * Jacobi is slower than a closed form but converges for every symmetric input, repeated
 * eigenvalues included, which Horn's quaternion fit needs for degenerate point sets.
 */
export function largestEigenpair4(m: ArrayLike<number>): { value: number; vector: [number, number, number, number] } {
  const a = Float64Array.from(m as ArrayLike<number>);
  const v = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  for (let sweep = 0; sweep < 64; sweep++) {
    let off = 0;
    for (let p = 0; p < 4; p++) for (let q = p + 1; q < 4; q++) off += a[p * 4 + q]! ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < 4; p++) {
      for (let q = p + 1; q < 4; q++) {
        const apq = a[p * 4 + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * 4 + q]! - a[p * 4 + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1),
          s = t * c;
        for (let k = 0; k < 4; k++) {
          const akp = a[k * 4 + p]!,
            akq = a[k * 4 + q]!;
          a[k * 4 + p] = c * akp - s * akq;
          a[k * 4 + q] = s * akp + c * akq;
        }
        for (let k = 0; k < 4; k++) {
          const apk = a[p * 4 + k]!,
            aqk = a[q * 4 + k]!;
          a[p * 4 + k] = c * apk - s * aqk;
          a[q * 4 + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < 4; k++) {
          const vkp = v[k * 4 + p]!,
            vkq = v[k * 4 + q]!;
          v[k * 4 + p] = c * vkp - s * vkq;
          v[k * 4 + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  let best = 0;
  for (let i = 1; i < 4; i++) if (a[i * 4 + i]! > a[best * 4 + best]!) best = i;
  return { value: a[best * 4 + best]!, vector: [v[best]!, v[4 + best]!, v[8 + best]!, v[12 + best]!] };
}
