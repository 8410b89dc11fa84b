/** A decoded image: 8-bit RGBA, rows top to bottom, as the texture decoders give it and {@link encodePng} takes it. */
export interface RgbaImage {
  width: number;
  height: number;
  /** `width × height × 4` bytes. */
  rgba: Uint8Array;
  /** False when every pixel is opaque (every alpha 255). */
  hasAlpha: boolean;
}
