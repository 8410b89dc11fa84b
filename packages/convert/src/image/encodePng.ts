import { crc32, deflateSync } from 'node:zlib';
import type { RgbaImage } from './RgbaImage.js';

const SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Encodes an RGBA image as a PNG (8-bit truecolour; without its alpha channel when every pixel is
 * opaque). Synchronous and dependency-free, so a reader can transcode a texture where it meets it.
 *
 * @example
 * ```ts
 * const png = encodePng(decodeTga(tgaBytes)); // → bytes ARKit loads
 * ```
 */
export function encodePng(image: RgbaImage): Uint8Array {
  const { width, height, rgba, hasAlpha } = image;
  const channels = hasAlpha ? 4 : 3;
  const stride = width * channels + 1;
  const raw = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    // Filter 0 (none) on each row: deflate does the work, and the result is the same on every Node.
    let o = y * stride + 1;
    for (let x = 0, i = y * width * 4; x < width; x++, i += 4) {
      raw[o++] = rgba[i]!;
      raw[o++] = rgba[i + 1]!;
      raw[o++] = rgba[i + 2]!;
      if (hasAlpha) raw[o++] = rgba[i + 3]!;
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, hasAlpha ? 6 : 2, 0, 0, 0], 8);
  const parts = [SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 6 })), chunk('IEND', new Uint8Array(0))];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)) >>> 0);
  return out;
}
