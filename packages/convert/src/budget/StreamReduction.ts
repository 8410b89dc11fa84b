import type { Bounds } from '@arsession/geometry';
import type { SceneData, SceneMaterial, SceneMesh, SceneNode } from '../scene/SceneData.js';
import { sceneStats } from '../scene/sceneStats.js';
import { emptyBounds, linearBounds } from '../scene/growBounds.js';
import { categoryOfIfcClass } from './categoryOfIfcClass.js';
import { fnv1a, sameWords } from './SameShapes.js';
import type { CategoryFigures, MeshStray } from './ArBudget.js';

/** The entries of a column-major 4×4 matrix that are its linear part (what a translation leaves alone). */
const LINEAR_PART = [0, 1, 2, 4, 5, 6, 8, 9, 10] as const;

/** Options of {@link StreamReduction}. */
export interface StreamReductionOptions {
  /** Triangles the model may draw once reduced: the AR budget's. */
  triangles: number;
  /** Drawn triangles from which a model is reduced while it is read: smaller ones are read in full. */
  startTriangles: number;
  /** Bytes its placed geometry may take: a model that would need more is reduced whatever its triangles. */
  maxBytes: number;
  /**
   * Triangles kept at least for each one the envelope draws (walls, slabs, roofs and their detail,
   * by their products' IFC classes), whatever `triangles` says: a level that keeps the building's
   * shape as read however large the project. 0: `triangles` alone.
   */
  perEnvelopeTriangle: number;
}

/**
 * Defaults of {@link StreamReduction}: a model over the budget is reduced as it is read. Its
 * repeated geometry is then simplified once, not at every placement (ISSUE_021 draws 261 k
 * triangles, and is delivered in about half the time and a quarter of the deviation it took
 * simplified after placing).
 */
export const STREAM_REDUCTION_DEFAULTS: Readonly<StreamReductionOptions> = {
  triangles: 100_000,
  startTriangles: 100_000,
  maxBytes: Number.POSITIVE_INFINITY,
  perEnvelopeTriangle: 0,
};

/**
 * One geometry of a model as its reader keeps it before placing it: local vertices (px py pz nx ny
 * nz) and triangles, shared by every placement that draws it (IFC mapped items and type
 * instances: a rail's sleeper, a building's chairs).
 */
export interface SharedGeometry {
  vertices: Float32Array;
  indices: Uint32Array;
  /** Column-major 4×4 of each placement, to Y-up metres. */
  transforms: Float64Array[];
  /** The product each placement draws and its IFC class (parallel to `transforms`); absent: unknown. */
  owners?: Array<{ product: number; ifcClass: string }>;
  /** RGBA of its first placement, as web-ifc gives it: what the budget sees it drawn in. Absent: a mid grey. */
  color?: Rgba;
  /**
   * RGBA every placement is to be drawn in, set by a reduction that drew the geometry in another
   * material than its own: a frame's sheet see-through across its opening, a window's frame and
   * glass standing as one sheet in the glass's colour.
   */
  drawnColor?: Rgba;
}

/** A colour and its opacity, each 0 to 1, as web-ifc gives a placed geometry's. */
export type Rgba = [number, number, number, number];

/**
 * The AR budget's first stage, for models far over it: run by the IFC reader after web-ifc has
 * streamed every geometry once, but before any is placed. Each shared geometry is simplified
 * once, weighted by how often it is drawn (`simplifyToBudget` over the geometries as drawn), so a
 * sleeper placed 9,238 times is reduced hard and a one-off façade barely; only then are the
 * placements made, from the reduced geometry. Memory follows the unique geometry and the budget,
 * not the drawn model (a 19 MB rail model draws 37 M triangles from 54 k unique ones). The
 * deviation is measured on each geometry against its full self, at its largest placed scale.
 *
 * @example
 * ```ts
 * const reduction = new StreamReduction({ triangles: 100_000 });
 * const scene = await readIfc(bytes, { reduction });
 * scene.streamReduced?.sourceTriangles; // the full model's drawn triangles
 * ```
 */
