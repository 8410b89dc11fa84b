import { mergeByMaterial } from '../scene/mergeByMaterial.js';
import { drawCalls } from '../scene/sceneStats.js';
import type { SceneData, SceneMaterial } from '../scene/SceneData.js';
import type { BudgetStep } from './ArBudget.js';

/** A scene with no more mesh prims than asked, and how it got there. */
export interface MergedToBudget {
  scene: SceneData;
  steps: BudgetStep[];
}

/**
 * Brings a scene's mesh prims (draw calls) within `meshPrims`, losing as little as it can: first
 * merged per storey and material (culling still skips a storey out of view), then per material
 * alone, then with materials that look alike made one (identical ones first, then colours on ever
 * coarser steps, at last all untextured ones). Textured materials are never merged: a scene with
 * more of them than `meshPrims` stays over budget, and the report says so. Element identity survives every merge as triangle runs. A scene already within
 * comes back as it is.
 *
 * @example
 * ```ts
 * mergeToPrimBudget(scene, 200).scene.stats.meshNodes; // ≤ 200
 * ```
 */
export function mergeToPrimBudget(scene: SceneData, meshPrims: number): MergedToBudget {
  if (drawCalls(scene) <= meshPrims) return { scene, steps: [] };
  const byStorey = mergeByMaterial(scene, { minDrawCalls: meshPrims });
  if (drawCalls(byStorey) <= meshPrims) return { scene: byStorey, steps: ['merged'] };
  // '' groups nothing: one mesh per material.
  const byMaterial = mergeByMaterial(byStorey, { minDrawCalls: meshPrims, groupBy: '' });
  if (drawCalls(byMaterial) <= meshPrims) return { scene: byMaterial, steps: ['merged'] };
  // Steps per colour channel; at −1 every plain material is one (the first one's look).
  for (const levels of [0, 64, 32, 16, 8, 4, 2, 1, -1]) {
    const alike = mergeByMaterial(withMaterialsMerged(byMaterial, levels), { minDrawCalls: 0, groupBy: '' });
    if (drawCalls(alike) <= meshPrims || levels === -1) return { scene: alike, steps: ['merged', 'materials_merged'] };
  }
  /* c8 ignore next */
  throw new Error('unreachable: the last level always returns');
}

/**
 * The scene with materials that look alike made one. Textured materials stay apart (their
 * textures differ); plain ones are keyed by their colour and opacity on `levels` steps per channel
 * (0: exactly), with metal, roughness and the flags that change how a surface is drawn.
 */
function withMaterialsMerged(scene: SceneData, levels: number): SceneData {
  const keyOf = (m: SceneMaterial, i: number): string => {
    if (m.baseColorTexture || m.normalTexture || m.occlusionTexture || m.emissiveTexture || m.metallicTexture || m.roughnessTexture || m.opacityTexture) return `texture ${i}`;
    if (levels < 0) return 'plain';
    const q = (v: number) => (levels === 0 ? v : Math.round(v * levels));
    return [...m.baseColor.map(q), q(m.opacity), q(m.metallic), q(m.roughness), ...m.emissive.map(q), m.doubleSided, m.alphaCutoff ?? '', m.alphaBlend ?? ''].join(' ');
  };
  const first = new Map<string, number>();
  const materials: SceneMaterial[] = [];
  const to = scene.materials.map((m, i) => {
    const key = keyOf(m, i);
    let target = first.get(key);
    if (target === undefined) {
      first.set(key, (target = materials.length));
      materials.push(m);
    }
    return target;
  });
  return { ...scene, materials, meshes: scene.meshes.map((mesh) => ({ ...mesh, material: to[mesh.material]! })) };
}
