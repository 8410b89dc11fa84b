import {
  Document,
  NodeIO,
  type Buffer as GltfBuffer,
  type Material,
  type Mesh,
  type Node as GltfNode,
  type Primitive,
} from '@gltf-transform/core';
import { EXTMeshFeatures, EXTStructuralMetadata } from '@gltf-transform/extensions';
import { ELEMENT_COLUMNS, elementFeatures, type ElementFeatures } from './elementFeatures.js';
import type { SceneData, SceneMaterial } from '../scene/SceneData.js';
import { GltfTextures } from './GltfTextures.js';

/**
 * Writes a scene as a GLB (for previews, web and Android clients) from the same data the USDZ is
 * written from. Images pass through untouched, unless a material's channels must be repacked the
 * way glTF reads them ({@link GltfTextures}); element metadata goes into node `extras`, and each
 * vertex's element into `EXT_mesh_features` feature IDs (`_FEATURE_ID_0`) indexing one
 * `EXT_structural_metadata` table of the elements (`globalId`, `ifcClass`, `name`), so a viewer
 * names what was picked in a merged mesh; a node drawing several meshes becomes one glTF mesh
 * with one primitive each.
 *
 * @example
 * ```ts
 * await writeFile('house.glb', await writeGlb(await readModel(readFileSync('house.ifc'))));
 * ```
 */
export async function writeGlb(scene: SceneData): Promise<Uint8Array> {
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'arsession';
  const buffer = doc.createBuffer();
  const textures = new GltfTextures(doc, scene.textures);
  const materials = await Promise.all(scene.materials.map((m) => material(doc, m, textures)));
  const primitives = scene.meshes.map((m) => {
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(m.positions).setBuffer(buffer))
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(m.indices).setBuffer(buffer))
      .setMaterial(materials[m.material]!);
    if (m.normals) prim.setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(m.normals).setBuffer(buffer));
    if (m.uvs) prim.setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(m.uvs).setBuffer(buffer));
    return prim;
  });
  writeElementFeatures(doc, buffer, primitives, elementFeatures(scene));
  const meshes = new Map<string, Mesh>();
  const gltfScene = doc.createScene('scene');
  const nodes: GltfNode[] = [];
  for (const node of scene.nodes) {
    const out = doc.createNode(node.name).setMatrix(Array.from(node.matrix) as Parameters<GltfNode['setMatrix']>[0]);
    if (Object.keys(node.metadata).length) out.setExtras({ ...node.metadata });
    if (node.meshes.length) {
      const key = node.meshes.join(',');
      let mesh = meshes.get(key);
      if (!mesh) {
        mesh = doc.createMesh(scene.meshes[node.meshes[0]!]!.name);
        for (const m of node.meshes) mesh.addPrimitive(primitives[m]!);
        meshes.set(key, mesh);
      }
      out.setMesh(mesh);
    }
    if (node.parent < 0) gltfScene.addChild(out);
    else nodes[node.parent]!.addChild(out);
    nodes.push(out);
  }
  doc.getRoot().setDefaultScene(gltfScene);
  return new NodeIO().registerExtensions([EXTMeshFeatures, EXTStructuralMetadata]).writeBinary(doc);
}

async function material(doc: Document, m: SceneMaterial, textures: GltfTextures): Promise<Material> {
  const out = doc
    .createMaterial(m.name)
    .setBaseColorFactor([...m.baseColor, m.opacity])
    .setMetallicFactor(m.metallic)
    .setRoughnessFactor(m.roughness)
    .setEmissiveFactor(m.emissive)
    .setDoubleSided(m.doubleSided);
  if (m.alphaCutoff !== undefined) out.setAlphaMode('MASK').setAlphaCutoff(m.alphaCutoff);
  else if (m.alphaBlend || m.opacity < 1 || m.opacityTexture) out.setAlphaMode('BLEND');
  const base = await textures.baseColor(m);
  // A base colour made from a constant (to carry an opacity texture) already holds the colour.
  if (base) out.setBaseColorTexture(base).setBaseColorFactor(m.baseColorTexture ? [...m.baseColor, m.opacity] : [1, 1, 1, m.opacity]);
  if (m.normalTexture) out.setNormalTexture(textures.texture(m.normalTexture.texture)).setNormalScale(m.normalTexture.scale);
  if (m.occlusionTexture) out.setOcclusionTexture(await textures.occlusion(m.occlusionTexture));
  if (m.emissiveTexture) out.setEmissiveTexture(textures.texture(m.emissiveTexture.texture));
  // A channel the image does not carry is filled with 255, so its factor alone stands.
  const metallicRoughness = await textures.metallicRoughness(m);
  if (metallicRoughness) out.setMetallicRoughnessTexture(metallicRoughness);
  return out;
}

/**
 * The element table (class `element`, one STRING column per identity field) and each primitive's
 * feature IDs into it; nothing when the scene names no element.
 */
function writeElementFeatures(doc: Document, buffer: GltfBuffer, primitives: readonly Primitive[], features: ElementFeatures): void {
  const { elements, ids, none } = features;
  if (elements.length === 0 || ids.every((a) => a === undefined)) return;
  const metadata = doc.createExtension(EXTStructuralMetadata);
  const element = metadata.createClass().setDescription('an element of the model (an IFC product), as its file names it');
  const table = metadata.createPropertyTable().setClass('element').setCount(elements.length);
  for (const column of ELEMENT_COLUMNS) {
    element.setProperty(column, metadata.createClassProperty().setType('STRING'));
    const { values, offsets } = stringColumn(elements.map((e) => e[column]));
    table.setProperty(
      column,
      metadata.createPropertyTableProperty().setValues(values).setStringOffsets(offsets).setStringOffsetType('UINT32'),
    );
  }
  const schema = metadata.createSchema().setId('arsession').setClass('element', element);
  doc.getRoot().setExtension('EXT_structural_metadata', metadata.createStructuralMetadata().setSchema(schema).addPropertyTable(table));

  const meshFeatures = doc.createExtension(EXTMeshFeatures);
  // UNSIGNED_SHORT while every id fits (glTF allows no UNSIGNED_INT attribute), FLOAT past it.
  const narrow = none <= 0xffff;
  ids.forEach((vertexIds, m) => {
    if (!vertexIds) return;
    const array = narrow ? Uint16Array.from(vertexIds) : Float32Array.from(vertexIds);
    const distinct = new Set(vertexIds);
    const featureId = meshFeatures
      .createFeatureID()
      .setFeatureCount(distinct.size - (distinct.has(none) ? 1 : 0))
      .setAttribute(0)
      .setLabel('element')
      .setPropertyTable(table);
    if (distinct.has(none)) featureId.setNullFeatureID(none);
    primitives[m]!.setAttribute('_FEATURE_ID_0', doc.createAccessor().setType('SCALAR').setArray(array).setBuffer(buffer)).setExtension(
      'EXT_mesh_features',
      meshFeatures.createFeatures().addFeatureID(featureId),
    );
  });
}

/** A STRING column as EXT_structural_metadata stores it: the UTF-8 bytes end to end, and count + 1 offsets into them. */
function stringColumn(strings: readonly string[]): { values: Uint8Array; offsets: Uint8Array } {
  const encoded = strings.map((s) => new TextEncoder().encode(s));
  const offsets = new Uint32Array(strings.length + 1);
  encoded.forEach((e, i) => (offsets[i + 1] = offsets[i]! + e.length));
  const values = new Uint8Array(offsets[strings.length]!);
  encoded.forEach((e, i) => values.set(e, offsets[i]!));
  return { values, offsets: new Uint8Array(offsets.buffer) };
}
