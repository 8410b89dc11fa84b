import type { TinyUsdzLoaderNative, TinyUsdzNode } from 'tinyusdz';
import { ModelUnreadableError, UsdzPackageError } from '../errors/ConvertError.js';
import type { SceneData, SceneMaterial, SceneMesh, SceneNode, SceneTexture, SceneWarning } from '../scene/SceneData.js';
import { sceneBounds, sceneStats } from '../scene/sceneStats.js';
import { checkUsdzPackage } from './checkUsdzPackage.js';
import { tinyusdzModule } from './tinyusdzModule.js';

/** Options of {@link readUsdz}. */
export interface ReadUsdzOptions {
  fileName?: string;
  field?: string;
}

/** USD's own fallbacks when a stage does not say: Y up, centimetres. */
const FALLBACK_UP_AXIS = 'Y';
const FALLBACK_METERS_PER_UNIT = 0.01;

/**
 * Reads a USDZ into {@link SceneData}: package rules checked first ({@link checkUsdzPackage}),
 * every asset path of the root layer required to resolve inside the package, then geometry,
 * UsdPreviewSurface values and PNG/JPEG textures through TinyUSDZ's render scene, brought to
 * Y-up metres from the stage's `upAxis` and `metersPerUnit` (USD's fallbacks, Y and 0.01, when
 * the stage states none, with a warning).
 *
 * @example
 * ```ts
 * const scene = await readUsdz(readFileSync('chair.usdz'));
 * ```
 */
export async function readUsdz(input: Uint8Array, options: ReadUsdzOptions = {}): Promise<SceneData> {
  const named = { ...(options.fileName !== undefined && { fileName: options.fileName }), ...(options.field !== undefined && { field: options.field }) };
  const label = options.fileName ?? 'the USDZ';
  const pkg = checkUsdzPackage(input, named);
  const warnings: SceneWarning[] = pkg.repaired.map((rule) => ({ code: `repaired_${rule}`, message: `the package broke the ARKit rule "${rule}"; it was repacked` }));
  if (/\.usd$/i.test(pkg.entries[0]!.name)) {
    warnings.push({ code: 'repaired_layer_extension', message: 'the root layer has the ambiguous .usd extension ARKit refuses; the delivered package names its layer explicitly' });
  }
  const mod = await tinyusdzModule();
  const root = pkg.entries[0]!;
  // Asset paths resolve against the root layer's folder inside the package.
  const rootDir = root.name.includes('/') ? root.name.slice(0, root.name.lastIndexOf('/') + 1) : '';
  const relative = new Map(pkg.entries.map((e) => [e.name.startsWith(rootDir) ? e.name.slice(rootDir.length) : e.name, e]));

  const loader = new mod.TinyUSDZLoaderNative();
  try {
    if (!loader.loadAsLayerFromBinary(root.data, root.name)) {
      throw new ModelUnreadableError(`${label}: the root layer cannot be read (${loader.error().trim()})`, named);
    }
    const text = loader.layerToString();
    const assets = [...loader.extractSublayerAssetPaths(), ...loader.extractReferencesAssetPaths(), ...loader.extractPayloadAssetPaths()];
    // Asset-valued attributes (textures and the like) too; not @…@ inside strings such as docs.
    for (const line of text.matchAll(/^\s*(?:uniform\s+)?asset(?:\[\])?\s+[\w:.]+(?:\.timeSamples)?\s*=\s*(.*)$/gm)) {
      for (const m of line[1]!.matchAll(/@([^@\n]+)@/g)) assets.push(m[1]!);
    }
    for (const asset of assets) checkAssetPath(asset, relative, label, named);

    const header = /^#usda[^\n]*\n\(\n([\s\S]*?)\n\)/.exec(text)?.[1] ?? '';
    const upAxis = /^\s*upAxis = "(\w+)"/m.exec(header)?.[1];
    const mpuText = /^\s*metersPerUnit = ([-\d.eE+]+)/m.exec(header)?.[1];
    if (upAxis === undefined || mpuText === undefined) {
      warnings.push({ code: 'stage_defaults', message: `the stage does not state ${[upAxis === undefined && 'upAxis', mpuText === undefined && 'metersPerUnit'].filter(Boolean).join(' or ')}; USD's fallbacks (Y up, centimetres) were used` });
    }
    const metersPerUnit = mpuText === undefined ? FALLBACK_METERS_PER_UNIT : Number(mpuText);
    if (!(metersPerUnit > 0) || !Number.isFinite(metersPerUnit)) throw new ModelUnreadableError(`${label}: metersPerUnit ${mpuText} is not a positive number`, named);

    for (const [path, entry] of relative) {
      loader.setAsset(path, entry.data);
      loader.setAsset(`./${path}`, entry.data);
    }
    const compose = (ok: boolean, what: string) => {
      if (!ok) throw new ModelUnreadableError(`${label}: its ${what} cannot be composed (${loader.error().trim()})`, named);
    };
    compose(loader.composeSublayers(), 'sublayers');
    for (let round = 0; round < 16 && (loader.hasReferences() || loader.hasPayload()); round++) {
      if (loader.hasReferences()) compose(loader.composeReferences(), 'references');
      if (loader.hasPayload()) compose(loader.composePayload(), 'payloads');
    }
    if (!loader.layerToRenderScene()) throw new ModelUnreadableError(`${label}: the stage cannot be read (${loader.error().trim()})`, named);
    return buildScene(loader, (upAxis ?? FALLBACK_UP_AXIS).toUpperCase(), metersPerUnit, warnings);
  } finally {
    loader.delete();
  }
}

