import { elementIdOf } from '../../scene/elementId.js';
import type { SceneData, SceneMaterial, SceneMesh, SceneNode, TextureRef } from '../../scene/SceneData.js';
import { pointBounds } from '../../scene/pointBounds.js';
import { isIdentityMatrix } from '../../scene/identityMatrix.js';
import { accessibilityOf, accessibilityProperties, ACCESSIBILITY_SCHEMA } from './accessibility.js';
import { storeyRoots } from './storeyRoots.js';
import {
  primName,
  type UsdAttribute,
  type UsdLayer,
  type UsdPrim,
  type UsdProperty,
  type UsdValue,
  type UsdVariantSet,
} from '@arsession/usd';

/** Options of {@link describeLayer}. */
export interface DescribeLayerOptions {
  /** Name of the default prim that holds everything. */
  rootName: string;
  /**
   * Write a mesh drawn at several nodes once, as a prototype that each of its nodes instances
   * (USD scenegraph instancing: `instanceable` prims referencing it), rather than a Mesh prim per
   * node sharing arrays. Off by default: files are written as they always were.
   */
  instanceable: boolean;
}

/** Defaults of {@link describeLayer}. */
export const DESCRIBE_LAYER_DEFAULTS: Readonly<DescribeLayerOptions> = { rootName: 'Model', instanceable: false };

/** The `class` scope under the default prim that holds the prototypes of instanced meshes. */
export const PROTOTYPES_SCOPE = 'Prototypes';

/** Package path of texture `i`: the layer refers to it by this name, and the package stores it there. */
export function textureEntryName(scene: SceneData, i: number): string {
  return `textures/texture_${i}.${scene.textures[i]!.mimeType === 'image/png' ? 'png' : 'jpg'}`;
}

/**
 * What a scene becomes in USD for ARKit, as plain data: `upAxis = "Y"`, `metersPerUnit = 1`, a
 * default prim holding the transform tree and a `Materials` scope, UsdPreviewSurface materials
 * bound with `MaterialBindingAPI`, `extent` on every mesh, one Mesh prim per drawn mesh (no
 * PointInstancer), and what a screen reader says of each storey and element Xform (OpenUSD's
 * `AccessibilityAPI`, from the node's identity), and with two storeys or more a `storey` variant set
 * that shows one alone. With `instanceable`, a mesh drawn at several nodes is written once, as an Xform
 * holding its Mesh in a `class` scope `Prototypes` (not drawn by itself), and each node draws it
 * through an `instanceable` Xform that references it and binds its material (a binding inside the
 * prototype could not point outside it). The text and binary writers render exactly this. Arrays
 * are the scene's own (only texture coordinates are copied, flipped to USD's v-up).
 *
 * @example
 * ```ts
 * const layer = describeLayer(scene);
 * layer.root.children[0].name; // → 'Materials'
 * ```
 */
