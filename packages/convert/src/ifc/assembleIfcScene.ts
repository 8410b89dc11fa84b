import type { Vec3 } from '@arsession/geometry';
import { newIdentityMatrix } from '../scene/identityMatrix.js';
import type { SceneMaterial, SceneMesh, SceneNode } from '../scene/SceneData.js';
import { isSpatialClass, type SceneLevel, type SceneStorey } from '../scene/SceneLevel.js';
import type { StreamedGeometry } from './collectGeometry.js';
import type { IfcElementRef } from './DoorOpeningRecord.js';
import type { SpatialStructure } from './ifcRelations.js';
import type { InstancedPlacements } from './InstancedPlacements.js';
import type { StepFile } from './step/StepFile.js';
import { stepNumber } from './step/StepValue.js';

// Attribute positions (0-based), the same in IFC2X3, IFC4 and IFC4X3.
const STOREY = { elevation: 9 };

/**
 * The storeys of a model's containers: the `IfcBuildingStorey` a container is or lies in (a space
 * in its storey), with its elevation in metres; a container in none (a site, a building) stands
 * for itself.
 *
 * @example
 * ```ts
 * const storeys = new IfcStoreys(file, ref, structure, unit);
 * storeys.of(space).name; // → the name of the storey the space lies in
 * ```
 */
export class IfcStoreys {
  private readonly made = new Map<number, SceneStorey>();

  constructor(
    private readonly file: StepFile,
    private readonly ref: (id: number) => IfcElementRef,
    readonly structure: SpatialStructure,
    /** Metres per length unit of the file. */
    private readonly unit: number,
  ) {}

  /** The id of the `IfcBuildingStorey` `container` is or lies in, else `container` itself. */
  storeyIdOf(container: number): number {
    let at: number | undefined = container;
    for (let depth = 0; at !== undefined && depth < 8; depth++, at = this.structure.parentOf.get(at))
      if (this.ref(at).ifcClass.toUpperCase() === 'IFCBUILDINGSTOREY') return at;
    return container;
  }

  /** The storey `container` is or lies in, as the scene states it. */
  of(container: number): SceneStorey {
    let storey = this.made.get(container);
    if (!storey) {
      const at = this.storeyIdOf(container);
      const r = this.ref(at);
      const elevation = r.ifcClass.toUpperCase() === 'IFCBUILDINGSTOREY' ? storeyElevation(this.file, at, this.unit) : null;
      storey = { name: r.name, globalId: r.globalId, ifcClass: r.ifcClass, elevation };
      this.made.set(container, storey);
    }
    return storey;
  }

  /** The container of `product`; a site, building or space drawn itself and contained in nothing lies in itself. */
  containerOf(product: number): number | undefined {
    return this.structure.storeyOf.get(product) ?? (isSpatialClass(this.ref(product).ifcClass) ? product : undefined);
  }
}

/** What {@link assembleIfcScene} makes of placed geometry. */
export interface AssembledIfcScene {
  nodes: SceneNode[];
  meshes: SceneMesh[];
  materials: SceneMaterial[];
  textures: [];
  levels: SceneLevel[];
  /** The placed vertices of each product's own meshes (not its shared placements). */
  positionsOfProduct: Map<number, Float32Array[]>;
  nodeOfProduct: Map<number, number>;
}

/** What was placed, for {@link assembleIfcScene}. */
export interface PlacedIfcGeometry {
  geometries: readonly StreamedGeometry[];
  instanced: InstancedPlacements;
}

/**
 * The scene's nodes, materials and meshes from what was placed: containers first (a space's under
 * its storey's, parents before children, so every element of a storey lies under one node an app
 * can hide), then one node per product (in stream order), each drawing its meshes.
 *
 * @example
 * ```ts
 * const { nodes, meshes, materials } = assembleIfcScene(placed, products, storeys, ref, offset);
 * ```
 */
