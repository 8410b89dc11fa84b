import type { SceneData } from '../scene/SceneData.js';
import { textureEntryName } from './layer/describeLayer.js';
import { writeUsdaLayer } from './writeUsdaLayer.js';
import { writeUsdcLayer } from './writeUsdcLayer.js';
import { zipStored } from '@arsession/usd';

/** Options of {@link writeUsdz}. */
export interface WriteUsdzOptions {
  /**
   * Root layer format: `usdc` (binary, the default: smaller, and fast to write and to load) or
   * `usda` (text, for reading and diffing).
   */
  layerFormat: 'usdc' | 'usda';
  /** Name of the root layer, the package's first entry; `model.usdc` or `model.usda` by default. */
  layerName?: string;
  /** Name of the default prim. */
  rootName: string;
  /** Meshes drawn at several nodes written once, as instanced prototypes (see `describeLayer`). */
  instanceable: boolean;
}

/** Defaults of {@link writeUsdz}. */
export const WRITE_USDZ_DEFAULTS: Readonly<WriteUsdzOptions> = { layerFormat: 'usdc', rootName: 'Model', instanceable: false };

/**
 * Writes a scene as a USDZ package for ARKit / AR Quick Look: the root layer first, then the
 * textures exactly as they came (PNG/JPEG, never re-encoded); entries stored, 64-byte aligned.
 * Same scene, same bytes. Returns the file as parts in order, to be concatenated or streamed;
 * parts may reference the scene's arrays.
 *
 * @example
 * ```ts
 * const scene = await readGlb(readFileSync('DamagedHelmet.glb'));
 * await writeFile('helmet.usdz', writeUsdz(scene));
 * ```
 */
export function writeUsdz(scene: SceneData, options: Partial<WriteUsdzOptions> = {}): Uint8Array[] {
  const { layer, name } = rootLayer(scene, options);
  return zipStored([{ name, data: layer }, ...scene.textures.map((t, i) => ({ name: textureEntryName(scene, i), data: t.data }))]);
}

/** The package's root layer as parts, with its entry name. */
function rootLayer(scene: SceneData, options: Partial<WriteUsdzOptions> = {}): { layer: Uint8Array[]; name: string } {
  const opts = { ...WRITE_USDZ_DEFAULTS, ...options };
  const layerOptions = { rootName: opts.rootName, instanceable: opts.instanceable };
  const layer = opts.layerFormat === 'usda' ? [...writeUsdaLayer(scene, layerOptions)] : writeUsdcLayer(scene, layerOptions);
  return { layer, name: rootLayerName(opts) };
}

/** The root layer's entry name: `layerName` when given, else `model.usdc` or `model.usda`. */
export function rootLayerName(opts: Pick<WriteUsdzOptions, 'layerFormat' | 'layerName'>): string {
  return opts.layerName ?? `model.${opts.layerFormat}`;
}