export function describeLayer(scene: SceneData, options: Partial<DescribeLayerOptions> = {}): UsdLayer {
  const { rootName, instanceable } = { ...DESCRIBE_LAYER_DEFAULTS, ...options };
  const rootPath = `/${rootName}`;
  const materialNames = new Set<string>();
  const materialPaths = scene.materials.map((m, i) => `${rootPath}/Materials/${primName(m.name, materialNames, `material_${i}`)}`);
  const materials: UsdPrim = {
    name: 'Materials',
    typeName: 'Scope',
    properties: [],
    children: scene.materials.map((m, i) => materialPrim(m, materialPaths[i]!, scene)),
  };

  const children: number[][] = scene.nodes.map(() => []);
  const roots: number[] = [];
  scene.nodes.forEach((n, i) => (n.parent < 0 ? roots : children[n.parent]!).push(i));
  // One name set per parent prim: its mesh prims and its child Xforms must not collide. The
  // default prim's children are named first, as rootPrimNames names them.
  const siblingNames = new Map<number, Set<string>>();
  const namesUnder = (parent: number) => {
    let taken = siblingNames.get(parent);
    if (!taken) siblingNames.set(parent, (taken = new Set(reservedNames(instanceable))));
    return taken;
  };
  const rootNames = rootPrimNames(scene, namesUnder(-1));
  const root: UsdPrim = { name: rootName, typeName: 'Xform', kind: 'component', properties: [], children: [materials] };
  const prototypes = instanceable ? new Prototypes(scene, `${rootPath}/${PROTOTYPES_SCOPE}`) : undefined;
  // Arrays derived from a mesh, made once per mesh: its instances then share them (and a writer
  // can write them once).
  const derived = new Map<SceneMesh, MeshArrays>();
  const arraysOf = (mesh: SceneMesh): MeshArrays => {
    let arrays = derived.get(mesh);
    if (!arrays) {
      const { min, max } = pointBounds(mesh.positions);
      arrays = {
        extent: new Float32Array([...min, ...max]),
        counts: new Uint32Array(mesh.indices.length / 3).fill(3),
        ...(mesh.uvs && { st: flipV(mesh.uvs) }),
        ...(mesh.elements?.length && { elements: elementData(mesh.elements), elementPrimvar: elementPrimvar(mesh) }),
      };
      derived.set(mesh, arrays);
    }
    return arrays;
  };
  // A mesh drawn for one element names it on every face too, as a merged one does: one way to read it.
  const firstRows = new Map<number, Uint32Array>();
  const drawnFor = (i: number, arrays: MeshArrays): MeshArrays => {
    if (arrays.elementPrimvar) return arrays;
    const id = ownElementId(scene, i);
    if (id === undefined) return arrays;
    const faces = arrays.counts.length;
    const indices = firstRows.get(faces) ?? new Uint32Array(faces);
    firstRows.set(faces, indices);
    return { ...arrays, elementPrimvar: { table: [id], indices } };
  };
  // Depth first with an explicit stack (glTF trees can be deep); names are given in that order.
  const stack: Array<{ node: number; into: UsdPrim }> = roots
    .slice()
    .reverse()
    .map((node) => ({ node, into: root }));
  while (stack.length) {
    const { node: i, into } = stack.pop()!;
    const node = scene.nodes[i]!;
    const prim = xformPrim(node, node.parent < 0 ? rootNames.get(i)! : primName(node.name, namesUnder(node.parent), `node_${i}`));
    const meshNames = namesUnder(i);
    for (const m of node.meshes) {
      const mesh = scene.meshes[m]!;
      const name = primName(mesh.name, meshNames, `mesh_${m}`);
      const material = materialPaths[mesh.material]!;
      const prototype = prototypes?.of(m, () => meshPrim(mesh, name, undefined, scene.materials[mesh.material]!, arraysOf(mesh)));
      prim.children.push(
        prototype
          ? instancePrim(name, prototype, material)
          : meshPrim(mesh, name, material, scene.materials[mesh.material]!, drawnFor(i, arraysOf(mesh))),
      );
    }
    into.children.push(prim);
    for (const c of children[i]!.slice().reverse()) stack.push({ node: c, into: prim });
  }
  // Right after Materials, and only when it holds a prototype.
  if (prototypes?.scope.children.length) root.children.splice(1, 0, prototypes.scope);
  const storeys = storeyVariantSet(storeyRoots(scene).map((s) => rootNames.get(s.node)!));
  if (storeys) root.variantSets = [storeys];
  return { customLayerData: { creator: 'arsession' }, metersPerUnit: 1, upAxis: 'Y', root };
}

/** The name of the variant that selects every storey, unless a storey takes it. */
export const ALL_STOREYS_VARIANT = 'all';

/**
 * The `storey` variant set of a model of two storeys or more: a variant per storey Xform, named
 * like it, that deactivates every other storey (`over "Level_2" (active = false)`), bottom up, and
 * one that shows them all, selected. What USDKit switches with `variantSets`; a viewer that
 * ignores variants draws the whole model, as before. Deactivated prims are not on the stage at
 * all, so a storey alone costs what it draws.
 */
function storeyVariantSet(storeyPrims: readonly string[]): UsdVariantSet | undefined {
  if (storeyPrims.length < 2) return undefined;
  const all = primName(ALL_STOREYS_VARIANT, new Set(storeyPrims), ALL_STOREYS_VARIANT);
  const others = (shown: string): UsdPrim[] =>
    storeyPrims
      .filter((name) => name !== shown)
      .map((name) => ({ name, typeName: '', specifier: 'over', active: false, properties: [], children: [] }));
  return {
    name: 'storey',
    selection: all,
    variants: [{ name: all, children: [] }, ...storeyPrims.map((name) => ({ name, children: others(name) }))],
  };
}