export class StreamReduction {
  private readonly opts: StreamReductionOptions;
  /** Triangles the full model draws. */
  sourceTriangles = 0;
  /** Draw calls the full model makes: placements of a geometry with triangles. */
  sourceDrawCalls = 0;
  /** Shared geometries simplified. */
  reduced = 0;
  /** Largest distance from a reduced surface to its full one (m). */
  maxDeviation = 0;
  /** Largest distance from a full surface to its reduced one (m): pruned parts count here. */
  maxUncovered = 0;
  /** What each budget category gave up, once reduced. */
  categories: CategoryFigures[] = [];
  /** Bounds of the full model as placed (float64, Y-up metres), once it has been reduced. */
  fullBounds: Bounds | undefined;
  /**
   * Centre of each placement's box as placed in full (x y z, float64), once it has been reduced:
   * what the reader chooses the model's offset from, so the frame is the full model's.
   */
  fullCentres: number[] = [];
  /**
   * What the reduction did to each product's geometry, by IFC product id, one entry a category
   * (each the farthest of its geometries): what a part of the model states for the elements it
   * holds, instead of the whole's figures. Products left as read have none. Absent when a reduced
   * geometry's placements name no products.
   */
  productStrays: Map<number, MeshStray[]> | undefined;

  constructor(options: Partial<StreamReductionOptions> = {}) {
    this.opts = { ...STREAM_REDUCTION_DEFAULTS, ...options };
  }

  /**
   * The full model's bounds, and each placement's box centre into `fullCentres`, as placing the
   * geometry computes them (float64, to the bit: see `linearBounds`); a geometry's box under one
   * linear part is measured once, however many places it is moved to.
   */
  private measurePlacements(geometries: readonly SharedGeometry[], uniqueOf: ArrayLike<number>): Bounds {
    const bounds = emptyBounds();
    const boxes = new BoxesByLinearPart();
    geometries.forEach((g, i) => {
      if (g.indices.length < 3) return;
      for (const t of g.transforms) {
        const box = boxes.boxOf(uniqueOf[i]!, t, () => linearBounds(g.vertices, 6, t));
        if (!(box[0]! + t[12]! <= box[3]! + t[12]!)) continue;
        for (let k = 0; k < 3; k++) {
          const min = box[k]! + t[12 + k]!,
            max = box[3 + k]! + t[12 + k]!;
          bounds.min[k] = Math.min(bounds.min[k]!, min);
          bounds.max[k] = Math.max(bounds.max[k]!, max);
          this.fullCentres.push((min + max) / 2);
        }
      }
    });
    return bounds;
  }

  /**
   * Simplifies the geometries in place when the model draws more than `startTriangles`, or its
   * placed geometry would take more than `maxBytes`, keeping the full model's bounds in
   * `fullBounds` first. Leaves them as they are otherwise (and measures nothing more).
   */
  async reduce(geometries: SharedGeometry[]): Promise<void> {
    this.sourceTriangles = geometries.reduce((n, g) => n + (g.indices.length / 3) * g.transforms.length, 0);
    this.sourceDrawCalls = geometries.reduce((n, g) => n + (g.indices.length >= 3 ? g.transforms.length : 0), 0);
    // Placed, a vertex takes what it takes here (six floats), and so do the indices.
    const placedBytes = geometries.reduce((n, g) => n + (g.vertices.byteLength + g.indices.byteLength) * g.transforms.length, 0);
    if (this.sourceTriangles <= this.opts.startTriangles && placedBytes <= this.opts.maxBytes) return;
    // Geometries with the same bytes (a building's copies in one project, a type's geometry repeated
    // under ids of its own) are one mesh to the budget: simplified and measured once, the same way.
    const { unique, uniqueOf } = sameBytesOnce(geometries);
    const bounds = this.measurePlacements(geometries, uniqueOf);
    this.fullBounds = bounds;
    // Each colour a material, so the budget draws a stand-in in the colour it stands for.
    const palette = new ColourPalette();
    const meshes: SceneMesh[] = unique.map((g) => ({ ...sharedGeometryMesh(g), material: palette.of(g.color) }));
    // Each placement tells its product's class: the budget takes clutter first and the envelope last.
    const nodes: SceneNode[] = geometries.flatMap((g, i) =>
      g.transforms.map((matrix, k) => ({ name: '', parent: -1, matrix, meshes: [uniqueOf[i]!], metadata: classOf(g, k) })),
    );
    const base = { nodes, meshes, materials: palette.materials, textures: [] };
    const asDrawn: SceneData = { source: { format: 'ifc' }, ...base, offset: [0, 0, 0], bounds, stats: sceneStats(base), warnings: [] };
    // Loaded only for a model this far over: most are read without the simplifier.
    const { simplifyToBudget } = await import('./simplifyToBudget.js');
    const { perEnvelopeTriangle } = this.opts;
    const triangles =
      perEnvelopeTriangle > 0 ? Math.max(this.opts.triangles, perEnvelopeTriangle * envelopeDrawn(geometries)) : this.opts.triangles;
    const simplified = await simplifyToBudget(asDrawn, { triangles });
    const { materials } = simplified.scene;
    const reduced = simplified.scene.meshes.map((mesh, u) =>
      mesh === meshes[u]
        ? undefined
        : {
            vertices: interleave(mesh),
            indices: mesh.indices,
            drawnIn: mesh.material === meshes[u]!.material ? undefined : colourOf(materials[mesh.material]!),
          },
    );
    geometries.forEach((g, i) => {
      const u = uniqueOf[i]!;
      const r = reduced[u];
      if (!r) return;
      g.vertices = r.vertices;
      g.indices = r.indices;
      if (r.drawnIn) g.drawnColor = drawnColour(g.color ?? MID_GREY, unique[u]!.color ?? MID_GREY, r.drawnIn);
      this.reduced++;
    });
    this.productStrays = strayByProduct(geometries, uniqueOf, simplified.meshStrays);
    this.maxDeviation = simplified.maxDeviation;
    this.maxUncovered = simplified.maxUncovered;
    this.categories = simplified.categories;
  }
}

