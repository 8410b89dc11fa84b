/** A corrupt or lying compressed stream. */
export class DecompressError extends Error {}

/**
 * Undoes USD's `TfFastCompression` framing of LZ4 blocks: a first byte of 0 means the rest is one
 * block; n > 0 means n chunks follow, each an int32 size and that many bytes of one block. The
 * output must fit `maxOutput` bytes (the size the caller knows the data has); anything that would
 * read or write out of bounds throws {@link DecompressError}.
 *
 * @example
 * ```ts
 * decompressFramed(fastCompress(bytes), bytes.length); // → bytes
 * ```
 */
export function decompressFramed(input: Uint8Array, maxOutput: number): Uint8Array {
  if (input.length === 0) throw new DecompressError('empty compressed stream');
  const out = new Uint8Array(maxOutput);
  const chunks = input[0]!;
  if (chunks === 0) return out.subarray(0, decompressLz4Block(input, 1, input.length, out, 0));
  let at = 1,
    written = 0;
  const view = new DataView(input.buffer, input.byteOffset, input.byteLength);
  for (let c = 0; c < chunks; c++) {
    if (at + 4 > input.length) throw new DecompressError('a chunk header runs past the stream');
    const size = view.getInt32(at, true);
    at += 4;
    if (size < 0 || at + size > input.length) throw new DecompressError(`a chunk of ${size} bytes runs past the stream`);
    written = decompressLz4Block(input, at, at + size, out, written);
    at += size;
  }
  return out.subarray(0, written);
}

/**
 * Decodes one LZ4 block (`input[from, to)`) into `out` from `outAt`; returns the new end of the
 * output. Sequences of literals and back-references, as LZ4's block format defines them.
 */
export function decompressLz4Block(input: Uint8Array, from: number, to: number, out: Uint8Array, outAt: number): number {
  let ip = from,
    op = outAt;
  while (ip < to) {
    const token = input[ip++]!;
    let literals = token >>> 4;
    if (literals === 15) {
      let b: number;
      do {
        if (ip >= to) throw new DecompressError('a literal length runs past the block');
        b = input[ip++]!;
        literals += b;
      } while (b === 255);
    }
    if (ip + literals > to) throw new DecompressError('literals run past the block');
    if (op + literals > out.length) throw new DecompressError('the block decompresses to more than its declared size');
    out.set(input.subarray(ip, ip + literals), op);
    ip += literals;
    op += literals;
    if (ip >= to) break; // the last sequence holds literals only
    if (ip + 2 > to) throw new DecompressError('a match offset runs past the block');
    const offset = input[ip]! | (input[ip + 1]! << 8);
    ip += 2;
    if (offset === 0 || offset > op - outAt) throw new DecompressError('a match refers before the start of the output');
    let length = token & 15;
    if (length === 15) {
      let b: number;
      do {
        if (ip >= to) throw new DecompressError('a match length runs past the block');
        b = input[ip++]!;
        length += b;
      } while (b === 255);
    }
    length += 4;
    if (op + length > out.length) throw new DecompressError('the block decompresses to more than its declared size');
    // Byte by byte: a match may overlap what it writes (a run repeats its own output).
    for (let k = 0; k < length; k++, op++) out[op] = out[op - offset]!;
  }
  return op;
}