function checkAssetPath(asset: string, names: ReadonlyMap<string, unknown>, label: string, named: { fileName?: string; field?: string }): void {
  const path = asset.replace(/^\.\//, '');
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('/') || path.split('/').includes('..')) {
    throw new UsdzPackageError('unencapsulated_reference', `${label}: the layer refers to "${asset}", outside the package`, named);
  }
  if (/\.abc$/i.test(path)) throw new UsdzPackageError('unsupported_reference', `${label}: the layer refers to Alembic content ("${asset}"), which ARKit cannot load`, named);
  if (!names.has(path)) throw new UsdzPackageError('unencapsulated_reference', `${label}: the layer refers to "${asset}", which is not in the package`, named);
}

function buildScene(loader: TinyUsdzLoaderNative, upAxis: string, metersPerUnit: number, warnings: SceneWarning[]): SceneData {
  const nodes: SceneNode[] = [];
  const meshes: SceneMesh[] = [];
  const materials: SceneMaterial[] = [];
  const textures: SceneTexture[] = [];
  const materialIndex = new Map<number, number>();
  const textureIndex = new Map<number, number | undefined>();

  // The stage's units and up axis become one root transform over the whole tree.
  // Scale by metersPerUnit; for a Z-up stage also turn (x, y, z) → (x, z, −y) (columns: x→x, y→−z, z→y).
  const s = metersPerUnit;
  const rootMatrix = upAxis === 'Z'
    ? new Float64Array([s, 0, 0, 0, 0, 0, -s, 0, 0, s, 0, 0, 0, 0, 0, 1])
    : new Float64Array([s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1]);
  nodes.push({ name: 'stage', parent: -1, matrix: rootMatrix, meshes: [], metadata: {} });

  const material = (id: number): number => {
    const known = materialIndex.get(id);
    if (known !== undefined) return known;
    const index = materials.length;
    materialIndex.set(id, index);
    if (id < 0) {
      materials.push({ name: 'default', baseColor: [0.18, 0.18, 0.18], opacity: 1, metallic: 0, roughness: 0.5, emissive: [0, 0, 0], doubleSided: false });
      return index;
    }
    const m = loader.getMaterial(id);
    const out: SceneMaterial = {
      name: `material_${id}`,
      baseColor: [...m.diffuseColor],
      opacity: m.opacity,
      metallic: m.metallic,
      roughness: m.roughness,
      emissive: [...m.emissiveColor],
      doubleSided: false,
      ...(m.opacityThreshold > 0 && { alphaCutoff: m.opacityThreshold }),
    };
    const texture = m.diffuseColorTextureId !== undefined && m.diffuseColorTextureId >= 0 ? textureOf(m.diffuseColorTextureId) : undefined;
    const others = Object.entries(m).filter(([k, v]) => k.endsWith('TextureId') && k !== 'diffuseColorTextureId' && typeof v === 'number' && v >= 0).map(([k]) => k.replace('TextureId', ''));
    if (others.length && !warnings.some((w) => w.code === 'usdz_textures_dropped')) {
      warnings.push({ code: 'usdz_textures_dropped', message: `only base colour textures are carried over from USDZ input; dropped: ${others.join(', ')}` });
    }
    if (texture !== undefined) out.baseColorTexture = { texture };
    materials.push(out);
    return index;
  };
  const textureOf = (id: number): number | undefined => {
    if (textureIndex.has(id)) return textureIndex.get(id);
    const image = loader.getImage(loader.getTexture(id).textureImageId);
    const data = new Uint8Array(image.data);
    const mime = data[0] === 0x89 && data[1] === 0x50 ? 'image/png' : data[0] === 0xff && data[1] === 0xd8 ? 'image/jpeg' : undefined;
    let index: number | undefined;
    if (mime) {
      index = textures.length;
      textures.push({ name: image.uri.replace(/^.*\//, '').replace(/\.[^.]*$/, '') || `texture_${id}`, mimeType: mime, data });
    } else if (!warnings.some((w) => w.code === 'texture_dropped')) {
      warnings.push({ code: 'texture_dropped', message: `textures other than PNG and JPEG (such as ${image.uri}) cannot be delivered to ARKit and were dropped` });
    }
    textureIndex.set(id, index);
    return index;
  };

  const meshOf = new Map<number, number>();
  const visit = (node: TinyUsdzNode, parent: number, depth: number) => {
    if (depth > 256) throw new ModelUnreadableError('the prim hierarchy is deeper than 256 levels');
    const self = nodes.length;
    const drawn: number[] = [];
    if (node.nodeType === 'mesh' && node.contentId >= 0) {
      let index = meshOf.get(node.contentId);
      if (index === undefined) {
        const m = loader.getMesh(node.contentId);
        const indices = Uint32Array.from(m.faceVertexIndices);
        const vertexCount = m.points.length / 3;
        if (indices.some((i) => i >= vertexCount)) throw new ModelUnreadableError(`mesh ${m.absPath} has indices past its ${vertexCount} points`);
        index = meshes.length;
        meshes.push({
          name: node.primName,
          positions: Float32Array.from(m.points),
          ...(m.normals && m.normals.length === m.points.length && { normals: Float32Array.from(m.normals) }),
          // USD puts v = 0 at the bottom of an image; SceneData follows glTF (top).
          ...(m.texcoords && m.texcoords.length === vertexCount * 2 && { uvs: Float32Array.from(m.texcoords, (v, i) => (i % 2 ? 1 - v : v)) }),
          indices,
          material: material(m.materialId),
        });
        meshOf.set(node.contentId, index);
      }
      drawn.push(index);
    }
    nodes.push({ name: node.primName || `prim_${self}`, parent, matrix: Float64Array.from(node.localMatrix), meshes: drawn, metadata: { usdPath: node.absPath } });
    for (const child of node.children ?? []) visit(child, self, depth + 1);
  };
  visit(loader.getDefaultRootNode(), 0, 0);
  if (meshes.length === 0) warnings.push({ code: 'no_geometry', message: 'the model has no drawable geometry' });
  const base = { nodes, meshes, materials, textures };
  return { source: { format: 'usdz' }, ...base, offset: [0, 0, 0], bounds: sceneBounds(base), stats: sceneStats(base), warnings };
}
