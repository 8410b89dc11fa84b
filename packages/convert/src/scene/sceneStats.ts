import type { Bounds } from '@arsession/geometry';
import type { SceneData, SceneStats } from './SceneData.js';
import { emptyBounds, growBounds } from './growBounds.js';

/**
 * Counts of a scene, computed from its contents (never stored separately, so they cannot drift).
 *
 * @example
 * ```ts
 * sceneStats(scene).triangles; // → 12 for a cube
 * ```
 */
export function sceneStats(scene: Pick<SceneData, 'nodes' | 'meshes' | 'materials' | 'textures'>): SceneStats {
  let triangles = 0,
    vertices = 0,
    meshNodes = 0;
  for (const node of scene.nodes) {
    if (node.meshes.length > 0) meshNodes++;
    for (const m of node.meshes) {
      triangles += scene.meshes[m]!.indices.length / 3;
      vertices += scene.meshes[m]!.positions.length / 3;
    }
  }
  return {
    nodes: scene.nodes.length,
    meshNodes,
    meshes: scene.meshes.length,
    triangles,
    vertices,
    materials: scene.materials.length,
    textures: scene.textures.length,
  };
}

/**
 * Draw calls of a scene: one per mesh per node that draws it, which is a USD mesh prim each.
 *
 * @example
 * ```ts
 * drawCalls(scene); // → 245 for AC20-FZK-Haus as read
 * ```
 */
export function drawCalls(scene: Pick<SceneData, 'nodes'>): number {
  return scene.nodes.reduce((n, node) => n + node.meshes.length, 0);
}

/**
 * World-space bounds of every drawn vertex (each mesh instance through its node's world matrix).
 * Empty scenes give infinite bounds (min +∞, max −∞).
 */
export function sceneBounds(scene: Pick<SceneData, 'nodes' | 'meshes'>): Bounds {
  const bounds = emptyBounds();
  const world = worldMatrices(scene.nodes);
  scene.nodes.forEach((node, i) => {
    for (const meshIndex of node.meshes) growBounds(bounds, scene.meshes[meshIndex]!.positions, 3, world[i]!);
  });
  return bounds;
}

/** World matrix of every node (parents precede children, as `SceneData` guarantees). */
export function worldMatrices(nodes: SceneData['nodes']): Float64Array[] {
  const out: Float64Array[] = [];
  for (const node of nodes) {
    const local = node.matrix;
    if (node.parent < 0) {
      out.push(local);
      continue;
    }
    const p = out[node.parent]!;
    const w = new Float64Array(16);
    for (let c = 0; c < 4; c++) {
      for (let r = 0; r < 4; r++) {
        w[c * 4 + r] =
          p[r]! * local[c * 4]! + p[4 + r]! * local[c * 4 + 1]! + p[8 + r]! * local[c * 4 + 2]! + p[12 + r]! * local[c * 4 + 3]!;
      }
    }
    out.push(w);
  }
  return out;
}
