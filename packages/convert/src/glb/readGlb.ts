import type { WarningCode } from '../scene/warningCodes.js';
import type { Accessor, Document, Material, Mesh, Node as GltfNode, Primitive, Texture, TextureInfo } from '@gltf-transform/core';
import type { EmissiveStrength, InstancedMesh } from '@gltf-transform/extensions';
import { mat4 } from 'gl-matrix';
import { ModelUnreadableError } from '../errors/ConvertError.js';
import type { SceneData, SceneMaterial, SceneMesh, SceneNode, SceneTexture, SceneWarning, TextureRef } from '../scene/SceneData.js';
import { sceneBounds, sceneStats } from '../scene/sceneStats.js';
import { checkGlbLayout } from './checkGlbLayout.js';
import { checkGlbNodeTree } from './checkGlbNodeTree.js';
import { checkGlbReferences } from './checkGlbReferences.js';
import { gltfIO } from './gltfIO.js';
import { transcodeTextures } from './transcodeTextures.js';
import { normalizeAll, transformVertex, transformVertices } from '../scene/transformVertices.js';
import { isIdentityMatrix, newIdentityMatrix } from '../scene/identityMatrix.js';
import { readGlbJson } from './readGlbJson.js';
import type { ElementRecord, PropertySets } from '../elements/ElementRecord.js';
import { flattenProperties } from '../elements/flattenProperties.js';
import { nodeElementRecords } from '../elements/nodeElementRecords.js';

/** Options of {@link readGlb}. */
export interface ReadGlbOptions {
  /** Name for error messages. */
  fileName?: string;
  /** Read each drawing node's record (name, materials, extras) into `elementRecords` (see `nodeElementRecords`). */
  elementRecords?: boolean;
}

/** A GLB read into scene data, with its elements' records when they were asked for. */
export interface GlbScene extends SceneData {
  elementRecords?: ElementRecord[];
}

const TRIANGLES = 4,
  TRIANGLE_STRIP = 5,
  TRIANGLE_FAN = 6;

/**
 * Reads a GLB into {@link SceneData}: Draco and meshopt decoded, quantized attributes read as
 * floats, `EXT_mesh_gpu_instancing` expanded into one node per instance, skins and morph targets
 * reduced to their rest pose, mirrored (negative-determinant) nodes baked so faces keep their
 * winding, PNG and JPEG textures passed through byte for byte, WebP and KTX2 (Basis) transcoded
 * to PNG. glTF is already Y-up metres, so no axis change is needed.
 *
 * @example
 * ```ts
 * const scene = await readGlb(readFileSync('DamagedHelmet.glb'));
 * scene.stats.triangles; // → 46356
 * ```
 */
export async function readGlb(bytes: Uint8Array, options: ReadGlbOptions = {}): Promise<GlbScene> {
  const label = options.fileName ?? 'GLB';
  try {
    const json = readGlbJson(bytes, options.fileName);
    checkGlbLayout(bytes, json, options.fileName);
    checkGlbNodeTree(json, options.fileName);
    checkGlbReferences(json, options.fileName);
  } catch (err) {
    if (err instanceof ModelUnreadableError) throw err;
    throw new ModelUnreadableError(`${label}: malformed glTF JSON (${(err as Error).message})`, {
      ...(options.fileName !== undefined && { fileName: options.fileName }),
      cause: err,
    });
  }
  const io = await gltfIO();
  let doc: Document;
  try {
    doc = await io.readBinary(bytes);
  } catch (err) {
    throw new ModelUnreadableError(`${label}: cannot be read as glTF 2.0 (${(err as Error).message})`, {
      ...(options.fileName !== undefined && { fileName: options.fileName }),
      cause: err,
    });
  }
  let transcoded: Awaited<ReturnType<typeof transcodeTextures>>;
  try {
    transcoded = await transcodeTextures(doc);
  } catch (err) {
    throw new ModelUnreadableError(`${label}: a texture cannot be decoded (${(err as Error).message})`, {
      ...(options.fileName !== undefined && { fileName: options.fileName }),
      cause: err,
    });
  }
  try {
    const scene: GlbScene = new GlbSceneBuilder(doc).build();
    scene.warnings.unshift(...transcoded);
    if (options.elementRecords) scene.elementRecords = nodeElementRecords(scene, extrasOf(doc), namesOf(doc));
    return scene;
  } catch (err) {
    // The builder's own refusals (an index past its vertices) do not know the file: name it here.
    const why = err instanceof ModelUnreadableError ? err.message : `inconsistent glTF content (${(err as Error).message})`;
    throw new ModelUnreadableError(`${label}: ${why}`, {
      ...(options.fileName !== undefined && { fileName: options.fileName }),
      cause: err,
    });
  }
}

