import type { Bounds } from '@arsession/geometry';
import type { SceneData, SceneStats } from './SceneData.js';

/**
 * Counts of a scene, computed from its contents (never stored separately, so they cannot drift).
 *
 * @example
 * ```ts
 * sceneStats(scene).triangles; // → 12 for a cube
 * ```
 */
export function sceneStats(scene: Pick<SceneData, 'nodes' | 'meshes' | 'materials' | 'textures'>): SceneStats {
  let triangles = 0, vertices = 0, meshNodes = 0;
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
 * World-space bounds of every drawn vertex (each mesh instance through its node's world matrix).
 * Empty scenes give infinite bounds (min +∞, max −∞).
 */
export function sceneBounds(scene: Pick<SceneData, 'nodes' | 'meshes'>): Bounds {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  const world = worldMatrices(scene.nodes);
  scene.nodes.forEach((node, i) => {
    const m = world[i]!;
    for (const meshIndex of node.meshes) {
      const p = scene.meshes[meshIndex]!.positions;
      for (let v = 0; v < p.length; v += 3) {
        const x = p[v]!, y = p[v + 1]!, z = p[v + 2]!;
        const wx = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!;
        const wy = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
        const wz = m[2]! * x + m[6]! * y + m[10]! * z + m[14]!;
        if (wx < min[0]) min[0] = wx; if (wx > max[0]) max[0] = wx;
        if (wy < min[1]) min[1] = wy; if (wy > max[1]) max[1] = wy;
        if (wz < min[2]) min[2] = wz; if (wz > max[2]) max[2] = wz;
      }
    }
  });
  return { min, max };
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
        w[c * 4 + r] = p[r]! * local[c * 4]! + p[4 + r]! * local[c * 4 + 1]! + p[8 + r]! * local[c * 4 + 2]! + p[12 + r]! * local[c * 4 + 3]!;
      }
    }
    out.push(w);
  }
  return out;
}
