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
  // Framing copies the coding out of the shared scratch into an array of its own.
  return fastCompress(encodeInt32(asInt32(values)));
}

/** The coding alone, before framing (see {@link compressIntegers}), in an array of its own. */
export function encodeIntegers(values: ArrayLike<number>): Uint8Array {
  return encodeInt32(asInt32(values)).slice();
}

// The coding is written into one buffer reused by every call and then copied out at its real
// size (about a quarter of the room it needs while coding). A fresh buffer per call cost more
// than the coding itself: the allocator hands large buffers out as new pages, each faulted in
// on its first write. Buffers beyond the cap are not kept, so a huge mesh's room is not held.
const SCRATCH_KEPT_BYTES = 16 << 20;
let scratch = new Uint8Array(1 << 16);

// The loops below see one array type only: indexed through `ArrayLike`, V8 made them
// polymorphic over the callers' number[], Uint32Array and Int32Array and ran them ~10× slower.
function asInt32(values: ArrayLike<number>): Int32Array {
  if (values instanceof Int32Array) return values;
  if (values instanceof Uint32Array) return new Int32Array(values.buffer, values.byteOffset, values.length);
  return Int32Array.from(values as ArrayLike<number>);
}

/** The coding in a view of the shared scratch: valid until the next call. */
function encodeInt32(values: Int32Array): Uint8Array {
  const n = values.length;
  if (n === 0) return new Uint8Array(0);
  const common = mostCommonDifference(values);
  const codesBytes = (n * 2 + 7) >> 3;
  // Every difference is stored as four bytes and the next one overwrites what its code says is
  // not part of it: the last store still ends within room for n full ones. Every code byte is
  // assigned whole, so what an earlier call left in the buffer never shows through.
  const need = 4 + codesBytes + n * 4;
  let out = scratch;
  if (out.length < need) {
    out = new Uint8Array(need);
    if (need <= SCRATCH_KEPT_BYTES) scratch = out;
  }
  const view = new DataView(out.buffer);
  view.setInt32(0, common, true);
  let codeAt = 4,
    at = 4 + codesBytes,
    previous = 0,
    codeByte = 0;
  // Branch-free: the kind of each difference (common, 8-, 16- or 32-bit) follows no pattern in
  // triangle indices, and a branch per value mispredicted often enough to make this loop ~5×
  // slower. `(x | -x) >>> 31` is 1 when x ≠ 0.
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    const d = (v - previous) | 0;
    previous = v;
    const e = d ^ common,
      w8 = (d + 128) >>> 8,
      w16 = (d + 32768) >>> 16;
    const code = ((e | -e) >>> 31) * (1 + ((w8 | -w8) >>> 31) + ((w16 | -w16) >>> 31));
    view.setInt32(at, d, true);
    at += code + ((code >> 1) & code); // bytes: 0, 1, 2, 4
    codeByte |= code << ((i & 3) * 2);
    if ((i & 3) === 3) {
      out[codeAt++] = codeByte;
      codeByte = 0;
    }
  }
  if (n & 3) out[codeAt] = codeByte;
  return out.subarray(0, at);
}

// One table for every call (calls are synchronous), cleared after each.
const counts = new Uint32Array(2 * COMMON_RANGE + 1);

/** The most frequent difference between neighbours (the larger on a tie), among small ones. */
function mostCommonDifference(values: Int32Array): number {
  let previous = 0,
    lo = COMMON_RANGE,
    hi = -COMMON_RANGE;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const d = (v - previous) | 0;
    previous = v;
    if (d < -COMMON_RANGE || d > COMMON_RANGE) continue;
    counts[d + COMMON_RANGE]!++;
    if (d < lo) lo = d;
    if (d > hi) hi = d;
  }
  // Only the slots between the smallest and the largest difference counted are read and cleared
  // (a mesh's short arrays span a few), not the whole table. Ascending with `>=`, the larger
  // difference wins a tie.
  let best = 0,
    bestCount = 0;
  for (let d = lo; d <= hi; d++) {
    const c = counts[d + COMMON_RANGE]!;
    if (c > 0 && c >= bestCount) {
      best = d;
      bestCount = c;
    }
    counts[d + COMMON_RANGE] = 0;
  }
  return best;
}

/**
 * Decodes `count` integers coded as {@link encodeIntegers} codes them (USD's integer coding,
 * before framing): 32-bit integers with 8- and 16-bit differences, or 64-bit ones with 16- and
 * 32-bit differences (`width` 64, returned as numbers, exact to 2^53). Throws a `RangeError`
 * naming the fault when the coding ends early.
 *
 * @example
 * ```ts
 * decodeIntegers(encodeIntegers([5, 7, 9]), 3); // → Int32Array [5, 7, 9]
 * ```
 */
export function decodeIntegers(coded: Uint8Array, count: number, width: 32 | 64 = 32): Int32Array | Float64Array {
  const out = width === 32 ? new Int32Array(count) : new Float64Array(count);
  if (count === 0) return out;
  const view = new DataView(coded.buffer, coded.byteOffset, coded.byteLength);
  const wide = width === 64;
  const commonBytes = wide ? 8 : 4;
  const codesBytes = (count * 2 + 7) >> 3;
  if (coded.length < commonBytes + codesBytes) throw new RangeError(`the integer coding of ${count} values ends in its header`);
  const common = wide ? Number(view.getBigInt64(0, true)) : view.getInt32(0, true);
  const codeAt = commonBytes;
  let at = commonBytes + codesBytes,
    previous = 0;
  const need = (n: number) => {
    if (at + n > coded.length) throw new RangeError(`the integer coding of ${count} values ends early`);
  };
  for (let i = 0; i < count; i++) {
    const code = (coded[codeAt + (i >> 2)]! >>> ((i & 3) * 2)) & 3;
    let d: number;
    switch (code) {
      case 0:
        d = common;
        break;
      case 1:
        need(wide ? 2 : 1);
        d = wide ? view.getInt16(at, true) : view.getInt8(at);
        at += wide ? 2 : 1;
        break;
      case 2:
        need(wide ? 4 : 2);
        d = wide ? view.getInt32(at, true) : view.getInt16(at, true);
        at += wide ? 4 : 2;
        break;
      default:
        need(wide ? 8 : 4);
        d = wide ? Number(view.getBigInt64(at, true)) : view.getInt32(at, true);
        at += wide ? 8 : 4;
    }
    previous = wide ? previous + d : (previous + d) | 0;
    out[i] = previous;
  }
  return out;
}