/** Names the default prim's own children take before any node's. */
function reservedNames(instanceable: boolean): string[] {
  return instanceable ? ['Materials', PROTOTYPES_SCOPE] : ['Materials'];
}

/** The prim name of each root node (by index), in order, taken from `taken`. */
function rootPrimNames(scene: SceneData, taken: Set<string>): Map<number, string> {
  const names = new Map<number, string>();
  scene.nodes.forEach((n, i) => {
    if (n.parent < 0) names.set(i, primName(n.name, taken, `node_${i}`));
  });
  return names;
}

/**
 * The path {@link describeLayer} gives each root node's Xform (by node index): where an app finds
 * a storey to hide or show.
 *
 * @example
 * ```ts
 * rootPrimPaths(scene).get(0); // → '/Model/Erdgeschoss'
 * ```
 */
export function rootPrimPaths(scene: SceneData, options: Partial<DescribeLayerOptions> = {}): Map<number, string> {
  const { rootName, instanceable } = { ...DESCRIBE_LAYER_DEFAULTS, ...options };
  const names = rootPrimNames(scene, new Set(reservedNames(instanceable)));
  return new Map([...names].map(([i, name]) => [i, `/${rootName}/${name}`]));
}

function xformPrim(node: SceneNode, name: string): UsdPrim {
  const meta = Object.entries(node.metadata);
  const prim: UsdPrim = { name, typeName: 'Xform', properties: [], children: [] };
  if (meta.length) {
    const entries = meta.map(([k, v]): [string, UsdValue] => [identifier(k), { type: 'string', value: v }]);
    prim.customData = Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  const spoken = accessibilityOf(node.metadata);
  if (spoken) {
    prim.apiSchemas = [ACCESSIBILITY_SCHEMA];
    prim.properties.push(...accessibilityProperties(spoken));
  }
  if (!isIdentityMatrix(node.matrix)) {
    prim.properties.push(
      attribute('xformOp:transform', { type: 'matrix4d', value: node.matrix }),
      attribute('xformOpOrder', { type: 'token[]', value: ['xformOp:transform'] }, { uniform: true }),
    );
  }
  return prim;
}

/**
 * Per-mesh arrays the layer adds: bounds, face sizes, texture coordinates flipped to USD's v-up,
 * and the element identity of merged geometry.
 */
interface MeshArrays {
  extent: Float32Array;
  counts: Uint32Array;
  st?: Float32Array;
  elements?: Record<string, UsdValue>;
  /** Each face's element: the indexed primvar `primvars:element` (see `elementPrimvar`). */
  elementPrimvar?: { table: string[]; indices: Uint32Array };
}

/** Element identity of merged geometry as customData: parallel arrays, one entry per element's triangle run. */
function elementData(e: NonNullable<SceneMesh['elements']>): Record<string, UsdValue> {
  const strings = (key: string): UsdValue => ({ type: 'string[]', value: e.map((x) => x.metadata[key] ?? '') });
  return {
    elementClasses: strings('ifcClass'),
    elementFirstTriangles: { type: 'int[]', value: e.map((x) => x.firstTriangle) },
    elementGlobalIds: strings('globalId'),
    elementNames: strings('name'),
    elementTriangleCounts: { type: 'int[]', value: e.map((x) => x.triangleCount) },
  };
}

/** The element node `i` draws for: its own id, else its nearest ancestor's (see `elementIdOf`). */
function ownElementId(scene: SceneData, i: number): string | undefined {
  for (let n = i; n >= 0; n = scene.nodes[n]!.parent) {
    const id = elementIdOf(scene.nodes[n]!.metadata);
    if (id !== undefined) return id;
  }
  return undefined;
}

/**
 * Each face's element of a merged mesh, as USD states a per-face value with a table: an indexed
 * `uniform` primvar whose values are the element ids (see `elementIdOf`; `''` for a run of no
 * element) and whose indices give each face its entry. `UsdGeomPrimvar.ComputeFlattened` reads
 * it as one id per face; the indices, runs of one value, cost a few bytes once integer-coded.
 */
function elementPrimvar(mesh: SceneMesh): { table: string[]; indices: Uint32Array } {
  const rows = new Map<string, number>();
  const row = (id: string) => rows.get(id) ?? rows.set(id, rows.size).size - 1;
  const NONE = 0xffffffff;
  const indices = new Uint32Array(mesh.indices.length / 3).fill(NONE);
  for (const run of mesh.elements ?? [])
    indices.fill(row(elementIdOf(run.metadata) ?? ''), run.firstTriangle, run.firstTriangle + run.triangleCount);
  // A face no run covers (none are written so) names no element, as a run without one does.
  if (indices.includes(NONE)) {
    const none = row('');
    for (let f = 0; f < indices.length; f++) if (indices[f] === NONE) indices[f] = none;
  }
  return { table: [...rows.keys()], indices };
}

/**
 * The prototypes of an instancing layer: meshes drawn at more than one node, each written once
 * under the `class` scope as an Xform holding its Mesh prim, named after the mesh.
 */
class Prototypes {
  readonly scope: UsdPrim = { name: PROTOTYPES_SCOPE, typeName: 'Scope', specifier: 'class', properties: [], children: [] };
  private readonly draws: Uint32Array;
  private readonly paths = new Map<number, string>();
  private readonly names = new Set<string>();

  constructor(
    private readonly scene: SceneData,
    private readonly scopePath: string,
  ) {
    this.draws = new Uint32Array(scene.meshes.length);
    for (const node of scene.nodes) for (const m of node.meshes) this.draws[m]!++;
  }

  /** The prototype's path for mesh `m` when it is drawn more than once (made on first use), else undefined. */
  of(m: number, mesh: () => UsdPrim): string | undefined {
    if (this.draws[m]! < 2) return undefined;
    let path = this.paths.get(m);
    if (path === undefined) {
      const name = primName(this.scene.meshes[m]!.name, this.names, `mesh_${m}`);
      this.scope.children.push({ name, typeName: 'Xform', properties: [], children: [{ ...mesh(), name }] });
      this.paths.set(m, (path = `${this.scopePath}/${name}`));
    }
    return path;
  }
}

/** A node's draw of a prototype: an instanceable Xform referencing it, binding the mesh's material for everything under it. */
function instancePrim(name: string, prototype: string, materialPath: string): UsdPrim {
  return {
    name,
    typeName: 'Xform',
    instanceable: true,
    references: [prototype],
    apiSchemas: ['MaterialBindingAPI'],
    properties: [{ kind: 'relationship', name: 'material:binding', target: materialPath }],
    children: [],
  };
}

/** A Mesh prim; bound to `materialPath` unless that is undefined (a prototype, bound where it is instanced). */
function meshPrim(mesh: SceneMesh, name: string, materialPath: string | undefined, material: SceneMaterial, arrays: MeshArrays): UsdPrim {
  const prim: UsdPrim = {
    name,
    typeName: 'Mesh',
    ...(materialPath !== undefined && { apiSchemas: ['MaterialBindingAPI'] }),
    properties: [],
    children: [],
  };
  if (arrays.elements) prim.customData = arrays.elements;
  const props: UsdProperty[] = [
    attribute('doubleSided', { type: 'bool', value: material.doubleSided }, { uniform: true }),
    attribute('extent', { type: 'float3[]', value: arrays.extent }),
    attribute('faceVertexCounts', { type: 'int[]', value: arrays.counts }),
    attribute('faceVertexIndices', { type: 'int[]', value: mesh.indices }),
    ...(materialPath !== undefined ? [{ kind: 'relationship', name: 'material:binding', target: materialPath } as const] : []),
  ];
  if (mesh.normals) props.push(attribute('normals', { type: 'normal3f[]', value: mesh.normals }, { interpolation: 'vertex' }));
  props.push(attribute('points', { type: 'point3f[]', value: mesh.positions }));
  if (arrays.elementPrimvar) {
    const { table, indices } = arrays.elementPrimvar;
    props.push(
      attribute('primvars:element', { type: 'string[]', value: table }, { interpolation: 'uniform' }),
      attribute('primvars:element:indices', { type: 'int[]', value: indices }),
    );
  }
  if (arrays.st) props.push(attribute('primvars:st', { type: 'texCoord2f[]', value: arrays.st }, { interpolation: 'vertex' }));
  props.push(attribute('subdivisionScheme', { type: 'token', value: 'none' }, { uniform: true }));
  prim.properties = props;
  return prim;
}

function materialPrim(m: SceneMaterial, path: string, scene: SceneData): UsdPrim {
  const uvReader = `${path}/TexCoordReader`;
  const shaders = new TextureShaders(scene, uvReader);
  // Surface inputs: a constant, or a channel of a texture shader (named once all are known).
  const inputs: Array<UsdAttribute | { name: string; type: UsdAttribute['type']; from: TextureUse }> = [];
  const constant = (name: string, value: UsdValue) => inputs.push(attribute(name, value));
  const textured = (name: string, type: UsdAttribute['type'], from: TextureUse) => inputs.push({ name, type, from });

  if (m.baseColorTexture) {
    textured('inputs:diffuseColor', 'color3f', shaders.use('BaseColor', m.baseColorTexture, 'sRGB', 'rgb', m.baseColor));
    if (!m.opacityTexture && (m.opacity < 1 || m.alphaBlend || m.alphaCutoff !== undefined)) {
      textured('inputs:opacity', 'float', shaders.use('BaseColor', m.baseColorTexture, 'sRGB', 'a', [m.opacity]));
    }
  } else {
    constant('inputs:diffuseColor', { type: 'color3f', value: m.baseColor });
  }
  if (m.opacityTexture)
    textured('inputs:opacity', 'float', shaders.use('Opacity', m.opacityTexture, 'raw', m.opacityTexture.channel, [m.opacity]));
  else if (!m.baseColorTexture) constant('inputs:opacity', { type: 'float', value: m.opacity });
  if (m.alphaCutoff !== undefined) constant('inputs:opacityThreshold', { type: 'float', value: m.alphaCutoff });
  if (m.metallicTexture)
    textured('inputs:metallic', 'float', shaders.use('Metallic', m.metallicTexture, 'raw', m.metallicTexture.channel, [m.metallic]));
  else constant('inputs:metallic', { type: 'float', value: m.metallic });
  if (m.roughnessTexture)
    textured('inputs:roughness', 'float', shaders.use('Roughness', m.roughnessTexture, 'raw', m.roughnessTexture.channel, [m.roughness]));
  else constant('inputs:roughness', { type: 'float', value: m.roughness });
  if (m.emissiveTexture) textured('inputs:emissiveColor', 'color3f', shaders.use('Emissive', m.emissiveTexture, 'sRGB', 'rgb', m.emissive));
  else if (m.emissive.some((v) => v > 0)) constant('inputs:emissiveColor', { type: 'color3f', value: m.emissive });
  if (m.normalTexture) {
    // Tangent-space normals are stored as colour in [0, 1]: map to [−1, 1] in raw colour space,
    // with glTF's normal scale applied to x and y.
    const s = m.normalTexture.scale;
    textured('inputs:normal', 'normal3f', shaders.use('Normal', m.normalTexture, 'raw', 'rgb', [2 * s, 2 * s, 2], [-s, -s, -1, 0]));
  }
  if (m.occlusionTexture)
    textured('inputs:occlusion', 'float', shaders.use('Occlusion', m.occlusionTexture, 'raw', m.occlusionTexture.channel, [1]));
  constant('inputs:useSpecularWorkflow', { type: 'int', value: 0 });

  const textures = shaders.prims();
  const surface: UsdPrim = {
    name: 'PreviewSurface',
    typeName: 'Shader',
    properties: [
      attribute('info:id', { type: 'token', value: 'UsdPreviewSurface' }, { uniform: true }),
      ...inputs.map((i) =>
        'from' in i ? connection(i.name, i.type, `${path}/${textures[i.from.shader]!.name}.outputs:${i.from.output}`) : i,
      ),
      output('outputs:surface', 'token'),
    ],
    children: [],
  };
  const reader: UsdPrim[] =
    textures.length === 0
      ? []
      : [
          {
            name: 'TexCoordReader',
            typeName: 'Shader',
            properties: [
              attribute('info:id', { type: 'token', value: 'UsdPrimvarReader_float2' }, { uniform: true }),
              attribute('inputs:varname', { type: 'token', value: 'st' }),
              output('outputs:result', 'float2'),
            ],
            children: [],
          },
        ];
  return {
    name: path.slice(path.lastIndexOf('/') + 1),
    typeName: 'Material',
    properties: [connection('outputs:surface', 'token', `${path}/PreviewSurface.outputs:surface`)],
    children: [surface, ...reader, ...textures],
  };
}

/** A surface input's source: a shader of {@link TextureShaders} and the output it reads. */
interface TextureUse {
  shader: number;
  output: 'rgb' | 'r' | 'g' | 'b' | 'a';
}

const CHANNELS = { r: [0], g: [1], b: [2], a: [3], rgb: [0, 1, 2] } as const;

/**
 * The UsdUVTexture shaders of one material: one per image (with its wrap, colour space and bias),
 * shared by every input that reads a channel of it — glTF's metallic-roughness image feeds
 * metallic from B and roughness from G of one shader — each channel scaled by the factor of the
 * input it feeds. Two inputs that want different factors on one channel get a shader each.
 */
class TextureShaders {
  private readonly shaders: Array<{
    key: string;
    labels: string[];
    ref: TextureRef;
    colorSpace: string;
    scale: number[];
    taken: boolean[];
    bias?: readonly number[];
  }> = [];

  constructor(
    private readonly scene: SceneData,
    private readonly uvReader: string,
  ) {}

  use(
    label: string,
    ref: TextureRef,
    colorSpace: 'sRGB' | 'raw',
    output: TextureUse['output'],
    factors: readonly number[],
    bias?: readonly number[],
  ): TextureUse {
    const key = `${ref.texture}|${ref.wrap?.join() ?? ''}|${colorSpace}|${bias?.join() ?? ''}`;
    const channels = CHANNELS[output];
    const fits = (s: (typeof this.shaders)[number]) => s.key === key && channels.every((c, i) => !s.taken[c] || s.scale[c] === factors[i]);
    let index = this.shaders.findIndex(fits);
    if (index < 0) {
      index = this.shaders.length;
      this.shaders.push({
        key,
        labels: [],
        ref,
        colorSpace,
        scale: [1, 1, 1, 1],
        taken: [false, false, false, false],
        ...(bias && { bias }),
      });
    }
    const shader = this.shaders[index]!;
    channels.forEach((c, i) => {
      shader.scale[c] = factors[i]!;
      shader.taken[c] = true;
    });
    if (!shader.labels.includes(label)) shader.labels.push(label);
    return { shader: index, output };
  }

  /** The shader prims, named after the inputs they feed (`MetallicRoughnessTexture`). */
  prims(): UsdPrim[] {
    const names = new Set<string>();
    return this.shaders.map((s): UsdPrim => {
      const [wrapS, wrapT] = s.ref.wrap ?? ['repeat', 'repeat'];
      return {
        name: primName(`${s.labels.join('')}Texture`, names, 'Texture'),
        typeName: 'Shader',
        properties: [
          attribute('info:id', { type: 'token', value: 'UsdUVTexture' }, { uniform: true }),
          attribute('inputs:file', { type: 'asset', value: textureEntryName(this.scene, s.ref.texture) }),
          connection('inputs:st', 'float2', `${this.uvReader}.outputs:result`),
          attribute('inputs:sourceColorSpace', { type: 'token', value: s.colorSpace }),
          attribute('inputs:scale', { type: 'float4', value: s.scale }),
          ...(s.bias ? [attribute('inputs:bias', { type: 'float4', value: s.bias })] : []),
          attribute('inputs:wrapS', { type: 'token', value: wrapS }),
          attribute('inputs:wrapT', { type: 'token', value: wrapT }),
          output('outputs:rgb', 'float3'),
          output('outputs:a', 'float'),
          output('outputs:r', 'float'),
          output('outputs:g', 'float'),
          output('outputs:b', 'float'),
        ],
        children: [],
      };
    });
  }
}

function attribute(name: string, value: UsdValue, extra: Pick<UsdAttribute, 'uniform' | 'interpolation'> = {}): UsdAttribute {
  return { kind: 'attribute', name, type: value.type, value, ...extra };
}

function connection(name: string, type: UsdAttribute['type'], target: string): UsdAttribute {
  return { kind: 'attribute', name, type, connect: target };
}

function output(name: string, type: UsdAttribute['type']): UsdAttribute {
  return { kind: 'attribute', name, type };
}

function flipV(uvs: Float32Array): Float32Array {
  // glTF puts v = 0 at the top of an image, USD at the bottom.
  const out = new Float32Array(uvs.length);
  for (let i = 0; i < uvs.length; i += 2) {
    out[i] = uvs[i]!;
    out[i + 1] = 1 - uvs[i + 1]!;
  }
  return out;
}

function identifier(key: string): string {
  const s = key.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[0-9]/.test(s) ? `_${s}` : s || '_';
}