export function assembleIfcScene(
  { geometries, instanced }: PlacedIfcGeometry,
  products: readonly number[],
  storeys: IfcStoreys,
  ref: (id: number) => IfcElementRef,
  offset: Readonly<Vec3>,
): AssembledIfcScene {
  const nodes: SceneNode[] = [];
  const containers = new ContainerNodes(nodes, storeys, ref);
  for (const product of products) {
    const container = storeys.containerOf(product);
    if (container !== undefined) containers.nodeOf(container);
  }
  const nodeOfProduct = new Map<number, number>();
  for (const product of products) {
    if (nodeOfProduct.has(product)) continue;
    const r = ref(product);
    const container = storeys.containerOf(product);
    nodeOfProduct.set(product, nodes.length);
    nodes.push({
      name: r.name || `${r.ifcClass}_${product}`,
      parent: container === undefined ? -1 : containers.nodeOf(container),
      matrix: newIdentityMatrix(),
      meshes: [],
      metadata: {
        ifcClass: r.ifcClass,
        globalId: r.globalId,
        name: r.name,
        ...(container !== undefined && { storey: storeys.of(container).name }),
      },
    });
  }

  const materials = new ColourMaterials();
  const meshes: SceneMesh[] = [];
  const positionsOfProduct = new Map<number, Float32Array[]>();
  for (const g of geometries) {
    const mesh: SceneMesh = {
      name: ref(g.product).ifcClass,
      positions: g.positions,
      normals: g.normals,
      indices: g.indices,
      material: materials.of(g.color),
    };
    nodes[nodeOfProduct.get(g.product)!]!.meshes.push(meshes.length);
    meshes.push(mesh);
    const list = positionsOfProduct.get(g.product) ?? [];
    list.push(mesh.positions);
    positionsOfProduct.set(g.product, list);
  }
  if (instanced.size > 0) {
    const shared = instanced.build(offset, (color) => materials.of(color), nodeOfProduct, nodes, meshes.length);
    meshes.push(...shared.meshes);
    nodes.push(...shared.nodes);
  }
  return { nodes, meshes, materials: materials.list, textures: [], levels: containers.levels, positionsOfProduct, nodeOfProduct };
}

/** The container nodes of a scene, each made on first use, a space's after its storey's. */
class ContainerNodes {
  readonly levels: SceneLevel[] = [];
  private readonly made = new Map<number, number>();

  constructor(
    private readonly nodes: SceneNode[],
    private readonly storeys: IfcStoreys,
    private readonly ref: (id: number) => IfcElementRef,
  ) {}

  /** The node of `container`, made (with its storey's before it) when first asked for. */
  nodeOf(container: number): number {
    const made = this.made.get(container);
    if (made !== undefined) return made;
    const storeyId = this.storeys.storeyIdOf(container);
    const parent = storeyId === container ? -1 : this.nodeOf(storeyId);
    const s = this.ref(container);
    const storey = this.storeys.of(container);
    const node = this.nodes.length;
    this.made.set(container, node);
    this.levels.push({ node, storey });
    const elevation: Record<string, string> =
      storeyId === container && storey.elevation !== null ? { elevation: metresText(storey.elevation) } : {};
    this.nodes.push({
      name: s.name || `storey_${container}`,
      parent,
      matrix: newIdentityMatrix(),
      meshes: [],
      metadata: { ifcClass: s.ifcClass, globalId: s.globalId, name: s.name, ...elevation },
    });
    return node;
  }
}

/** One material per distinct colour (to 1/255), in the order first drawn. */
class ColourMaterials {
  readonly list: SceneMaterial[] = [];
  private readonly byKey = new Map<string, number>();

  /** The material of `color` (sRGB and alpha, 0–1). */
  of(color: readonly [number, number, number, number]): number {
    const key = color.map((c) => Math.round(c * 255)).join(',');
    let material = this.byKey.get(key);
    if (material === undefined) {
      material = this.list.length;
      this.byKey.set(key, material);
      const [r, g, b, a] = color;
      // BIM surface models often have inconsistent face orientation: draw both sides.
      this.list.push({
        name: `colour_${key.replace(/,/g, '_')}`,
        baseColor: [srgbToLinear(r), srgbToLinear(g), srgbToLinear(b)],
        opacity: a,
        metallic: 0,
        roughness: 0.8,
        emissive: [0, 0, 0],
        doubleSided: true,
      });
    }
    return material;
  }
}

/** Metres as node metadata states them: to the millimetre, without trailing zeros. */
const metresText = (metres: number): string => String(Math.round(metres * 1000) / 1000);

/** An `IfcBuildingStorey`'s Elevation in metres (optional in the schema); `null` when none is stated. */
function storeyElevation(file: StepFile, id: number, unit: number): number | null {
  const elevation = stepNumber(file.attribute(id, STOREY.elevation));
  return elevation === undefined || !Number.isFinite(elevation) ? null : elevation * unit;
}

/**
 * An IFC colour component (sRGB) as a linear factor, on a grid of 1e-9: `** 2.4` is not correctly
 * rounded, and V8 releases differ in its last digit, which a GLB's JSON would carry. On the grid the
 * same model gives the same bytes on every Node a cluster runs during an upgrade.
 */
function srgbToLinear(c: number): number {
  const linear = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  return Math.round(linear * 1e9) / 1e9;
}
