import { MeshNodeLimitError } from '../errors/ConvertError.js';
import { countMeshNodes } from './countMeshNodes.js';
import { readGlbJson } from './readGlbJson.js';

/** At most this many mesh nodes per GLB file (interface spec, Limits). */
export const MESH_NODE_LIMIT = 5000;

/** Options of {@link checkMeshNodeLimit}. */
export interface CheckMeshNodeLimitOptions {
  /** Default {@link MESH_NODE_LIMIT}. */
  limit: number;
  /** Name of the uploaded file, for the error message. */
  fileName?: string;
  /** Request field the file came in, for the error. Default `model_file`. */
  field?: string;
}

/**
 * Refuses a GLB over the mesh-node limit in milliseconds, from its JSON chunk alone; returns the
 * count when it passes. Exactly the limit passes.
 *
 * @example
 * ```ts
 * checkMeshNodeLimit(bytes, { fileName: 'tower.glb' }); // → 4213, or throws MeshNodeLimitError
 * ```
 */
export function checkMeshNodeLimit(bytes: Uint8Array, options: Partial<CheckMeshNodeLimitOptions> = {}): number {
  const limit = options.limit ?? MESH_NODE_LIMIT;
  const count = countMeshNodes(readGlbJson(bytes, options.fileName), options.fileName);
  if (count > limit) {
    throw new MeshNodeLimitError(count, limit, {
      ...(options.fileName !== undefined && { fileName: options.fileName }),
      ...(options.field !== undefined && { field: options.field }),
    });
  }
  return count;
}
