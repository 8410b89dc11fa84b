import type { SceneNode } from '../scene/SceneData.js';

/**
 * What names the element a node draws: its GlobalId, the product it places, else the node itself.
 *
 * @example
 * ```ts
 * elementKey(scene.nodes, 12); // → '2O2Fr$t4X7Zf8NOew3FLOH'
 * ```
 */
export function elementKey(nodes: readonly SceneNode[], node: number): string {
  for (let n = node; n >= 0; n = nodes[n]!.parent) {
    const meta = nodes[n]!.metadata;
    const key = meta.globalId || meta.product;
    if (key) return key;
    if (meta.ifcClass) break;
  }
  return `node ${node}`;
}
