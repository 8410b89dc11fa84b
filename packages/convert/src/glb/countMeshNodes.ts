import { ModelUnreadableError } from '../errors/ConvertError.js';
import type { GltfJson } from './readGlbJson.js';

/**
 * Counts mesh nodes as an AR client will see them: every node that references a mesh counts once,
 * except a node with `EXT_mesh_gpu_instancing`, which counts once per instance (USDZ for ARKit has
 * no GPU instancing, so instances are expanded on output). Reads the JSON only.
 *
 * @example
 * ```ts
 * countMeshNodes(readGlbJson(readFileSync('SimpleInstancing.glb'))); // → 125
 * ```
 */
export function countMeshNodes(json: GltfJson, fileName?: string): number {
  const nodes = json.nodes ?? [];
  if (!Array.isArray(nodes)) throw new ModelUnreadableError(`${fileName ?? 'GLB'}: "nodes" is not an array`, { fileName });
  let count = 0;
  for (const node of nodes) {
    if (typeof node !== 'object' || node === null || node.mesh === undefined) continue;
    const instancing = node.extensions?.EXT_mesh_gpu_instancing as { attributes?: Record<string, unknown> } | undefined;
    count += instancing ? instanceCount(json, instancing, fileName) : 1;
  }
  return count;
}

function instanceCount(json: GltfJson, ext: { attributes?: Record<string, unknown> }, fileName?: string): number {
  // The spec requires every instance attribute to have the same count; a file where they differ
  // could pass the limit on one count and be expanded by another, so it is refused.
  const counts = new Set<number>();
  for (const index of Object.values(ext.attributes ?? {})) {
    const accessor = typeof index === 'number' ? json.accessors?.[index] : undefined;
    if (!accessor || !Number.isInteger(accessor.count) || accessor.count! < 0) {
      throw new ModelUnreadableError(
        `${fileName ?? 'GLB'}: EXT_mesh_gpu_instancing refers to accessor ${String(index)}, which does not exist or has no count`,
        { fileName },
      );
    }
    counts.add(accessor.count!);
  }
  if (counts.size > 1) {
    throw new ModelUnreadableError(
      `${fileName ?? 'GLB'}: EXT_mesh_gpu_instancing attributes disagree on the instance count (${[...counts].join(' vs ')})`,
      { fileName },
    );
  }
  return counts.size === 1 ? [...counts][0]! : 1;
}
