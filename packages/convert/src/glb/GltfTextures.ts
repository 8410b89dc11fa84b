import type { Document, Texture } from '@gltf-transform/core';
import type { ChannelTextureRef, SceneMaterial, SceneTexture, TextureRef } from '../scene/SceneData.js';

type Sharp = typeof import('sharp').default;
const CHANNEL = { r: 0, g: 1, b: 2, a: 3 } as const;

/**
 * The glTF textures of a scene's materials. glTF packs what USD keeps apart — metallic in B and
 * roughness in G of one image, occlusion in R, opacity in the base colour's alpha — so a material
 * whose channels come from elsewhere (a USDZ input) gets new PNGs with the channels moved where
 * glTF reads them; images already laid out that way pass through untouched. Each image is made
 * once, however many materials share it.
 *
 * @example
 * ```ts
 * const textures = new GltfTextures(doc, scene.textures);
 * material.setMetallicRoughnessTexture(await textures.metallicRoughness(m));
 * ```
 */
export class GltfTextures {
  private readonly plain = new Map<number, Texture>();
  private readonly packed = new Map<string, Promise<Texture>>();
  private sharp: Promise<Sharp> | undefined;

  constructor(
    private readonly doc: Document,
    private readonly images: readonly SceneTexture[],
  ) {}

  /** Texture `i` as it is. */
  texture(i: number): Texture {
    let t = this.plain.get(i);
    if (!t) {
      const image = this.images[i]!;
      this.plain.set(i, (t = this.doc.createTexture(image.name).setImage(image.data).setMimeType(image.mimeType)));
    }
    return t;
  }

  /** Base colour, with an opacity channel from elsewhere moved into its alpha. */
  async baseColor(m: SceneMaterial): Promise<Texture | undefined> {
    const base = m.baseColorTexture,
      opacity = m.opacityTexture;
    if (!opacity) return base && this.texture(base.texture);
    const rgb = base ? { ref: base } : { constant: m.baseColor.map((c) => Math.round(255 * linearToSrgb(c))) };
    return this.pack(`base:${base?.texture ?? rgb.constant!.join(',')}:${opacity.texture}${opacity.channel}`, [
      ...[0, 1, 2].map((c) => (rgb.ref ? { ref: rgb.ref, channel: c } : { value: rgb.constant![c]! })),
      { ref: opacity, channel: CHANNEL[opacity.channel] },
    ]);
  }

  /** glTF's metallic-roughness image: roughness in G, metallic in B. */
  async metallicRoughness(m: SceneMaterial): Promise<Texture | undefined> {
    const metal = m.metallicTexture,
      rough = m.roughnessTexture;
    if (!metal && !rough) return undefined;
    if (metal?.channel === 'b' && rough?.channel === 'g' && metal.texture === rough.texture) return this.texture(metal.texture);
    return this.pack(`mr:${key(rough)}:${key(metal)}`, [
      { value: 255 },
      rough ? { ref: rough, channel: CHANNEL[rough.channel] } : { value: 255 },
      metal ? { ref: metal, channel: CHANNEL[metal.channel] } : { value: 255 },
    ]);
  }

  /** glTF's occlusion image: occlusion in R. */
  async occlusion(ref: ChannelTextureRef): Promise<Texture> {
    if (ref.channel === 'r') return this.texture(ref.texture);
    const source = { ref, channel: CHANNEL[ref.channel] };
    return this.pack(`ao:${key(ref)}`, [source, source, source]);
  }

  /** A new PNG whose channels are taken from other images' channels or constants, at the largest source size. */
  private pack(id: string, channels: Array<{ ref: TextureRef; channel: number } | { value: number }>): Promise<Texture> {
    let made = this.packed.get(id);
    if (!made) {
      made = (async () => {
        const sharp = await (this.sharp ??= import('sharp').then((m) => m.default));
        const sources = [...new Set(channels.flatMap((c) => ('ref' in c ? [c.ref.texture] : [])))];
        const decoded = new Map<number, { data: Buffer; width: number; height: number; channels: number }>();
        for (const i of sources) {
          const { data, info } = await sharp(this.images[i]!.data).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
          decoded.set(i, { data, width: info.width, height: info.height, channels: info.channels });
        }
        const width = Math.max(1, ...[...decoded.values()].map((d) => d.width));
        const height = Math.max(1, ...[...decoded.values()].map((d) => d.height));
        const out = Buffer.alloc(width * height * channels.length);
        channels.forEach((c, k) => {
          if ('value' in c) {
            for (let p = k; p < out.length; p += channels.length) out[p] = c.value;
            return;
          }
          const d = decoded.get(c.ref.texture)!;
          // Nearest sample of a smaller source: exact for the same size, the usual case.
          for (let y = 0; y < height; y++) {
            const sy = Math.min(d.height - 1, Math.floor((y * d.height) / height));
            for (let x = 0; x < width; x++) {
              const sx = Math.min(d.width - 1, Math.floor((x * d.width) / width));
              out[(y * width + x) * channels.length + k] = d.data[(sy * d.width + sx) * d.channels + c.channel]!;
            }
          }
        });
        const png = await sharp(out, { raw: { width, height, channels: channels.length as 3 | 4 } })
          .png()
          .toBuffer();
        return this.doc
          .createTexture(id)
          .setImage(new Uint8Array(png.buffer, png.byteOffset, png.byteLength))
          .setMimeType('image/png');
      })();
      this.packed.set(id, made);
    }
    return made;
  }
}

function key(ref: ChannelTextureRef | undefined): string {
  return ref ? `${ref.texture}${ref.channel}` : '-';
}

function linearToSrgb(c: number): number {
  const v = Math.min(1, Math.max(0, c));
  return v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055;
}
