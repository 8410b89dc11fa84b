import type { SceneData, SceneTexture } from '../scene/SceneData.js';
import { imageSize } from '../image/imageSize.js';

/** Textures brought within a size, and how many had to be. */
export interface ResizedTextures {
  scene: SceneData;
  resized: number;
}

/**
 * Scales every texture whose longer side exceeds `maxSize` down to it (aspect kept, Lanczos, by
 * sharp), in its own format: PNG stays lossless PNG, JPEG is re-encoded at quality 90. Textures
 * within the size are kept byte for byte, and a scene without any to resize comes back as it is.
 *
 * @example
 * ```ts
 * const { scene: small } = await resizeTextures(scene, 1024);
 * ```
 */
export async function resizeTextures(scene: SceneData, maxSize: number): Promise<ResizedTextures> {
  const over = scene.textures.map((t) => largestSide(t) > maxSize);
  if (!over.includes(true)) return { scene, resized: 0 };
  // Loaded only when needed: sharp's native module costs start-up time.
  const { default: sharp } = await import('sharp');
  const textures = await Promise.all(scene.textures.map(async (t, i): Promise<SceneTexture> => {
    if (!over[i]) return t;
    const resized = sharp(t.data).resize({ width: maxSize, height: maxSize, fit: 'inside', withoutEnlargement: true });
    const data = t.mimeType === 'image/png' ? await resized.png().toBuffer() : await resized.jpeg({ quality: 90 }).toBuffer();
    return { ...t, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  }));
  return { scene: { ...scene, textures }, resized: over.filter(Boolean).length };
}

/** Longer side of a texture in pixels; 0 when its header does not say (it is then left alone). */
export function largestSide(texture: SceneTexture): number {
  const size = imageSize(texture.data, texture.mimeType);
  return size ? Math.max(size.width, size.height) : 0;
}
