import type { Document, Texture } from '@gltf-transform/core';
import type { SceneWarning } from '../scene/SceneData.js';
import { decodeKtx2 } from './ktx2/decodeKtx2.js';

/**
 * Turns textures ARKit cannot load into PNGs it can, through well-kept decoders: WebP through
 * sharp (lossless, alpha kept), KTX2 (Basis UASTC/ETC1S, `KHR_texture_basisu`) through Basis
 * Universal's transcoder and then sharp. A KTX2 texture's base level is delivered pixel for pixel
 * as a GPU would show it, so that needs no warning; WebP re-encoding is reported. Changes the
 * document in place; returns what it reported. Throws an `Error` naming the texture that cannot
 * be decoded.
 *
 * @example
 * ```ts
 * const warnings = await transcodeTextures(doc); // every texture is PNG or JPEG afterwards
 * ```
 */
export async function transcodeTextures(doc: Document): Promise<SceneWarning[]> {
  const textures = doc
    .getRoot()
    .listTextures()
    .filter((t) => t.getImage());
  const webp = textures.filter((t) => t.getMimeType() === 'image/webp');
  const ktx2 = textures.filter((t) => t.getMimeType() === 'image/ktx2');
  if (webp.length === 0 && ktx2.length === 0) return [];
  // Loaded only when needed: most models have neither, and sharp's native module costs start-up time.
  const { default: sharp } = await import('sharp');
  for (const texture of webp) {
    setPng(texture, await sharp(texture.getImage()!).png().toBuffer());
  }
  for (const texture of ktx2) {
    let image: Awaited<ReturnType<typeof decodeKtx2>>;
    try {
      image = await decodeKtx2(texture.getImage()!);
    } catch (err) {
      throw new Error(`KTX2 texture "${texture.getName() || texture.getURI() || 'unnamed'}": ${(err as Error).message}`);
    }
    const raw = sharp(image.rgba, { raw: { width: image.width, height: image.height, channels: 4 } });
    setPng(texture, await (image.hasAlpha ? raw : raw.removeAlpha()).png().toBuffer());
  }
  return webp.length === 0
    ? []
    : [{ code: 'texture_transcoded_webp', message: `${webp.length} WebP texture(s) were transcoded to PNG (ARKit cannot load WebP)` }];
}

function setPng(texture: Texture, png: Buffer): void {
  texture.setImage(new Uint8Array(png.buffer, png.byteOffset, png.byteLength)).setMimeType('image/png');
}
