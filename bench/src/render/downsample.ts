/**
 * An RGBA image shrunk by a whole `factor` each way, each pixel the mean of the `factor × factor`
 * block it covers: rendering at a multiple and shrinking smooths the edges and the shimmer of
 * many sub-pixel triangles (a large model draws millions) that one sample per pixel leaves.
 *
 * @example
 * ```ts
 * const small = downsample(rasterize(soup, camera, { width: 2048, height: 1280 }), 2048, 1280, 2); // 1024 × 640
 * ```
 */
export function downsample(rgba: Uint8Array, width: number, height: number, factor: number): Uint8Array {
  if (factor === 1) return rgba;
  if (!Number.isInteger(factor) || factor < 1 || width % factor !== 0 || height % factor !== 0) {
    throw new Error(`downsample: ${width}×${height} does not divide by ${factor}`);
  }
  const outWidth = width / factor,
    outHeight = height / factor,
    samples = factor * factor;
  const out = new Uint8Array(outWidth * outHeight * 4);
  for (let y = 0; y < outHeight; y++) {
    for (let x = 0; x < outWidth; x++) {
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let dy = 0; dy < factor; dy++) {
          for (let dx = 0; dx < factor; dx++) sum += rgba[((y * factor + dy) * width + x * factor + dx) * 4 + c]!;
        }
        out[(y * outWidth + x) * 4 + c] = Math.round(sum / samples);
      }
    }
  }
  return out;
}
