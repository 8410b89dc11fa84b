/**
 * Frames bytes the way USD's `TfFastCompression` does (a chunk-count byte, then LZ4 blocks), with
 * one LZ4 block that holds the input as literals. Crate files (0.4.0 and later) require their
 * structural sections in this framing; every reader decompresses a literal-only block, and the
 * sections are small enough that real compression would save little and cost a compressor.
 *
 * @example
 * ```ts
 * fastCompress(new TextEncoder().encode('points\0normals\0')); // → 17 bytes: 0, 0xf0, 0x01, 'p', …
 * ```
 */
export function fastCompress(input: Uint8Array): Uint8Array {
  const n = input.length;
  // LZ4 token: literal length in the high nibble, 15 meaning "more length bytes follow".
  const lengthBytes = n >= 15 ? Math.floor((n - 15) / 255) + 1 : 0;
  const out = new Uint8Array(2 + lengthBytes + n);
  out[0] = 0; // one chunk (inputs under LZ4's 2 GB block limit)
  out[1] = Math.min(n, 15) << 4;
  let at = 2;
  if (n >= 15) {
    let rest = n - 15;
    for (; rest >= 255; rest -= 255) out[at++] = 255;
    out[at++] = rest;
  }
  out.set(input, at);
  return out;
}
