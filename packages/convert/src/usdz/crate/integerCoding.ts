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
  return encodeInt32(asInt32(values));
}

// The loops below see one array type only: indexed through `ArrayLike`, V8 made them
// polymorphic over the callers' number[], Uint32Array and Int32Array and ran them ~10× slower.
function asInt32(values: ArrayLike<number>): Int32Array {
  if (values instanceof Int32Array) return values;
  if (values instanceof Uint32Array) return new Int32Array(values.buffer, values.byteOffset, values.length);
  return Int32Array.from(values as ArrayLike<number>);
}

function encodeInt32(values: Int32Array): Uint8Array {
  const n = values.length;
  if (n === 0) return new Uint8Array(0);
  const common = mostCommonDifference(values);
  const codesBytes = (n * 2 + 7) >> 3;
  const out = new Uint8Array(4 + codesBytes + n * 4);
  out[0] = common; out[1] = common >> 8; out[2] = common >> 16; out[3] = common >> 24;
  let codeAt = 4, at = 4 + codesBytes, previous = 0, codeByte = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    const d = (v - previous) | 0;
    previous = v;
    let code: number;
    // Byte stores keep the low 8 bits, so each store writes one little-endian byte of `d`.
    if (d === common) code = 0;
    else if (d >= -128 && d <= 127) { code = 1; out[at++] = d; }
    else if (d >= -32768 && d <= 32767) { code = 2; out[at] = d; out[at + 1] = d >> 8; at += 2; }
    else { code = 3; out[at] = d; out[at + 1] = d >> 8; out[at + 2] = d >> 16; out[at + 3] = d >> 24; at += 4; }
    codeByte |= code << ((i & 3) * 2);
    if ((i & 3) === 3) { out[codeAt++] = codeByte; codeByte = 0; }
  }
  if (n & 3) out[codeAt] = codeByte;
  return out.subarray(0, at);
}

// One table for every call (calls are synchronous): only the slots a call touched are cleared.
const counts = new Uint32Array(2 * COMMON_RANGE + 1);

/** The most frequent difference between neighbours (the larger on a tie), among small ones. */
function mostCommonDifference(values: Int32Array): number {
  let best = 0, bestCount = 0, previous = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const d = (v - previous) | 0;
    previous = v;
    if (d < -COMMON_RANGE || d > COMMON_RANGE) continue;
    const c = ++counts[d + COMMON_RANGE]!;
    if (c > bestCount || (c === bestCount && d > best)) { best = d; bestCount = c; }
  }
  previous = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const d = (v - previous) | 0;
    previous = v;
    if (d >= -COMMON_RANGE && d <= COMMON_RANGE) counts[d + COMMON_RANGE] = 0;
  }
  return best;
}
