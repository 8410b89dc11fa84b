import { crc32, deflateSync } from 'node:zlib';

/** Options of {@link encodePng}. */
export interface EncodePngOptions {
  /** zlib level: the images are committed, so the smallest is worth the few hundred ms. */
  level: number;
}

/** Defaults of {@link encodePng}. */
export const ENCODE_PNG_DEFAULTS: Readonly<EncodePngOptions> = { level: 9 };

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/**
 * An opaque RGBA image (`width × height × 4` bytes, rows top to bottom) as a PNG: 8-bit RGB (the
 * alpha dropped), each row with the PNG filter that leaves it smallest by the usual
 * sum-of-magnitudes guess. JavaScript and node:zlib only, no native canvas to install: any
 * machine decodes the file to exactly the pixels given (the compressed bytes may differ with
 * zlib's build).
 *
 * @example
 * ```ts
 * writeFileSync('view.png', encodePng(rasterize(soup, camera), 1024, 640));
 * ```
 */
export function encodePng(rgba: Uint8Array, width: number, height: number, options: Partial<EncodePngOptions> = {}): Uint8Array {
  const { level } = { ...ENCODE_PNG_DEFAULTS, ...options };
  if (rgba.length !== width * height * 4) throw new Error(`encodePng: ${rgba.length} bytes is not ${width}×${height} RGBA`);
  const stride = width * 3;
  const rows = new Uint8Array((stride + 1) * height);
  let previous = new Uint8Array(stride),
    current = new Uint8Array(stride);
  const candidate = new Uint8Array(stride),
    best = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    for (let x = 0, from = y * width * 4; x < stride; x += 3, from += 4) {
      current[x] = rgba[from]!;
      current[x + 1] = rgba[from + 1]!;
      current[x + 2] = rgba[from + 2]!;
    }
    let bestFilter = 0,
      bestCost = Number.POSITIVE_INFINITY;
    for (let filter = 0; filter < 5; filter++) {
      let cost = 0;
      for (let i = 0; i < stride; i++) {
        const a = i >= 3 ? current[i - 3]! : 0,
          b = previous[i]!,
          c = i >= 3 ? previous[i - 3]! : 0;
        const predicted = filter === 0 ? 0 : filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : paeth(a, b, c);
        const value = (current[i]! - predicted) & 0xff;
        candidate[i] = value;
        // Residues read as signed bytes: small either side of zero is what deflate packs best.
        cost += value < 128 ? value : 256 - value;
      }
      if (cost < bestCost) {
        bestCost = cost;
        bestFilter = filter;
        best.set(candidate);
      }
    }
    rows[y * (stride + 1)] = bestFilter;
    rows.set(best, y * (stride + 1) + 1);
    [previous, current] = [current, previous];
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, adaptive filtering, no interlace
  const parts = [SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level })), chunk('IEND', new Uint8Array(0))];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    png.set(part, offset);
    offset += part.length;
  }
  return png;
}

/** One PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** PNG's Paeth predictor: whichever of left, up and up-left is nearest to left + up − up-left. */
function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a),
    pb = Math.abs(p - b),
    pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