/** A scene node's property sets from its glTF node: the node's `extras` and its mesh's. */
function extrasOf(doc: Document): (node: SceneNode) => PropertySets {
  const gltfOf = gltfNodes(doc);
  return (node) => {
    const gltf = gltfOf(node);
    return { extras: flattenProperties(gltf?.getExtras()), 'mesh extras': flattenProperties(gltf?.getMesh()?.getExtras()) };
  };
}

/**
 * A scene node's name as its glTF node states it: the node's own, else its mesh's (exporters often
 * name only the mesh), else none. Not the scene's `node_N`, which only keeps prim names apart.
 */
function namesOf(doc: Document): (node: SceneNode) => string {
  const gltfOf = gltfNodes(doc);
  return (node) => {
    const gltf = gltfOf(node);
    return gltf?.getName() || gltf?.getMesh()?.getName() || '';
  };
}

/** The glTF node a scene node was read from, by the pointer in its metadata (`/nodes/<index>`). */
function gltfNodes(doc: Document): (node: SceneNode) => GltfNode | undefined {
  const nodes = doc.getRoot().listNodes();
  return (node) => nodes[Number(node.metadata.gltfNode?.slice('/nodes/'.length))];
}

/** Walks one glTF document once, collecting plain scene data. */
class GlbSceneBuilder {
  private readonly nodes: SceneNode[] = [];
  private readonly meshes: SceneMesh[] = [];
  private readonly materials: SceneMaterial[] = [];
  private readonly textures: SceneTexture[] = [];
  private readonly warnings = new Map<string, SceneWarning>();
  private readonly meshCache = new Map<Mesh, number[]>();
  private readonly materialCache = new Map<Material | null, number>();
  private readonly textureCache = new Map<Texture, number | undefined>();
  /** Each glTF node's index in the file: what names it as an element (see `elementIdOf`). */
  private readonly indexOf: Map<GltfNode, number>;

  constructor(private readonly doc: Document) {
    this.indexOf = new Map(
      doc
        .getRoot()
        .listNodes()
        .map((node, i) => [node, i]),
    );
  }

  /** The metadata of a node drawn for glTF node `node`: its pointer, `/nodes/<index>`. */
  private identity(node: GltfNode, extra: Record<string, string> = {}): Record<string, string> {
    return { gltfNode: `/nodes/${this.indexOf.get(node)}`, ...extra };
  }

  build(): SceneData {
    const root = this.doc.getRoot();
    const scene = root.getDefaultScene() ?? root.listScenes()[0];
    if (root.listScenes().length > 1)
      this.warn('extra_scenes', `the file has ${root.listScenes().length} scenes; only the default one is delivered`);
    if (root.listAnimations().length > 0)
      this.warn('animation_dropped', `${root.listAnimations().length} animation(s) dropped; the model is delivered in its rest pose`);
    for (const child of scene?.listChildren() ?? []) this.visit(child, -1);
    const base = { nodes: this.nodes, meshes: this.meshes, materials: this.materials, textures: this.textures };
    return {
      source: { format: 'glb', ...(root.getAsset().generator !== undefined && { generator: root.getAsset().generator! }) },
      ...base,
      offset: [0, 0, 0],
      bounds: sceneBounds(base),
      stats: sceneStats(base),
      warnings: [...this.warnings.values()],
    };
  }

