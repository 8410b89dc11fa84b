/** Items grouped by key ({@link groupBy}): group g's items are `order[start[g] … start[g + 1])`. */
export interface Groups {
  /** Where each group begins in `order`, and one past the last: `groups + 1` entries. */
  start: Uint32Array;
  /** The items, group by group, each group in item order. */
  order: Uint32Array;
}

/**
 * Items 0 … keys.length − 1 grouped by their key, a stable counting sort in three passes over
 * typed arrays: the compressed rows of a mesh's triangles at each vertex, of the vertices welded
 * to each, of triangles by element. Items whose key is outside 0 … groups − 1 are left out.
 *
 * @example
 * ```ts
 * const { start, order } = groupBy(mesh.indices, vertexCount); // corners at each vertex
 * for (let r = start[v]; r < start[v + 1]; r++) Math.floor(order[r] / 3); // a triangle at v
 * ```
 */
export function groupBy(keys: ArrayLike<number>, groups: number): Groups {
  const start = new Uint32Array(groups + 1);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (k >= 0 && k < groups) start[k + 1]!++;
  }
  for (let g = 0; g < groups; g++) start[g + 1]! += start[g]!;
  const fill = start.slice(0, groups);
  const order = new Uint32Array(start[groups]!);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (k >= 0 && k < groups) order[fill[k]!++] = i;
  }
  return { start, order };
}
