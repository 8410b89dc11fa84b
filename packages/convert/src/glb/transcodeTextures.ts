import type { Document } from '@gltf-transform/core';
import type { SceneWarning } from '../scene/SceneData.js';

/**
 * Turns textures ARKit cannot load into ones it can, where a well-kept decoder exists: WebP
 * becomes PNG (lossless, alpha kept) through sharp. KTX2 (Basis) has no Node decoder we trust, so it
 * is left for the reader to drop with a warning. Changes the document in place; returns what it did.
 */
export async function transcodeTextures(doc: Document): Promise<SceneWarning[]> {
  const webp = doc.getRoot().listTextures().filter((t) => t.getMimeType() === 'image/webp' && t.getImage());
  if (webp.length === 0) return [];
  // Loaded only when needed: most models have no WebP, and sharp's native module costs start-up time.
  const { default: sharp } = await import('sharp');
  for (const texture of webp) {
    const png = await sharp(texture.getImage()!).png().toBuffer();
    texture.setImage(new Uint8Array(png.buffer, png.byteOffset, png.byteLength)).setMimeType('image/png');
  }
  return [{ code: 'texture_transcoded_webp', message: `${webp.length} WebP texture(s) were transcoded to PNG (ARKit cannot load WebP)` }];
}
