import type { FlatMesh, IfcAPI } from 'web-ifc';
import { sameWords } from '../budget/SameShapes.js';
import type { Rgba, SharedGeometry } from '../budget/StreamReduction.js';
import type { IfcClassNames } from './IfcClassNames.js';
import { deleteHandle, geometryViews } from './webIfcHeap.js';

/**
 * Every geometry of a model once, with the placements that draw it, as web-ifc streams them:
 * what {@link StreamReduction} reduces before anything is placed. web-ifc may give one geometry
 * id different triangles for different products (a wall type's body cut by each wall's own
 * openings: IfcOpenHouse's walls all came out as the first wall's), so a geometry met again is
 * read again and shared only with placements whose triangles are the same, byte for byte.
 */
export class SharedGeometries {
  /** The variants of each geometry id: one, unless web-ifc gave products different triangles under it. */
  private readonly byId = new Map<number, SharedGeometry[]>();
  readonly placements: Array<{
    product: number;
    geometry: SharedGeometry;
    transform: Float64Array;
    color: [number, number, number, number];
  }> = [];
  private bytes = 0;

  /** `classes`: where the owners' IFC classes are read. */
  constructor(private readonly classes: IfcClassNames) {}

  /**
   * Notes a product's placed geometries, copying each geometry the first time its triangles are
   * met (and deleting `mesh.geometries`); returns the bytes held.
   */
  add(api: IfcAPI, model: number, mesh: FlatMesh): number {
    const placed = mesh.geometries;
    try {
      for (let i = 0; i < placed.size(); i++) {
        const pg = placed.get(i);
        const variants = this.byId.get(pg.geometryExpressID) ?? [];
        this.byId.set(pg.geometryExpressID, variants);
        const g = api.GetGeometry(model, pg.geometryExpressID);
        let geometry: SharedGeometry | undefined;
        try {
          const { vertices, indices } = geometryViews(api, g);
          geometry = variants.find((v) => sameWords(v.vertices, vertices) && sameWords(v.indices, indices));
          if (!geometry) {
            const color: Rgba = [pg.color.x, pg.color.y, pg.color.z, pg.color.w];
            geometry = { vertices: vertices.slice(), indices: indices.slice(), transforms: [], owners: [], color };
            variants.push(geometry);
            this.bytes += geometry.vertices.byteLength + geometry.indices.byteLength;
          }
        } finally {
          g.delete();
        }
        const transform = Float64Array.from(pg.flatTransformation);
        geometry.transforms.push(transform);
        geometry.owners!.push({ product: mesh.expressID, ifcClass: this.classes.of(mesh.expressID) });
        this.placements.push({ product: mesh.expressID, geometry, transform, color: [pg.color.x, pg.color.y, pg.color.z, pg.color.w] });
        this.bytes += 160;
      }
    } finally {
      deleteHandle(placed);
    }
    return this.bytes;
  }

  geometries(): SharedGeometry[] {
    return [...this.byId.values()].flat();
  }

  /** Every geometry's arrays as they are now (a reduction replaces them, never writes into them): a level to come back to. */
  levelOfDetail(): LevelOfDetail {
    return this.geometries().map((g) => ({ vertices: g.vertices, indices: g.indices, drawnColor: g.drawnColor }));
  }

  /** Puts back the arrays of a level taken by {@link levelOfDetail}. */
  useLevelOfDetail(level: LevelOfDetail): void {
    this.geometries().forEach((g, i) => {
      g.vertices = level[i]!.vertices;
      g.indices = level[i]!.indices;
      g.drawnColor = level[i]!.drawnColor;
    });
  }

  /**
   * The placements again, each geometry a copy at `level` (its transforms and owners shared):
   * placing them leaves the geometries placed already, which instancing builds from later, as
   * they are.
   */
  placementsAt(level: LevelOfDetail): SharedGeometries['placements'] {
    const copies = new Map<SharedGeometry, SharedGeometry>(this.geometries().map((g, i) => [g, { ...g, ...level[i]! }]));
    return this.placements.map((p) => ({ ...p, geometry: copies.get(p.geometry)! }));
  }
}

/** The arrays of every shared geometry at one level of reduction, in `SharedGeometries.geometries()` order. */
export type LevelOfDetail = Array<Pick<SharedGeometry, 'vertices' | 'indices' | 'drawnColor'>>;