/**
 * Boxes of geometries under the linear part of a matrix (what a translation leaves alone), kept
 * by geometry and the part's entries, each as `Object.is` tells them apart (−0 from 0): a box
 * made once serves every place the geometry is moved to without turning.
 */
class BoxesByLinearPart {
  private readonly byHash = new Map<number, Array<{ geometry: number; bits: Uint32Array; box: Float64Array }>>();
  private readonly linear = new Float64Array(LINEAR_PART.length);
  /** The linear part's bits, two words an entry: compared as bits, so −0 stays apart from 0. */
  private readonly bits = new Uint32Array(this.linear.buffer);

  /** The box of `geometry` under `matrix`'s linear part, made by `make` the first time. */
  boxOf(geometry: number, matrix: Float64Array, make: () => Float64Array): Float64Array {
    const { linear, bits } = this;
    for (let i = 0; i < LINEAR_PART.length; i++) linear[i] = matrix[LINEAR_PART[i]!]!;
    const hash = (fnv1a([linear], false) ^ Math.imul(geometry, 0x9e3779b1)) >>> 0;
    const bucket = this.byHash.get(hash);
    if (bucket) for (const e of bucket) if (e.geometry === geometry && sameWords(e.bits, bits)) return e.box;
    const box = make();
    const entry = { geometry, bits: bits.slice(), box };
    if (bucket) bucket.push(entry);
    else this.byHash.set(hash, [entry]);
    return box;
  }
}

/**
 * The geometries with the same bytes, each the first met, and for each geometry (by index) the one
 * it is the same as: vertices and triangles equal word for word. Two products drawing the same
 * geometry differently around it (a mirrored door) still share its simplification; their stand-ins
 * are measured against what their elements agree on (`drawnTogether`), so the figures stay bounds.
 */
function sameBytesOnce(geometries: readonly SharedGeometry[]): { unique: SharedGeometry[]; uniqueOf: Uint32Array } {
  const unique: SharedGeometry[] = [];
  const uniqueOf = new Uint32Array(geometries.length);
  const byHash = new Map<number, number[]>();
  geometries.forEach((g, i) => {
    const hash = fnv1a([g.vertices, g.indices], true);
    const bucket = byHash.get(hash) ?? [];
    let u = bucket.find((k) => sameWords(unique[k]!.vertices, g.vertices) && sameWords(unique[k]!.indices, g.indices));
    if (u === undefined) {
      u = unique.push(g) - 1;
      bucket.push(u);
      byHash.set(hash, bucket);
    }
    uniqueOf[i] = u;
  });
  return { unique, uniqueOf };
}

/**
 * Each product's strays: those of the unique meshes its placements draw (`meshStrays` by unique
 * mesh), the farthest per category. Undefined when a geometry that strayed names no products.
 */
