import type { WarningCode } from '../scene/warningCodes.js';
import { mat4, quat } from 'gl-matrix';
import { ModelUnreadableError } from '../errors/ConvertError.js';
import { newIdentityMatrix } from '../scene/identityMatrix.js';
import { determinant3 } from '../scene/normalMatrix.js';
import type { SceneData, SceneMesh, SceneNode, SceneWarning } from '../scene/SceneData.js';
import { transformVertices } from '../scene/transformVertices.js';
import { readMeshGeometry, type MeshGeometry } from './geom/readMeshGeometry.js';
import { boundMaterial } from './shade/boundMaterial.js';
import { UsdMaterials } from './shade/UsdMaterials.js';
import {
  localTransform,
  numericArray,
  tessellateCapsule,
  tessellateCube,
  tessellateCylinder,
  tessellatePlane,
  tessellateSphere,
  type PackageLayers,
  type SdfValue,
  type ShapeAxis,
  type StagePrim,
  type TriangleMesh,
  type UsdStage,
} from '@arsession/usd';

/** What a stage becomes: SceneData's contents, before bounds and stats. */
export type StageScene = Pick<SceneData, 'nodes' | 'meshes' | 'materials' | 'textures' | 'warnings'>;

/** Prims that describe shading or parts of a mesh, not things to draw. */
const NOT_DRAWN = new Set(['Material', 'Shader', 'NodeGraph', 'GeomSubset']);
/** Geometry with no surface to triangulate: reported when dropped. */
const NO_SURFACE = new Set(['BasisCurves', 'NurbsCurves', 'HermiteCurves', 'NurbsPatch', 'Points', 'TetMesh', 'Volume']);
const IMPLICIT = new Set(['Sphere', 'Cube', 'Cylinder', 'Cylinder_1', 'Cone', 'Capsule', 'Capsule_1', 'Plane']);
/** Most nodes a stage may expand to (point instancers multiply prototypes). */
const MAX_NODES = 500_000;

/**
 * Builds scene data from a composed stage: one node per drawn prim with its local transform
 * (`xformOpOrder`; `!resetXformStack!` hangs it under the stage root), Mesh prims triangulated
 * with their normals and texture coordinates, split by their `materialBind` GeomSubsets, the
 * implicit shapes (Sphere, Cube, Cylinder, Cone, Capsule, Plane) tessellated at their authored
 * sizes, PointInstancers expanded into one node per instance, and each piece bound to its
 * UsdPreviewSurface material. Classes, overs, inactive, invisible, guide and proxy prims are not
 * drawn; curves, points, volumes and lights are dropped with a warning. Meshes under a mirroring
 * transform are baked into world space with their winding turned, as GLB input is.
 *
 * @example
 * ```ts
 * const { nodes, meshes } = stageScene(stage, layers, rootMatrix);
 * ```
 */
export function stageScene(stage: UsdStage, layers: PackageLayers, rootMatrix: Float64Array): StageScene {
  return new StageSceneBuilder(stage, layers).build(rootMatrix);
}

class StageSceneBuilder {
  private readonly nodes: SceneNode[] = [];
  private readonly meshes: SceneMesh[] = [];
  private readonly worlds: Float64Array[] = [];
  private readonly materials: UsdMaterials;
  private readonly warnings = new Map<string, SceneWarning>();
  private readonly dropped = new Map<string, number>();
  /** Meshes of a prim already read (point-instanced prototypes are drawn many times from one). */
  private readonly meshesOfPrim = new Map<string, number[]>();

  constructor(
    private readonly stage: UsdStage,
    layers: PackageLayers,
  ) {
    this.materials = new UsdMaterials(stage, layers);
  }

  build(rootMatrix: Float64Array): StageScene {
    this.addNode({ name: 'stage', parent: -1, matrix: rootMatrix, meshes: [], metadata: {} });
    for (const prim of this.stage.root.children) this.visit(prim, 0);
    if (this.dropped.size) {
      const list = [...this.dropped].map(([type, n]) => `${n} ${type}`).join(', ');
      this.warn('prims_dropped', `prims with no surface ARKit can draw were dropped: ${list}`);
    }
    if (this.stage.problems.length)
      this.warn('composition_incomplete', `composition could not follow everything in the package: ${this.stage.problems.join('; ')}`);
    return {
      nodes: this.nodes,
      meshes: this.meshes,
      materials: this.materials.materials,
      textures: this.materials.textures,
      warnings: [...this.materials.warnings.values(), ...this.warnings.values()],
    };
  }

