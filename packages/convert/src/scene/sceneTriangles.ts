import type { SceneData } from './SceneData.js';
import { worldMatrices } from './sceneStats.js';

/** Every triangle of a scene in world space, as one soup (the form a BVH and door detection take). */
export interface SceneTriangles {
  /** xyz per vertex, Y-up metres, relative to `offset`. */
  positions: Float32Array;
  /** Three vertex indices per triangle. */
  indices: Uint32Array;
  /** The scene's re-centring offset: world = position + offset. */
  offset: [number, number, number];
  /** The node each triangle was drawn by: which part of the model it belongs to. */
  groups: Uint32Array;
}

/**
 * Flattens a scene into one triangle soup: each mesh instance through its node's world matrix
 * (float64, then float32), indices shifted per instance.
 *
 * @example
 * ```ts
 * const soup = sceneTriangles(await readIfc(bytes));
 * const bvh = buildBvh(soup);
 * ```
 */
export function sceneTriangles(scene: Pick<SceneData, 'nodes' | 'meshes' | 'offset'>): SceneTriangles {
  const world = worldMatrices(scene.nodes);
  let vertexCount = 0,
    indexCount = 0;
  for (const node of scene.nodes) {
    for (const m of node.meshes) {
      vertexCount += scene.meshes[m]!.positions.length / 3;
      indexCount += scene.meshes[m]!.indices.length;
    }
  }
  const positions = new Float32Array(vertexCount * 3);
  const indices = new Uint32Array(indexCount);
  const groups = new Uint32Array(indexCount / 3);
  let v = 0,
    i = 0;
  scene.nodes.forEach((node, n) => {
    const w = world[n]!;
    for (const m of node.meshes) {
      const mesh = scene.meshes[m]!;
      const p = mesh.positions,
        base = v / 3;
      for (let k = 0; k < p.length; k += 3) {
        const x = p[k]!,
          y = p[k + 1]!,
          z = p[k + 2]!;
        positions[v++] = w[0]! * x + w[4]! * y + w[8]! * z + w[12]!;
        positions[v++] = w[1]! * x + w[5]! * y + w[9]! * z + w[13]!;
        positions[v++] = w[2]! * x + w[6]! * y + w[10]! * z + w[14]!;
      }
      groups.fill(n, i / 3, (i + mesh.indices.length) / 3);
      for (const index of mesh.indices) indices[i++] = index + base;
    }
  });
  return { positions, indices, offset: [scene.offset[0], scene.offset[1], scene.offset[2]], groups };
}
