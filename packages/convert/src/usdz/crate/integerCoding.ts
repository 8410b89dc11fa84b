import { fastCompress } from './fastCompression.js';

// Differences within this range are counted in a table to find the most common one; a wider
// difference can still be coded, it just is not considered as the common value.
const COMMON_RANGE = 1024;

/**
 * Codes 32-bit integers the way USD's `Usd_IntegerCompression` does: each value as the difference
 * to the one before, the most common difference written once, then a 2-bit code per value
 * (common, 8-, 16- or 32-bit) and the differences that are not the common one. Indices and
 * counts shrink to about a quarter; crate files use it for their structural sections and for
 * `int[]` values. Returns the coding framed by {@link fastCompress}, as crate files store it.
 *
 * @example
 * ```ts
 * compressIntegers([3, 3, 3, 3]); // common difference 0: 4 + 1 + 1 bytes of coding, framed
 * ```
 */
export function compressIntegers(values: ArrayLike<number>): Uint8Array {
  return fastCompress(encodeIntegers(values));
}

/** The coding alone, before framing (see {@link compressIntegers}). */
export function encodeIntegers(values: ArrayLike<number>): Uint8Array {
  const n = values.length;
  if (n === 0) return new Uint8Array(0);
  const common = mostCommonDifference(values);
  const codesBytes = (n * 2 + 7) >> 3;
  const out = new Uint8Array(4 + codesBytes + n * 4);
  const view = new DataView(out.buffer);
  view.setInt32(0, common, true);
  let codeAt = 4, at = 4 + codesBytes, previous = 0, codeByte = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]! | 0;
    const d = (v - previous) | 0;
    previous = v;
    let code: number;
    if (d === common) code = 0;
    else if (d >= -128 && d <= 127) { code = 1; out[at++] = d & 0xff; }
    else if (d >= -32768 && d <= 32767) { code = 2; view.setInt16(at, d, true); at += 2; }
    else { code = 3; view.setInt32(at, d, true); at += 4; }
    codeByte |= code << ((i & 3) * 2);
    if ((i & 3) === 3) { out[codeAt++] = codeByte; codeByte = 0; }
  }
  if (n & 3) out[codeAt] = codeByte;
  return out.subarray(0, at);
}

// One table for every call (calls are synchronous): only the slots a call touched are cleared.
const counts = new Uint32Array(2 * COMMON_RANGE + 1);

/** The most frequent difference between neighbours (the larger on a tie), among small ones. */
function mostCommonDifference(values: ArrayLike<number>): number {
  let best = 0, bestCount = 0, previous = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]! | 0;
    const d = (v - previous) | 0;
    previous = v;
    if (d < -COMMON_RANGE || d > COMMON_RANGE) continue;
    const c = ++counts[d + COMMON_RANGE]!;
    if (c > bestCount || (c === bestCount && d > best)) { best = d; bestCount = c; }
  }
  previous = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]! | 0;
    const d = (v - previous) | 0;
    previous = v;
    if (d >= -COMMON_RANGE && d <= COMMON_RANGE) counts[d + COMMON_RANGE] = 0;
  }
  return best;
}