  /** A prim and its subtree; a point instancer's prototypes are drawn even when only `over`ed (a common way to hide them). */
  private visit(prim: StagePrim, parent: number, prototype = false): void {
    if ((prim.specifier !== 'def' && !(prototype && prim.specifier === 'over')) || NOT_DRAWN.has(prim.typeName) || this.hidden(prim))
      return;
    if (NO_SURFACE.has(prim.typeName) || /Light$/.test(prim.typeName)) {
      this.dropped.set(prim.typeName, (this.dropped.get(prim.typeName) ?? 0) + 1);
      return;
    }
    const { matrix, resetsXformStack } = localTransform(this.stage, prim);
    const self = this.addNode({
      name: prim.name,
      parent: resetsXformStack ? 0 : parent,
      matrix,
      meshes: [],
      metadata: { usdPath: prim.path },
    });
    if (prim.typeName === 'PointInstancer') {
      this.expandInstances(prim, self);
      return; // its prototypes are drawn through it, never on their own
    }
    this.addMeshes(prim, self);
    for (const child of prim.children) this.visit(child, self, prototype);
  }

  /** Whether a prim (and so its subtree) is not drawn: invisible, or for guides or proxies only. */
  private hidden(prim: StagePrim): boolean {
    const visibility = this.stage.value(prim, 'visibility');
    const purpose = this.stage.value(prim, 'purpose');
    return (
      (visibility?.kind === 'token' && visibility.value === 'invisible') ||
      (purpose?.kind === 'token' && (purpose.value === 'guide' || purpose.value === 'proxy'))
    );
  }

  private addMeshes(prim: StagePrim, node: number): void {
    let drawn = this.meshesOfPrim.get(prim.path);
    if (!drawn) {
      drawn = prim.typeName === 'Mesh' ? this.readMesh(prim) : IMPLICIT.has(prim.typeName) ? this.readShape(prim) : [];
      this.meshesOfPrim.set(prim.path, drawn);
    }
    if (drawn.length === 0) return;
    if (determinant3(this.worlds[node]!) >= 0) {
      this.nodes[node]!.meshes.push(...drawn);
      return;
    }
    // A mirroring transform: bake it, and turn the faces so they stay outward.
    const world = this.worlds[node]!;
    const baked = drawn.map((m) => {
      const src = this.meshes[m]!;
      const positions = src.positions.slice(),
        normals = src.normals?.slice();
      transformVertices(world, positions, normals);
      const indices = src.indices.slice();
      for (let i = 0; i < indices.length; i += 3) {
        const t = indices[i + 1]!;
        indices[i + 1] = indices[i + 2]!;
        indices[i + 2] = t;
      }
      this.meshes.push({ ...src, positions, ...(normals && { normals }), indices });
      return this.meshes.length - 1;
    });
    this.addNode({
      name: `${this.nodes[node]!.name}_baked`,
      parent: -1,
      matrix: newIdentityMatrix(),
      meshes: baked,
      metadata: this.nodes[node]!.metadata,
    });
    this.warn(
      'mirrored_node_baked',
      'prims with a mirroring (negative) scale were baked into world space to keep their faces the right way out',
    );
  }

  private readMesh(prim: StagePrim): number[] {
    const doubleSided = this.bool(prim, 'doubleSided');
    const material = boundMaterial(this.stage, prim);
    const base = this.materials.of(material, doubleSided, this.displayColor(prim));
    const geometry = readMeshGeometry(this.stage, prim, this.materials.uvName(material) ?? 'st');
    if (!geometry) return [];
    if ('problem' in geometry) {
      this.warn('mesh_skipped', `meshes with inconsistent topology were skipped (such as ${prim.path}: ${geometry.problem})`);
      return [];
    }
    // Faces of a materialBind GeomSubset take the subset's material; the rest keep the mesh's.
    const faceMaterial = new Map<number, number>();
    for (const subset of prim.children) {
      if (subset.typeName !== 'GeomSubset' || subset.specifier !== 'def') continue;
      const family = this.stage.value(subset, 'familyName');
      if (family?.kind === 'token' && family.value !== 'materialBind') continue;
      const indices = numericArray(this.stage.value(subset, 'indices'));
      if (!indices) continue;
      const m = this.materials.of(boundMaterial(this.stage, subset), doubleSided, this.displayColor(prim));
      for (const f of indices.values) faceMaterial.set(f, m);
    }
    return this.splitByMaterial(prim.name, geometry, base, faceMaterial);
  }

  private splitByMaterial(name: string, g: MeshGeometry, base: number, faceMaterial: Map<number, number>): number[] {
    const groups = new Map<number, number[]>();
    for (let t = 0; t < g.triangleFaces.length; t++) {
      const m = faceMaterial.get(g.triangleFaces[t]!) ?? base;
      let list = groups.get(m);
      if (!list) groups.set(m, (list = []));
      list.push(g.indices[3 * t]!, g.indices[3 * t + 1]!, g.indices[3 * t + 2]!);
    }
    return [...groups].map(([material, indices]) => {
      this.meshes.push({
        name,
        positions: g.positions,
        ...(g.normals && { normals: g.normals }),
        ...(g.uvs && { uvs: g.uvs }),
        indices: groups.size === 1 ? g.indices : Uint32Array.from(indices),
        material,
      });
      return this.meshes.length - 1;
    });
  }

