/**
 * Width and height of a PNG or JPEG from its header, without decoding it: PNG's IHDR, JPEG's first
 * start-of-frame marker. `undefined` when the bytes do not say (truncated or not an image); a
 * texture's decoder reports that, this only measures.
 *
 * @example
 * ```ts
 * imageSize(png, 'image/png'); // → { width: 2048, height: 1024 }
 * ```
 */
export function imageSize(data: Uint8Array, mimeType: 'image/png' | 'image/jpeg'): { width: number; height: number } | undefined {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (mimeType === 'image/png') {
    return data.length >= 24 ? { width: view.getUint32(16), height: view.getUint32(20) } : undefined;
  }
  let at = 2; // after SOI
  while (at + 9 <= data.length) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    } // fill byte
    // Standalone markers carry no length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    }
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
}
