/**
 * A fresh 4×4 identity (column-major), for a node's own matrix.
 *
 * @example
 * ```ts
 * nodes.push({ name: 'storey', parent: -1, matrix: newIdentityMatrix(), meshes: [], metadata: {} });
 * ```
 */
export function newIdentityMatrix(): Float64Array {
  return new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
}

/** Whether a column-major 4×4 is exactly the identity: then points can be taken, or copied, as they are. */
export function isIdentityMatrix(m: Float64Array): boolean {
  for (let i = 0; i < 16; i++) if (m[i] !== (i % 5 === 0 ? 1 : 0)) return false;
  return true;
}