  /** An implicit shape at its authored size (USD's fallbacks when it says nothing). */
  private readShape(prim: StagePrim): number[] {
    const n = (name: string, fallback: number) => {
      const v = this.stage.value(prim, name);
      return v?.kind === 'number' && Number.isFinite(v.value) ? v.value : fallback;
    };
    const axisValue = this.stage.value(prim, 'axis');
    const axis: ShapeAxis = axisValue?.kind === 'token' && (axisValue.value === 'X' || axisValue.value === 'Y') ? axisValue.value : 'Z';
    let mesh: TriangleMesh;
    switch (prim.typeName) {
      case 'Sphere':
        mesh = tessellateSphere(n('radius', 1));
        break;
      case 'Cube':
        mesh = tessellateCube(n('size', 2));
        break;
      case 'Cone':
        mesh = tessellateCylinder(n('radius', 1), 0, n('height', 2), axis);
        break;
      case 'Cylinder':
        mesh = tessellateCylinder(n('radius', 1), n('radius', 1), n('height', 2), axis);
        break;
      case 'Cylinder_1':
        mesh = tessellateCylinder(n('radiusBottom', 1), n('radiusTop', 1), n('height', 2), axis);
        break;
      case 'Capsule':
        mesh = tessellateCapsule(n('radius', 0.5), n('height', 1), axis);
        break;
      case 'Capsule_1':
        mesh = tessellateCapsule(Math.max(n('radiusBottom', 0.5), n('radiusTop', 0.5)), n('height', 1), axis);
        break;
      default:
        mesh = tessellatePlane(n('width', 2), n('length', 2), axis);
    }
    const material = this.materials.of(
      boundMaterial(this.stage, prim),
      this.bool(prim, 'doubleSided', prim.typeName === 'Plane'),
      this.displayColor(prim),
    );
    this.meshes.push({ name: prim.name, positions: mesh.positions, normals: mesh.normals, uvs: mesh.uvs, indices: mesh.indices, material });
    return [this.meshes.length - 1];
  }

  /** A PointInstancer's instances: a node each (position, orientation, scale), holding its prototype. */
  private expandInstances(instancer: StagePrim, node: number): void {
    const prototypes = this.stage.targets(instancer, 'prototypes').map((p) => this.stage.prim(p));
    const protoIndices = numericArray(this.stage.value(instancer, 'protoIndices'))?.values ?? new Float64Array();
    const positions = numericArray(this.stage.value(instancer, 'positions'));
    const orientations = numericArray(this.stage.value(instancer, 'orientations'));
    const scales = numericArray(this.stage.value(instancer, 'scales'));
    const invisible = new Set(numericArray(this.stage.value(instancer, 'invisibleIds'))?.values ?? []);
    const ids = numericArray(this.stage.value(instancer, 'ids'))?.values;
    for (let i = 0; i < protoIndices.length; i++) {
      const prototype = prototypes[protoIndices[i]!];
      if (!prototype || invisible.has(ids ? ids[i]! : i)) continue;
      const m = newIdentityMatrix();
      const at = (a: typeof positions, size: number) =>
        a && a.size === size && (i + 1) * size <= a.values.length ? a.values.subarray(i * size, i * size + size) : undefined;
      const p = at(positions, 3),
        q = at(orientations, 4),
        s = at(scales, 3);
      mat4.fromRotationTranslationScale(
        m as unknown as mat4,
        q ? quat.normalize(quat.create(), [q[0]!, q[1]!, q[2]!, q[3]!]) : [0, 0, 0, 1],
        p ? [p[0]!, p[1]!, p[2]!] : [0, 0, 0],
        s ? [s[0]!, s[1]!, s[2]!] : [1, 1, 1],
      );
      const instance = this.addNode({
        name: `${instancer.name}_${i}`,
        parent: node,
        matrix: m,
        meshes: [],
        metadata: { usdPath: instancer.path, instance: String(i) },
      });
      this.visit(prototype, instance, true);
    }
    this.warn('instances_expanded', 'point instancers were expanded into one node per instance (ARKit has no PointInstancer)');
  }

  private addNode(node: SceneNode): number {
    if (this.nodes.length >= MAX_NODES)
      throw new ModelUnreadableError(`the stage expands to more than ${MAX_NODES} prims (point instancers?)`);
    const parentWorld = node.parent < 0 ? undefined : this.worlds[node.parent];
    this.worlds.push(
      parentWorld
        ? (mat4.multiply(
            new Float64Array(16) as unknown as mat4,
            parentWorld as unknown as mat4,
            node.matrix as unknown as mat4,
          ) as unknown as Float64Array)
        : node.matrix,
    );
    this.nodes.push(node);
    return this.nodes.length - 1;
  }

  private displayColor(prim: StagePrim): number[] | undefined {
    const c = numericArray(this.stage.value(prim, 'primvars:displayColor'));
    return c && c.size === 3 ? [c.values[0]!, c.values[1]!, c.values[2]!] : undefined;
  }

  private bool(prim: StagePrim, name: string, fallback = false): boolean {
    const v: SdfValue | undefined = this.stage.value(prim, name);
    return v?.kind === 'bool' ? v.value : fallback;
  }

  private warn(code: WarningCode, message: string): void {
    if (!this.warnings.has(code)) this.warnings.set(code, { code, message });
  }
}