  private visit(node: GltfNode, parent: number, seen = new Set<GltfNode>()): void {
    if (seen.has(node)) throw new ModelUnreadableError(`node graph has a cycle at "${node.getName()}"`);
    seen.add(node);
    const mesh = node.getMesh();
    const skin = node.getSkin();
    const instancing = node.getExtension<InstancedMesh>('EXT_mesh_gpu_instancing');
    const world = node.getWorldMatrix();
    const local = Float64Array.from(node.getMatrix());
    const self = this.nodes.length;
    const name = node.getName() || `node_${self}`;

    if (mesh && skin) {
      // glTF ignores a skinned node's own transform: skinned vertices live in world space via the joints.
      this.warn('skin_rest_pose', "skinned meshes are delivered in their rest pose (bind pose through the joints' rest transforms)");
      this.nodes.push({
        name,
        parent: -1,
        matrix: newIdentityMatrix(),
        meshes: this.primitivesOf(mesh, node, newIdentityMatrix(), true),
        metadata: this.identity(node),
      });
      this.nodes.push({ name: `${name}_children`, parent, matrix: local, meshes: [], metadata: {} });
    } else if (mesh && instancing) {
      this.nodes.push({ name, parent, matrix: local, meshes: [], metadata: this.identity(node) });
      this.expandInstances(node, mesh, instancing, self, Float64Array.from(world));
    } else if (mesh && mat4.determinant(world) < 0) {
      // A mirrored node: bake its world transform into the vertices and reverse the winding, so
      // every consumer (USD viewers differ on negative-determinant handling) sees the same faces.
      this.nodes.push({
        name,
        parent: -1,
        matrix: newIdentityMatrix(),
        meshes: this.primitivesOf(mesh, node, Float64Array.from(world), false),
        metadata: this.identity(node),
      });
      this.nodes.push({ name: `${name}_children`, parent, matrix: local, meshes: [], metadata: {} });
      this.warn(
        'mirrored_node_baked',
        'nodes with a mirroring (negative) scale were baked into world space to keep their faces the right way out',
      );
    } else {
      this.nodes.push({ name, parent, matrix: local, meshes: mesh ? this.sharedMeshes(mesh, node) : [], metadata: this.identity(node) });
    }
    // Children hang under the node itself; for a skinned or baked node that is its "_children" stand-in.
    const childParent = mesh && instancing && !skin ? self : this.nodes.length - 1;
    for (const child of node.listChildren()) this.visit(child, childParent, seen);
  }

  private expandInstances(node: GltfNode, mesh: Mesh, ext: InstancedMesh, parent: number, world: Float64Array): void {
    const t = ext.getAttribute('TRANSLATION'),
      r = ext.getAttribute('ROTATION'),
      s = ext.getAttribute('SCALE');
    const count = (t ?? r ?? s)?.getCount() ?? 0;
    const meshes = this.sharedMeshes(mesh, node);
    const tv = [0, 0, 0],
      rv = [0, 0, 0, 1],
      sv = [1, 1, 1];
    for (let i = 0; i < count; i++) {
      if (t) t.getElement(i, tv);
      if (r) r.getElement(i, rv);
      if (s) s.getElement(i, sv);
      const m = mat4.fromRotationTranslationScale(new Float64Array(16), rv, tv, sv) as Float64Array;
      const mirrored = mat4.determinant(mat4.multiply(new Float64Array(16), world, m)) < 0;
      this.nodes.push({
        name: `${node.getName() || 'instance'}_${i}`,
        parent,
        matrix: mirrored ? newIdentityMatrix() : m,
        meshes: mirrored ? this.primitivesOf(mesh, node, mat4.multiply(new Float64Array(16), world, m) as Float64Array, false) : meshes,
        metadata: this.identity(node, { instance: String(i) }),
      });
      if (mirrored) this.nodes[this.nodes.length - 1]!.parent = -1;
    }
    this.warn(
      'instancing_expanded',
      'EXT_mesh_gpu_instancing instances were expanded into separate nodes (USDZ for ARKit has no GPU instancing)',
    );
  }

