import type { SceneData } from '@arsession/convert';

/** Options of {@link sceneColours}. */
export interface SceneColoursOptions {
  /**
   * Materials less opaque than this are left undrawn (alpha 0). The renderer does not blend, and
   * drawn opaque the glass of a building's windows (IfcWindow panes are mostly transparent)
   * would hide its rooms and wall the inside view in; skipped, the frames still show where it is.
   */
  minOpacity: number;
}

/** Defaults of {@link sceneColours}. */
export const SCENE_COLOURS_DEFAULTS: Readonly<SceneColoursOptions> = { minOpacity: 0.5 };

/**
 * The display colour of every triangle a scene draws, RGBA (sRGB, 8 bits) per triangle, in the
 * order `worldTriangles` flattens the scene (node by node, each node's meshes in turn): the
 * material's linear `baseColor` turned sRGB, alpha 255, or 0 for a material under
 * `minOpacity`. Textures are not sampled: a textured material shows its base colour factor.
 *
 * @example
 * ```ts
 * const soup = worldTriangles(scene);
 * const colours = sceneColours(scene); // colours.length === soup.categories.length * 4
 * ```
 */
export function sceneColours(
  scene: Pick<SceneData, 'nodes' | 'meshes' | 'materials'>,
  options: Partial<SceneColoursOptions> = {},
): Uint8Array {
  const { minOpacity } = { ...SCENE_COLOURS_DEFAULTS, ...options };
  const palette = scene.materials.map((m) => [
    srgb(m.baseColor[0]),
    srgb(m.baseColor[1]),
    srgb(m.baseColor[2]),
    m.opacity < minOpacity ? 0 : 255,
  ]);
  // A mesh without a material (an index past the list) is drawn mid grey rather than dropped.
  const fallback = [160, 160, 160, 255];
  let triangles = 0;
  for (const node of scene.nodes) for (const m of node.meshes) triangles += scene.meshes[m]!.indices.length / 3;
  const colours = new Uint8Array(triangles * 4);
  let t = 0;
  for (const node of scene.nodes) {
    for (const m of node.meshes) {
      const mesh = scene.meshes[m]!;
      const colour = palette[mesh.material] ?? fallback;
      const end = t + mesh.indices.length / 3;
      for (; t < end; t++) colours.set(colour, t * 4);
    }
  }
  return colours;
}

/** A linear channel (0–1) as an 8-bit sRGB value. */
function srgb(linear: number): number {
  const c = Math.min(1, Math.max(0, linear));
  return Math.round(255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055));
}
