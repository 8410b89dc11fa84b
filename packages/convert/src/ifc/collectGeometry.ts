import type { Bounds, Vec3 } from '@arsession/geometry';
import type { FlatMesh, IfcAPI } from 'web-ifc';
import type { ArrayBlocks } from '../scene/ArrayBlocks.js';
import { emptyBounds, growBounds } from '../scene/growBounds.js';
import { newIdentityMatrix } from '../scene/identityMatrix.js';
import { determinant3 } from '../scene/normalMatrix.js';
import { placeVertices, type PlacedVertices } from './placeVertices.js';
import { deleteHandle, geometryViews } from './webIfcHeap.js';

/** One geometry as web-ifc streamed it, placed in the delivered frame. */
export interface StreamedGeometry extends PlacedVertices {
  product: number;
  /** Wound outward in the delivered frame (flipped under a mirroring placement). */
  indices: Uint32Array;
  transform: Float64Array; // column-major, to Y-up metres
  color: [number, number, number, number];
  /**
   * Its local vertices (px py pz nx ny nz), kept only when it lies beyond `keepBeyond`: if the
   * model is re-centred they are placed again in float64, as its float32 points are coarse.
   */
  local: Float32Array | undefined;
}

/** Where {@link collect} places geometry. */
export interface CollectTarget {
  blocks: ArrayBlocks;
  offset: Readonly<Vec3>;
  box: Bounds;
  centres?: number[];
  /** Keep the local vertices of geometry that reaches farther than this from the origin. */
  keepBeyond: number;
  /** Bytes of geometry collected so far. */
  held: number;
}

/** No offset: geometry placed as the file puts it. */
export const NO_OFFSET: Readonly<Vec3> = [0, 0, 0];

/** Places every geometry of one product web-ifc streamed (`mesh`) into `target`, appending them to `out`; deletes `mesh.geometries`. */
export function collect(api: IfcAPI, model: number, mesh: FlatMesh, target: CollectTarget, out: StreamedGeometry[]): void {
  const placed = mesh.geometries;
  try {
    for (let i = 0; i < placed.size(); i++) {
      const pg = placed.get(i);
      const geometry = api.GetGeometry(model, pg.geometryExpressID);
      try {
        // Views of web-ifc's memory: no web-ifc call until they are read.
        const { vertices, indices } = geometryViews(api, geometry);
        keep(
          target,
          mesh.expressID,
          vertices,
          indices,
          Float64Array.from(pg.flatTransformation),
          [pg.color.x, pg.color.y, pg.color.z, pg.color.w],
          out,
        );
      } finally {
        geometry.delete();
      }
    }
  } finally {
    deleteHandle(placed);
  }
}

/** Places one geometry of a product (`local`: px py pz nx ny nz per vertex) into the target's arrays. */
export function keep(
  target: CollectTarget,
  product: number,
  local: Float32Array,
  triangles: Uint32Array,
  transform: Float64Array,
  color: [number, number, number, number],
  out: StreamedGeometry[],
): void {
  if (triangles.length < 3) return;
  const indices = target.blocks.uints(triangles.length);
  indices.set(triangles);
  if (determinant3(transform) < 0) flipWinding(indices);
  const count = local.length / 6;
  target.held += triangles.length * 4 + count * 24;
  const g: StreamedGeometry = {
    product,
    positions: target.blocks.floats(count * 3),
    normals: target.blocks.floats(count * 3),
    indices,
    transform,
    color,
    local: undefined,
  };
  if (placeVertices(local, transform, target.offset, g, target.box, target.centres) > target.keepBeyond) {
    g.local = local.slice();
    target.held += local.byteLength;
  }
  out.push(g);
}

/**
 * Places geometries again with `offset` removed, returning their new bounds: one that kept its
 * local vertices from its float64 placement, one near the origin (exact to ~0.1 mm there) by
 * moving its points.
 */
export function moveByOffset(geometries: StreamedGeometry[], offset: Vec3): Bounds {
  const bounds = emptyBounds();
  for (const g of geometries) {
    if (g.local) placeVertices(g.local, g.transform, offset, g, bounds);
    else moveNearPoints(g.positions, offset, bounds);
  }
  return bounds;
}

/** Reverses every triangle in place (a mirroring placement turns faces inside out). */
function flipWinding(indices: Uint32Array): void {
  for (let i = 0; i < indices.length; i += 3) {
    const s = indices[i + 1]!;
    indices[i + 1] = indices[i + 2]!;
    indices[i + 2] = s;
  }
}

/** Removes `offset` from points stored near the origin, in float64, growing `box` by the moved points. */
function moveNearPoints(positions: Float32Array, offset: Readonly<Vec3>, box: Bounds): void {
  for (let i = 0; i + 2 < positions.length; i += 3) {
    positions[i] = positions[i]! - offset[0];
    positions[i + 1] = positions[i + 1]! - offset[1];
    positions[i + 2] = positions[i + 2]! - offset[2];
  }
  growBounds(box, positions, 3, newIdentityMatrix());
}