  /** Meshes of a glTF mesh in its own space, shared by every node that uses it. */
  private sharedMeshes(mesh: Mesh, node: GltfNode): number[] {
    const hasMorph = mesh.listPrimitives().some((p) => p.listTargets().length > 0);
    if (hasMorph) return this.primitivesOf(mesh, node, newIdentityMatrix(), false);
    let out = this.meshCache.get(mesh);
    if (!out) {
      out = this.primitivesOf(mesh, node, newIdentityMatrix(), false);
      this.meshCache.set(mesh, out);
    }
    return out;
  }

  private primitivesOf(mesh: Mesh, node: GltfNode, transform: Float64Array, skinned: boolean): number[] {
    const out: number[] = [];
    const weights = node.getWeights().length > 0 ? node.getWeights() : mesh.getWeights();
    mesh.listPrimitives().forEach((prim, k) => {
      const built = this.primitive(prim, `${mesh.getName() || 'mesh'}_${k}`, weights, node, transform, skinned);
      if (built) {
        out.push(this.meshes.length);
        this.meshes.push(built);
      }
    });
    return out;
  }

  private primitive(
    prim: Primitive,
    name: string,
    weights: number[],
    node: GltfNode,
    transform: Float64Array,
    skinned: boolean,
  ): SceneMesh | undefined {
    const mode = prim.getMode();
    if (mode !== TRIANGLES && mode !== TRIANGLE_STRIP && mode !== TRIANGLE_FAN) {
      this.warn('non_triangle_primitive', 'points and lines were dropped: AR clients draw triangles only');
      return undefined;
    }
    const position = prim.getAttribute('POSITION');
    if (!position || position.getCount() === 0) return undefined;
    const positions = readFloats(position, 3);
    const normalAcc = prim.getAttribute('NORMAL');
    let normals = normalAcc ? readFloats(normalAcc, 3) : undefined;
    const uvAcc = prim.getAttribute('TEXCOORD_0');
    const uvs = uvAcc ? readFloats(uvAcc, 2) : undefined;

    const targets = prim.listTargets();
    if (targets.length > 0) {
      this.warn('morph_rest_pose', 'morph targets were applied at their default weights (rest pose) and dropped');
      targets.forEach((target, t) => {
        const w = weights[t] ?? 0;
        if (w === 0) return;
        const dp = target.getAttribute('POSITION');
        if (dp) addScaled(positions, readFloats(dp, 3), w);
        const dn = target.getAttribute('NORMAL');
        if (dn && normals) addScaled(normals, readFloats(dn, 3), w);
      });
      if (normals) normalizeAll(normals);
    }
    if (skinned) normals = this.applyRestPoseSkin(prim, node, positions, normals);
    const flip = mat4.determinant(transform) < 0;
    if (!isIdentityMatrix(transform)) transformVertices(transform, positions, normals);

    const indices = triangleIndices(prim, position.getCount(), mode, flip);
    if (prim.getAttribute('TEXCOORD_1')) this.warn('extra_uv_sets', 'only the first UV set (TEXCOORD_0) is delivered');
    return {
      name,
      positions,
      ...(normals && { normals }),
      ...(uvs && { uvs }),
      indices,
      material: this.material(prim.getMaterial()),
    };
  }

