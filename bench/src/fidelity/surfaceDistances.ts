import { BufferAttribute, BufferGeometry, Vector3 } from 'three';
import { MeshBVH, type HitPointInfo } from 'three-mesh-bvh';

/**
 * A three-mesh-bvh tree over a triangle soup (nine floats a triangle), for nearest-point queries.
 * The positions are wrapped, not copied. Built indirect: the tree sorts a triangle list of its own
 * (4 bytes a triangle) instead of first making an index over every vertex (12 bytes a triangle)
 * and sorting that, which keeps a 9 M-triangle model's tree within a few hundred MB.
 *
 * @example
 * ```ts
 * const bvh = surfaceBvh(worldTriangles(full).positions);
 * ```
 */
export function surfaceBvh(positions: Float32Array): MeshBVH {
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(positions, 3));
  return new MeshBVH(geometry, { indirect: true, verbose: false });
}

/**
 * Distance (m) from each point (x y z, in the tree's frame) to the nearest point of the tree's
 * surface, by `MeshBVH.closestPointToPoint`; Infinity for every point when the surface is empty.
 *
 * @example
 * ```ts
 * const d = surfaceDistances(surfaceBvh(full.positions), sampleSurface(delivered.positions, delivered.categories, 200_000).points);
 * ```
 */
export function surfaceDistances(bvh: MeshBVH, points: Float32Array): Float32Array {
  const out = new Float32Array(points.length / 3);
  const point = new Vector3();
  const hit: HitPointInfo = { point: new Vector3(), distance: 0, faceIndex: 0 };
  for (let k = 0; k < out.length; k++) {
    point.set(points[k * 3]!, points[k * 3 + 1]!, points[k * 3 + 2]!);
    out[k] = bvh.closestPointToPoint(point, hit)?.distance ?? Number.POSITIVE_INFINITY;
  }
  return out;
}
