/**
 * Width and height of a PNG (its IHDR) or a JPEG (its first start-of-frame), read from the header
 * alone; `undefined` when the bytes say neither.
 *
 * @example
 * ```ts
 * imageSize(readFileSync('poster.png')); // → { width: 1200, height: 1697 }
 * ```
 */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && v.getUint32(0) === 0x89504e47 && v.getUint32(12) === 0x49484452)
    return positive(v.getUint32(16), v.getUint32(20));
  if (bytes.length < 4 || v.getUint16(0) !== 0xffd8) return undefined;
  for (let at = 2; at + 9 < bytes.length; ) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    // Fill bytes and markers without a length.
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = v.getUint16(at + 2);
    // Start of frame: every SOFn but DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return positive(v.getUint16(at + 7), v.getUint16(at + 5));
    if (length < 2) return undefined;
    at += 2 + length;
  }
  return undefined;
}

function positive(width: number, height: number): { width: number; height: number } | undefined {
  return width > 0 && height > 0 ? { width, height } : undefined;
}