  private applyRestPoseSkin(
    prim: Primitive,
    node: GltfNode,
    positions: Float32Array,
    normals: Float32Array | undefined,
  ): Float32Array | undefined {
    const skin = node.getSkin()!;
    const joints = prim.getAttribute('JOINTS_0'),
      weights = prim.getAttribute('WEIGHTS_0');
    if (!joints || !weights) return normals;
    const ibm = skin.getInverseBindMatrices();
    const jointMatrices = skin.listJoints().map((j, i) => {
      const inv = ibm ? ibm.getElement(i, new Array<number>(16)) : Array.from(newIdentityMatrix());
      return mat4.multiply(new Float64Array(16), j.getWorldMatrix(), inv) as Float64Array;
    });
    const jv = [0, 0, 0, 0],
      wv = [0, 0, 0, 0];
    const m = new Float64Array(16);
    for (let v = 0; v < positions.length / 3; v++) {
      joints.getElement(v, jv);
      weights.getElement(v, wv);
      m.fill(0);
      for (let k = 0; k < 4; k++) {
        const jm = jointMatrices[jv[k]!];
        if (!jm || wv[k] === 0) continue;
        for (let e = 0; e < 16; e++) m[e]! += wv[k]! * jm[e]!;
      }
      transformVertex(m, positions, normals, v);
    }
    if (normals) normalizeAll(normals);
    return normals;
  }

  private material(material: Material | null): number {
    const cached = this.materialCache.get(material);
    if (cached !== undefined) return cached;
    const index = this.materials.length;
    this.materialCache.set(material, index);
    if (!material) {
      this.materials.push({
        name: 'default',
        baseColor: [0.8, 0.8, 0.8],
        opacity: 1,
        metallic: 0,
        roughness: 0.5,
        emissive: [0, 0, 0],
        doubleSided: false,
      });
      return index;
    }
    const [r, g, b, a] = material.getBaseColorFactor();
    const mode = material.getAlphaMode();
    const out: SceneMaterial = {
      name: material.getName() || `material_${index}`,
      baseColor: [r!, g!, b!],
      opacity: mode === 'OPAQUE' ? 1 : a!,
      metallic: material.getMetallicFactor(),
      roughness: material.getRoughnessFactor(),
      emissive: material.getEmissiveFactor().map((c) => c * emissiveStrength(material)) as [number, number, number],
      doubleSided: material.getDoubleSided(),
      ...(mode === 'MASK' && { alphaCutoff: material.getAlphaCutoff() }),
      ...(mode === 'BLEND' && { alphaBlend: true }),
    };
    this.materials.push(out);
    const ref = (tex: Texture | null, info: TextureInfo | null): TextureRef | undefined => {
      const t = tex ? this.texture(tex) : undefined;
      if (t === undefined) return undefined;
      if (info && info.getTexCoord() !== 0)
        this.warn(
          'texcoord_1_ignored',
          'textures mapped through a second UV set were mapped through the first; USDZ delivery carries one UV set',
        );
      if (info?.getExtension('KHR_texture_transform'))
        this.warn(
          'texture_transform_ignored',
          'KHR_texture_transform (texture offset, rotation, tiling) was not applied; textures show untransformed',
        );
      return { texture: t, ...(info && { wrap: [WRAP[info.getWrapS()] ?? 'repeat', WRAP[info.getWrapT()] ?? 'repeat'] as const }) };
    };
    const base = ref(material.getBaseColorTexture(), material.getBaseColorTextureInfo());
    if (base) out.baseColorTexture = base;
    const normal = ref(material.getNormalTexture(), material.getNormalTextureInfo());
    if (normal) out.normalTexture = { ...normal, scale: material.getNormalScale() };
    const occlusion = ref(material.getOcclusionTexture(), material.getOcclusionTextureInfo());
    if (occlusion) out.occlusionTexture = { ...occlusion, channel: 'r' };
    const emissive = ref(material.getEmissiveTexture(), material.getEmissiveTextureInfo());
    if (emissive) out.emissiveTexture = emissive;
    const mr = ref(material.getMetallicRoughnessTexture(), material.getMetallicRoughnessTextureInfo());
    // glTF packs metallic in B and roughness in G of one texture.
    if (mr) {
      out.metallicTexture = { ...mr, channel: 'b' };
      out.roughnessTexture = { ...mr, channel: 'g' };
    }
    const unsupported = material
      .listExtensions()
      .map((e) => e.extensionName)
      .filter((n) => n !== 'KHR_materials_emissive_strength');
    if (unsupported.length)
      this.warn(
        'material_extensions_dropped',
        `material extensions not expressible in UsdPreviewSurface were dropped: ${[...new Set(unsupported)].sort().join(', ')}`,
      );
    return index;
  }

