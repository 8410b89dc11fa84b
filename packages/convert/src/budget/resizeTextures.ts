import type { SceneData, SceneTexture } from '../scene/SceneData.js';
import { imageSize } from '../image/imageSize.js';
import { ModelUnreadableError } from '../errors/ConvertError.js';

/** Textures brought within a size, and how many had to be. */
export interface ResizedTextures {
  scene: SceneData;
  resized: number;
}

/**
 * Scales every texture whose longer side exceeds `maxSize` down to it (aspect kept, Lanczos, by
 * sharp), in its own format: PNG stays lossless PNG, JPEG is re-encoded at quality 90. Textures
 * within the size are kept byte for byte, and a scene without any to resize comes back as it is.
 * A texture that cannot be decoded is refused as {@link ModelUnreadableError}, naming it.
 *
 * @example
 * ```ts
 * const { scene: small } = await resizeTextures(scene, 1024);
 * ```
 */
export async function resizeTextures(scene: SceneData, maxSize: number, options: { fileName?: string } = {}): Promise<ResizedTextures> {
  const over = scene.textures.map((t) => largestSide(t) > maxSize);
  if (!over.includes(true)) return { scene, resized: 0 };
  // Loaded only when needed: sharp's native module costs start-up time.
  const { default: sharp } = await import('sharp');
  const textures = await Promise.all(
    scene.textures.map(async (t, i): Promise<SceneTexture> => {
      if (!over[i]) return t;
      try {
        const resized = sharp(t.data).resize({ width: maxSize, height: maxSize, fit: 'inside', withoutEnlargement: true });
        const data = t.mimeType === 'image/png' ? await resized.png().toBuffer() : await resized.jpeg({ quality: 90 }).toBuffer();
        return { ...t, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
      } catch (err) {
        // Passed through untouched until now, a texture is first decoded here: a broken one is the model's fault.
        throw new ModelUnreadableError(
          `${options.fileName ?? 'the model'}: its texture "${t.name}" (${t.mimeType}) ` +
            `cannot be decoded to be scaled down to ${maxSize} px (${(err as Error).message})`,
          {
            ...(options.fileName !== undefined && { fileName: options.fileName }),
          },
        );
      }
    }),
  );
  return { scene: { ...scene, textures }, resized: over.filter(Boolean).length };
}

/** Longer side of a texture in pixels; 0 when its header does not say (it is then left alone). */
export function largestSide(texture: SceneTexture): number {
  const size = imageSize(texture.data, texture.mimeType);
  return size ? Math.max(size.width, size.height) : 0;
}
