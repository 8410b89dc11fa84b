import type { SceneData } from './SceneData.js';

/**
 * Delivered triangles that no element owns: outside every element run of a merged mesh, and
 * drawn by no node that names an element (an IFC GlobalId, a GLB or USD node's name). What an
 * app cannot answer "what is this?" for when it is tapped; the budget keeps identity through
 * simplification, merging and stand-ins, so the figure is 0 for a model whose elements are named.
 *
 * @example
 * ```ts
 * trianglesWithoutElement(fitted.scene); // → 0
 * ```
 */
export function trianglesWithoutElement(scene: Pick<SceneData, 'nodes' | 'meshes'>): number {
  const named = new Uint8Array(scene.nodes.length);
  scene.nodes.forEach((node, i) => {
    named[i] = node.metadata.globalId || node.name ? 1 : node.parent >= 0 ? named[node.parent]! : 0;
  });
  let without = 0;
  scene.nodes.forEach((node, i) => {
    for (const m of node.meshes) {
      const mesh = scene.meshes[m]!;
      const triangles = mesh.indices.length / 3;
      if (!mesh.elements) {
        if (!named[i]) without += triangles;
        continue;
      }
      // Merged: each run names its element; what no run covers, nobody owns.
      const owned = mesh.elements.reduce((n, e) => n + (e.metadata.globalId || e.metadata.name ? e.triangleCount : 0), 0);
      without += triangles - owned;
    }
  });
  return without;
}
