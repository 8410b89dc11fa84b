import type { SceneData } from '../scene/SceneData.js';
import { textureEntryName, writeUsdaLayer } from './writeUsdaLayer.js';
import { zipStored } from './zipStored.js';

/** Options of {@link writeUsdz}. */
export interface WriteUsdzOptions {
  /** Name of the root layer, the package's first entry. */
  layerName: string;
  /** Name of the default prim. */
  rootName: string;
}

/** Defaults of {@link writeUsdz}. */
export const WRITE_USDZ_DEFAULTS: Readonly<WriteUsdzOptions> = { layerName: 'model.usda', rootName: 'Model' };

/**
 * Writes a scene as a USDZ package for ARKit / AR Quick Look: the USDA root layer first, then the
 * textures exactly as they came (PNG/JPEG, never re-encoded); entries stored, 64-byte aligned.
 * Same scene, same bytes. Returns the file as parts in order, to be concatenated or streamed.
 *
 * @example
 * ```ts
 * const scene = await readGlb(readFileSync('DamagedHelmet.glb'));
 * await writeFile('helmet.usdz', writeUsdz(scene));
 * ```
 */
export function writeUsdz(scene: SceneData, options: Partial<WriteUsdzOptions> = {}): Uint8Array[] {
  const opts = { ...WRITE_USDZ_DEFAULTS, ...options };
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (const bytes of writeUsdaLayer(scene, { rootName: opts.rootName })) {
    chunks.push(bytes);
    size += bytes.length;
  }
  const layer = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    layer.set(c, at);
    at += c.length;
  }
  return zipStored([
    { name: opts.layerName, data: layer },
    ...scene.textures.map((t, i) => ({ name: textureEntryName(scene, i), data: t.data })),
  ]);
}
