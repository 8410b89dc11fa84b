import type { Vec3 } from '@arsession/geometry';
import { sharedGeometryMesh, type SharedGeometry } from '../budget/StreamReduction.js';
import { emptyBounds, growBounds } from '../scene/growBounds.js';
import { newIdentityMatrix } from '../scene/identityMatrix.js';
import { determinant3 } from '../scene/normalMatrix.js';
import type { SceneMesh, SceneNode } from '../scene/SceneData.js';
import { placeVertices } from './placeVertices.js';

/** One placement of a shared geometry: the product that draws it, where, in which colour. */
export interface GeometryPlacement {
  product: number;
  geometry: SharedGeometry;
  /** Column-major 4×4, to Y-up metres. */
  transform: Float64Array;
  color: [number, number, number, number];
}

/**
 * The repeated geometry of a model the AR budget reduced as it streamed in (IFC mapped items and
 * type instances), kept shared instead of placed copy by copy: one mesh per geometry and colour in
 * the geometry's own frame, drawn by a node per placement under its product's node. The budget's
 * merge then keeps the heavy ones as USD instances and bakes the rest into merged meshes.
 *
 * @example
 * ```ts
 * const instanced = new InstancedPlacements(1000);
 * for (const p of placements) if (!instanced.take(p, centres)) placeCopy(p);
 * const shared = instanced.build(offset, materialFor, productNodes, nodes, meshes.length);
 * ```
 */
export class InstancedPlacements {
  private readonly placements: GeometryPlacement[] = [];
  /** Per geometry: whether it is kept shared, and the centre of its own box. */
  private readonly known = new Map<SharedGeometry, { repeated: boolean; centre: Vec3 }>();

  constructor(private readonly reach: number) {}

  /**
   * Takes a placement when its geometry is kept shared — placed more than once, never mirrored (a
   * mirror turns its faces), and near its own origin (within `reach` m: far-off local points are
   * coarse in float32, and would be drawn far off through the matrix) — appending the float64
   * centre of its placed box to `centres` (for `chooseOffset`). Returns whether it took it.
   */
  take(p: GeometryPlacement, centres: number[]): boolean {
    const g = this.about(p.geometry);
    if (!g.repeated) return false;
    this.placements.push(p);
    const t = p.transform,
      [x, y, z] = g.centre;
    centres.push(
      t[0]! * x + t[4]! * y + t[8]! * z + t[12]!,
      t[1]! * x + t[5]! * y + t[9]! * z + t[13]!,
      t[2]! * x + t[6]! * y + t[10]! * z + t[14]!,
    );
    return true;
  }

  private about(g: SharedGeometry): { repeated: boolean; centre: Vec3 } {
    let known = this.known.get(g);
    if (known) return known;
    const { min, max } = growBounds(emptyBounds(), g.vertices, 6, newIdentityMatrix());
    const near = Math.max(...min.map(Math.abs), ...max.map(Math.abs)) <= this.reach;
    const repeated = g.transforms.length > 1 && g.indices.length >= 3 && near && g.transforms.every((t) => determinant3(t) > 0);
    this.known.set(g, (known = { repeated, centre: [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2] }));
    return known;
  }

  get size(): number {
    return this.placements.length;
  }

  /**
   * The shared meshes (their indices counted from `firstMesh`) and a node per placement, to be
   * appended after `nodesSoFar`: each a child of its product's node (`productNodes`) with that
   * node's metadata, its matrix the placement less `offset` (in float64: the vertices stay as
   * web-ifc made them).
   */
  build(
    offset: Readonly<Vec3>,
    materialFor: (color: GeometryPlacement['color']) => number,
    productNodes: ReadonlyMap<number, number>,
    nodesSoFar: readonly SceneNode[],
    firstMesh: number,
  ): { meshes: SceneMesh[]; nodes: SceneNode[] } {
    const meshes: SceneMesh[] = [];
    const meshOf = new Map<SharedGeometry, Map<number, number>>();
    const nodes: SceneNode[] = [];
    for (const p of this.placements) {
      const material = materialFor(p.color);
      let byMaterial = meshOf.get(p.geometry);
      if (!byMaterial) meshOf.set(p.geometry, (byMaterial = new Map()));
      let mesh = byMaterial.get(material);
      if (mesh === undefined) {
        byMaterial.set(material, (mesh = firstMesh + meshes.length));
        meshes.push({ ...sharedGeometryMesh(p.geometry), material });
      }
      const parent = productNodes.get(p.product)!;
      const product = nodesSoFar[parent]!;
      const matrix = p.transform.slice();
      for (let k = 0; k < 3; k++) matrix[12 + k] = matrix[12 + k]! - offset[k]!;
      nodes.push({ name: product.name, parent, matrix, meshes: [mesh], metadata: product.metadata });
      if (!meshes[mesh - firstMesh]!.name) meshes[mesh - firstMesh]!.name = product.metadata.ifcClass ?? '';
    }
    return { meshes, nodes };
  }

  /** Where a product's shared geometry lies in the delivered frame, placed now (door measuring needs its walls'). */
  placedPositions(product: number, offset: Readonly<Vec3>): Float32Array[] {
    return this.placements
      .filter((p) => p.product === product)
      .map((p) => {
        const count = p.geometry.vertices.length / 6;
        const into = { positions: new Float32Array(count * 3), normals: new Float32Array(count * 3) };
        placeVertices(p.geometry.vertices, p.transform, offset, into, emptyBounds());
        return into.positions;
      });
  }
}
