import type { RgbaImage } from './RgbaImage.js';

/** Options of {@link decodeTga}. */
export interface DecodeTgaOptions {
  /** Most pixels an image may have: a header claims its size, and an RLE body can claim anything. */
  maxPixels: number;
}

/** Defaults of {@link decodeTga}: 64 Mpx (256 MiB decoded), past any texture a device takes. */
export const DECODE_TGA_DEFAULTS: Readonly<DecodeTgaOptions> = { maxPixels: 1 << 26 };

/** A TGA file that cannot be decoded, with why. */
export class TgaError extends Error {}

const HEADER_BYTES = 18;

/**
 * Decodes a Truevision TGA image (the 1991 TGA 2.0 specification: colour-mapped, true-colour and
 * greyscale, raw or run-length encoded, 8/15/16/24/32 bits per pixel, any origin corner) into
 * top-down RGBA. A 32-bit image whose alpha is zero everywhere is read as opaque, as viewers do:
 * many writers leave the alpha bits unset. Throws {@link TgaError} naming the fault for anything
 * the bytes do not hold, and never allocates past `maxPixels`.
 *
 * @example
 * ```ts
 * const { width, height, rgba } = decodeTga(readFileSync('roughness.tga'));
 * ```
 */
export function decodeTga(bytes: Uint8Array, options: Partial<DecodeTgaOptions> = {}): RgbaImage {
  const { maxPixels } = { ...DECODE_TGA_DEFAULTS, ...options };
  if (bytes.length < HEADER_BYTES) throw new TgaError(`it has ${bytes.length} bytes, fewer than a TGA header`);
  const u16 = (at: number) => bytes[at]! | (bytes[at + 1]! << 8);
  const idLength = bytes[0]!,
    colorMapType = bytes[1]!,
    imageType = bytes[2]!;
  const mapFirst = u16(3),
    mapLength = u16(5),
    mapEntryBits = bytes[7]!;
  const width = u16(12),
    height = u16(14),
    depth = bytes[16]!,
    descriptor = bytes[17]!;
  const kind = imageType & 7,
    rle = (imageType & 8) !== 0;
  if (![1, 2, 3].includes(kind) || imageType > 11) throw new TgaError(`image type ${imageType} is not one TGA defines`);
  if (width === 0 || height === 0) throw new TgaError(`it is ${width}×${height} pixels`);
  if (width * height > maxPixels) throw new TgaError(`it claims ${width}×${height} pixels, over the ${maxPixels}-pixel limit`);
  const formats: Record<number, readonly number[]> = { 1: [8, 16], 2: [15, 16, 24, 32], 3: [8, 16] };
  if (!formats[kind]!.includes(depth)) throw new TgaError(`${depth} bits per pixel does not go with image type ${imageType}`);
  if (kind === 1 && colorMapType !== 1) throw new TgaError('a colour-mapped image has no colour map');

  let at = HEADER_BYTES + idLength;
  let palette: Uint8Array | undefined;
  if (colorMapType === 1) {
    const entryBytes = Math.ceil(mapEntryBits / 8);
    if (![15, 16, 24, 32].includes(mapEntryBits)) throw new TgaError(`colour map entries of ${mapEntryBits} bits are not defined`);
    palette = new Uint8Array((mapFirst + mapLength) * 4);
    for (let i = 0; i < mapLength; i++, at += entryBytes) {
      if (at + entryBytes > bytes.length) throw new TgaError('the colour map runs past the end of the file');
      readTrueColor(bytes, at, mapEntryBits, palette, (mapFirst + i) * 4);
    }
  }

  const pixelBytes = Math.ceil(depth / 8);
  const pixels = width * height;
  // Before anything is allocated: the body must be able to hold what the header claims (a run-length
  // packet covers at most 128 pixels for 1 + pixelBytes bytes).
  const left = bytes.length - at;
  const coverable = rle ? Math.floor(left / (1 + pixelBytes)) * 128 : Math.floor(left / pixelBytes);
  if (pixels > coverable)
    throw new TgaError(`the pixel data ends early (${pixels} pixels of ${depth} bits claimed in ${Math.max(0, left)} bytes)`);
  const out = new Uint8Array(pixels * 4);
  const put = (src: number, pixel: number) => {
    const o = pixel * 4;
    if (kind === 2) readTrueColor(bytes, src, depth, out, o);
    else if (kind === 3) {
      out[o] = out[o + 1] = out[o + 2] = bytes[src]!;
      out[o + 3] = depth === 16 ? bytes[src + 1]! : 255;
    } else {
      const index = depth === 16 ? u16(src) : bytes[src]!;
      if (!palette || index >= palette.length / 4)
        throw new TgaError(`pixel ${pixel} uses colour ${index}, past the ${mapLength}-entry map`);
      out.set(palette.subarray(index * 4, index * 4 + 4), o);
    }
  };
  const need = (n: number) => {
    if (at + n > bytes.length) throw new TgaError(`the pixel data ends early (${pixels} pixels of ${depth} bits claimed)`);
  };
  if (!rle) {
    need(pixels * pixelBytes);
    for (let p = 0; p < pixels; p++, at += pixelBytes) put(at, p);
  } else {
    for (let p = 0; p < pixels; ) {
      need(1);
      const header = bytes[at++]!;
      const count = (header & 0x7f) + 1;
      if (p + count > pixels) throw new TgaError('a run-length packet runs past the image');
      if (header & 0x80) {
        need(pixelBytes);
        for (let k = 0; k < count; k++) put(at, p++);
        at += pixelBytes;
      } else {
        need(count * pixelBytes);
        for (let k = 0; k < count; k++, at += pixelBytes) put(at, p++);
      }
    }
  }
  return orient(out, width, height, descriptor, kind === 2 && depth === 32);
}

