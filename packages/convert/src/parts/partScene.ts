import type { SceneData, SceneMaterial, SceneNode } from '../scene/SceneData.js';
import { sceneStats } from '../scene/sceneStats.js';
import type { ScenePart } from './ScenePart.js';

/**
 * The scene of one part: its element nodes with their ancestors (a storey's node stays their
 * parent), the meshes, materials and textures they use, renumbered; the same frame and offset
 * as the whole, so parts and overview line up. Arrays are shared with the whole, not copied.
 *
 * @example
 * ```ts
 * const storey = partScene(scene, splitIntoParts(scene, scene.levels)[0]!);
 * ```
 */
export function partScene(scene: SceneData, part: ScenePart): SceneData {
  const keep = new Uint8Array(scene.nodes.length);
  for (const n of part.nodes) for (let i = n; i >= 0 && !keep[i]; i = scene.nodes[i]!.parent) keep[i] = 1;
  const nodeIndex = new Map<number, number>();
  const meshIndex = new Map<number, number>();
  const materialIndex = new Map<number, number>();
  const textureIndex = new Map<number, number>();
  const drawn = new Set(part.nodes);
  const nodes: SceneNode[] = [];
  const meshes: SceneData['meshes'] = [];
  const renumber = (map: Map<number, number>, old: number): number => {
    let now = map.get(old);
    if (now === undefined) map.set(old, (now = map.size));
    return now;
  };
  scene.nodes.forEach((node, i) => {
    if (!keep[i]) return;
    nodeIndex.set(i, nodes.length);
    const own = drawn.has(i) ? node.meshes : [];
    for (const m of own) {
      if (meshIndex.has(m)) continue;
      const mesh = scene.meshes[m]!;
      meshIndex.set(m, meshes.length);
      meshes.push({ ...mesh, material: renumber(materialIndex, mesh.material) });
    }
    nodes.push({ ...node, parent: node.parent < 0 ? -1 : nodeIndex.get(node.parent)!, meshes: own.map((m) => meshIndex.get(m)!) });
  });
  const materials = [...materialIndex.keys()].map((old) => {
    const material = { ...scene.materials[old]! };
    for (const slot of TEXTURE_SLOTS) retexture(material, slot, (t) => renumber(textureIndex, t));
    return material;
  });
  const textures = [...textureIndex.keys()].map((old) => scene.textures[old]!);
  const base = { nodes, meshes, materials, textures };
  return { source: scene.source, ...base, offset: scene.offset, bounds: part.bounds, stats: sceneStats(base), warnings: [] };
}

const TEXTURE_SLOTS = [
  'baseColorTexture',
  'normalTexture',
  'occlusionTexture',
  'emissiveTexture',
  'metallicTexture',
  'roughnessTexture',
  'opacityTexture',
] as const;

/** Points one texture slot of a material at its renumbered texture. */
function retexture<K extends (typeof TEXTURE_SLOTS)[number]>(
  material: SceneMaterial,
  slot: K,
  renumber: (texture: number) => number,
): void {
  const ref = material[slot];
  if (ref) material[slot] = { ...ref, texture: renumber(ref.texture) } as SceneMaterial[K];
}
