/**
 * A bounding-volume hierarchy over a triangle soup, as plain typed arrays so it can be cached,
 * posted to a worker or written to disk and used again without rebuilding.
 *
 * Node `i` occupies `bounds[6i … 6i+5]` (min xyz, max xyz) and `links[2i … 2i+1]`:
 * - inner node: `links[2i]` = index of the right child (the left child is `i + 1`), `links[2i+1]` = 0xffffffff;
 * - leaf: `links[2i]` = first entry in `triangles`, `links[2i+1]` = number of triangles.
 * `triangles` lists triangle indices (into the source index buffer) in leaf order.
 */
export interface Bvh {
  bounds: Float32Array;
  links: Uint32Array;
  triangles: Uint32Array;
}

/** Marks an inner node in `links[2i + 1]`. */
export const INNER_NODE = 0xffffffff;

/** The triangle geometry a BVH indexes: xyz positions and three vertex indices per triangle. */
export interface TriangleMesh {
  positions: Float32Array;
  indices: Uint32Array;
}