/** One BGR(A) or 15/16-bit ARGB pixel into RGBA. */
function readTrueColor(bytes: Uint8Array, at: number, bits: number, out: Uint8Array, o: number): void {
  if (bits >= 24) {
    out[o] = bytes[at + 2]!;
    out[o + 1] = bytes[at + 1]!;
    out[o + 2] = bytes[at]!;
    out[o + 3] = bits === 32 ? bytes[at + 3]! : 255;
    return;
  }
  const v = bytes[at]! | (bytes[at + 1]! << 8);
  const five = (x: number) => (x << 3) | (x >> 2);
  out[o] = five((v >> 10) & 31);
  out[o + 1] = five((v >> 5) & 31);
  out[o + 2] = five(v & 31);
  // The top bit is an attribute, not dependable alpha: 16-bit textures are drawn opaque.
  out[o + 3] = 255;
}

/** Rows top-down and columns left to right, whatever corner the file starts at. */
function orient(rgba: Uint8Array, width: number, height: number, descriptor: number, alphaFromFile: boolean): RgbaImage {
  const fromTop = (descriptor & 0x20) !== 0,
    fromRight = (descriptor & 0x10) !== 0;
  let out = rgba;
  if (!fromTop || fromRight) {
    out = new Uint8Array(rgba.length);
    const view = new Uint32Array(rgba.buffer),
      target = new Uint32Array(out.buffer);
    for (let y = 0; y < height; y++) {
      const sy = fromTop ? y : height - 1 - y;
      for (let x = 0; x < width; x++) target[y * width + x] = view[sy * width + (fromRight ? width - 1 - x : x)]!;
    }
  }
  let anyTranslucent = false,
    anyVisible = false;
  for (let i = 3; i < out.length; i += 4) {
    if (out[i] !== 255) anyTranslucent = true;
    if (out[i] !== 0) anyVisible = true;
  }
  if (alphaFromFile && !anyVisible) {
    for (let i = 3; i < out.length; i += 4) out[i] = 255;
    anyTranslucent = false;
  }
  return { width, height, rgba: out, hasAlpha: anyTranslucent };
}
