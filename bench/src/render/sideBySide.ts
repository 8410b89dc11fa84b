/** Options of {@link sideBySide}. */
export interface SideBySideOptions {
  /** Pixels between the two images. */
  gap: number;
  /** sRGB of the gap. */
  gapColour: readonly [number, number, number];
}

/** Defaults of {@link sideBySide}. */
export const SIDE_BY_SIDE_DEFAULTS: Readonly<SideBySideOptions> = { gap: 8, gapColour: [255, 255, 255] };

/**
 * Two RGBA images of the same size (`width × height × 4` bytes) side by side, `left` then a
 * `gap` then `right`: one picture per view to compare at a glance, for a page that shows images
 * one under another.
 *
 * @example
 * ```ts
 * const both = sideBySide(full, delivered, 1024, 640); // (2 · 1024 + 8) × 640
 * encodePng(both, 2 * 1024 + 8, 640);
 * ```
 */
export function sideBySide(
  left: Uint8Array,
  right: Uint8Array,
  width: number,
  height: number,
  options: Partial<SideBySideOptions> = {},
): Uint8Array {
  const { gap, gapColour } = { ...SIDE_BY_SIDE_DEFAULTS, ...options };
  const outWidth = 2 * width + gap;
  const out = new Uint8Array(outWidth * height * 4);
  const row = width * 4;
  for (let y = 0; y < height; y++) {
    const at = y * outWidth * 4;
    out.set(left.subarray(y * row, (y + 1) * row), at);
    for (let x = at + row; x < at + row + gap * 4; x += 4) {
      out[x] = gapColour[0];
      out[x + 1] = gapColour[1];
      out[x + 2] = gapColour[2];
      out[x + 3] = 255;
    }
    out.set(right.subarray(y * row, (y + 1) * row), at + row + gap * 4);
  }
  return out;
}