  private texture(texture: Texture): number | undefined {
    if (this.textureCache.has(texture)) return this.textureCache.get(texture);
    const mime = texture.getMimeType();
    const data = texture.getImage();
    let index: number | undefined;
    if ((mime === 'image/png' || mime === 'image/jpeg') && data) {
      index = this.textures.length;
      this.textures.push({ name: texture.getName() || `texture_${index}`, mimeType: mime, data });
    } else {
      this.warn(
        'texture_dropped',
        `${mime} textures cannot be delivered to ARKit and were dropped (materials keep their constant factors)`,
      );
    }
    this.textureCache.set(texture, index);
    return index;
  }

  private warn(code: WarningCode, message: string): void {
    if (!this.warnings.has(code)) this.warnings.set(code, { code, message });
  }
}

// glTF sampler wrap modes (WebGL enums) as UsdUVTexture names them.
const WRAP: Record<number, 'repeat' | 'clamp' | 'mirror'> = { 10497: 'repeat', 33071: 'clamp', 33648: 'mirror' };

function emissiveStrength(material: Material): number {
  const ext = material.getExtension<EmissiveStrength>('KHR_materials_emissive_strength');
  return ext ? ext.getEmissiveStrength() : 1;
}

function readFloats(accessor: Accessor, size: number): Float32Array {
  const count = accessor.getCount();
  const array = accessor.getArray();
  if (array instanceof Float32Array && !accessor.getNormalized() && accessor.getElementSize() === size) return Float32Array.from(array);
  // Quantized or normalized data: getElement denormalizes per the accessor's settings.
  const out = new Float32Array(count * size);
  const el = new Array<number>(size).fill(0);
  for (let i = 0; i < count; i++) {
    accessor.getElement(i, el);
    for (let k = 0; k < size; k++) out[i * size + k] = el[k]!;
  }
  return out;
}

function triangleIndices(prim: Primitive, vertexCount: number, mode: number, flip: boolean): Uint32Array {
  const acc = prim.getIndices();
  const src = acc ? Uint32Array.from(acc.getArray() as ArrayLike<number>) : Uint32Array.from({ length: vertexCount }, (_, i) => i);
  let tris: Uint32Array;
  if (mode === TRIANGLES) tris = src.slice(0, src.length - (src.length % 3));
  else {
    const n = Math.max(0, src.length - 2);
    tris = new Uint32Array(n * 3);
    for (let i = 0; i < n; i++) {
      if (mode === TRIANGLE_FAN) tris.set([src[0]!, src[i + 1]!, src[i + 2]!], i * 3);
      else if (i % 2 === 0) tris.set([src[i]!, src[i + 1]!, src[i + 2]!], i * 3);
      else tris.set([src[i + 1]!, src[i]!, src[i + 2]!], i * 3);
    }
  }
  for (let i = 0; i < tris.length; i++) {
    if (tris[i]! >= vertexCount) throw new ModelUnreadableError(`a primitive index (${tris[i]}) points past its ${vertexCount} vertices`);
  }
  if (flip)
    for (let i = 0; i < tris.length; i += 3) {
      const t = tris[i + 1]!;
      tris[i + 1] = tris[i + 2]!;
      tris[i + 2] = t;
    }
  return tris;
}

function addScaled(target: Float32Array, delta: Float32Array, w: number): void {
  const n = Math.min(target.length, delta.length);
  for (let i = 0; i < n; i++) target[i]! += w * delta[i]!;
}
