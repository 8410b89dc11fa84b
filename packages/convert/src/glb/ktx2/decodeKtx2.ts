import type { RgbaImage } from '../../image/RgbaImage.js';
import { basisTranscoder } from './basisTranscoder.js';

/** Largest side decoded (the KTX2 maximum in practice); a header claiming more is refused. */
const MAX_SIDE = 16384;

/**
 * Decodes the base level of a KTX2 texture (Basis UASTC or ETC1S, as `KHR_texture_basisu`
 * requires) to RGBA through Basis Universal's transcoder. The transcoder is not re-entrant; each
 * call runs from start to end without yielding, so calls on one thread never interleave. Throws
 * an `Error` naming what is wrong with the container.
 *
 * @example
 * ```ts
 * const { width, height, rgba } = await decodeKtx2(ktx2Bytes);
 * ```
 */
export async function decodeKtx2(bytes: Uint8Array): Promise<RgbaImage> {
  const basis = await basisTranscoder();
  const file = new basis.KTX2File(bytes);
  try {
    if (!file.isValid()) throw new Error('not a KTX2 container the Basis transcoder can read (KTX2 holding Basis UASTC or ETC1S data)');
    const width = file.getWidth(),
      height = file.getHeight();
    if (!(width > 0 && height > 0 && width <= MAX_SIDE && height <= MAX_SIDE))
      throw new Error(`its size ${width}×${height} is outside 1–${MAX_SIDE} pixels`);
    if (file.getFaces() !== 1) throw new Error('it is a cube map, which a material texture cannot be');
    if (!file.startTranscoding()) throw new Error('the transcoder cannot start on it');
    const format = basis.transcoder_texture_format.cTFRGBA32.value;
    const rgba = new Uint8Array(file.getImageTranscodedSizeInBytes(0, 0, 0, format));
    if (rgba.length !== width * height * 4) throw new Error('the transcoder sized its image unexpectedly');
    if (!file.transcodeImage(rgba, 0, 0, 0, format, 0, -1, -1)) throw new Error('its image data does not transcode (corrupt?)');
    return { width, height, hasAlpha: file.getHasAlpha(), rgba };
  } finally {
    file.close();
    file.delete();
  }
}