function strayByProduct(
  geometries: readonly SharedGeometry[],
  uniqueOf: Uint32Array,
  meshStrays: ReadonlyArray<MeshStray | undefined>,
): Map<number, MeshStray[]> | undefined {
  const byProduct = new Map<number, MeshStray[]>();
  for (const [i, g] of geometries.entries()) {
    const stray = meshStrays[uniqueOf[i]!];
    if (!stray) continue;
    if (!g.owners) return undefined;
    for (const { product } of g.owners) {
      const strays = byProduct.get(product) ?? [];
      const same = strays.find((s) => s.category === stray.category);
      if (same) {
        same.deviation = Math.max(same.deviation, stray.deviation);
        same.uncovered = Math.max(same.uncovered, stray.uncovered);
      } else strays.push({ ...stray });
      byProduct.set(product, strays);
    }
  }
  return byProduct;
}

/** What a placement's node says of its product: its class and id, so the budget can name what it left out. */
function classOf(g: SharedGeometry, placement: number): Record<string, string> {
  const owner = g.owners?.[placement];
  return owner ? { ifcClass: owner.ifcClass, product: `#${owner.product}` } : {};
}

/** Triangles the envelope draws: each placement of a geometry whose product's IFC class is the envelope's. */
function envelopeDrawn(geometries: readonly SharedGeometry[]): number {
  let drawn = 0;
  for (const g of geometries)
    for (const owner of g.owners ?? []) if (categoryOfIfcClass(owner.ifcClass) === 'envelope') drawn += g.indices.length / 3;
  return drawn;
}

/** A shared geometry as a mesh in its own frame: positions and normals apart, its triangles as they are, no name, material 0. */
export function sharedGeometryMesh({ vertices, indices }: SharedGeometry): SceneMesh {
  const count = vertices.length / 6;
  const positions = new Float32Array(count * 3),
    normals = new Float32Array(count * 3);
  for (let v = 0; v < count; v++) {
    for (let k = 0; k < 3; k++) {
      positions[v * 3 + k] = vertices[v * 6 + k]!;
      normals[v * 3 + k] = vertices[v * 6 + 3 + k]!;
    }
  }
  return { name: '', positions, normals, indices, material: 0 };
}

/** One material per distinct colour, in the order they are met. */
class ColourPalette {
  private readonly index = new Map<string, number>();
  readonly materials: SceneMaterial[] = [];

  /** The material of `color` (a mid grey when absent), made the first time it is met. */
  of(color: Readonly<Rgba> = MID_GREY): number {
    const key = color.join(' ');
    let m = this.index.get(key);
    if (m === undefined) {
      m = this.materials.push(colourMaterial(color)) - 1;
      this.index.set(key, m);
    }
    return m;
  }
}

const MID_GREY: Readonly<Rgba> = [0.5, 0.5, 0.5, 1];

function colourMaterial([r, g, b, a]: Readonly<Rgba>): SceneMaterial {
  return { name: '', baseColor: [r, g, b], opacity: a, metallic: 0, roughness: 1, emissive: [0, 0, 0], doubleSided: false };
}

function colourOf({ baseColor: [r, g, b], opacity }: SceneMaterial): Rgba {
  return [r, g, b, opacity];
}

/**
 * The colour a geometry is placed in when the budget drew its shared mesh (made from the first
 * of the geometries with its bytes, in `first`) in `drawn`: a see-through variant of the mesh's
 * own colour keeps each geometry's own colour, less opaque (a glass pane and a wood panel of the
 * same bytes each stay what they are); any other colour (the glass a frame and its glass stand
 * as one sheet in) is taken whole.
 */
function drawnColour(own: Readonly<Rgba>, first: Readonly<Rgba>, drawn: Readonly<Rgba>): Rgba {
  const seeThrough = drawn[0] === first[0] && drawn[1] === first[1] && drawn[2] === first[2] && drawn[3] < first[3];
  return seeThrough ? [own[0], own[1], own[2], Math.min(own[3], drawn[3])] : [...drawn];
}

function interleave(mesh: SceneMesh): Float32Array {
  const count = mesh.positions.length / 3;
  const vertices = new Float32Array(count * 6);
  for (let v = 0; v < count; v++) {
    for (let k = 0; k < 3; k++) {
      vertices[v * 6 + k] = mesh.positions[v * 3 + k]!;
      vertices[v * 6 + 3 + k] = mesh.normals![v * 3 + k]!;
    }
  }
  return vertices;
}
