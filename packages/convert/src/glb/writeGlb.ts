import { Document, NodeIO, type Material, type Mesh, type Node as GltfNode } from '@gltf-transform/core';
import type { SceneData, SceneMaterial } from '../scene/SceneData.js';
import { GltfTextures } from './GltfTextures.js';

/**
 * Writes a scene as a GLB (for previews, web and Android clients) from the same data the USDZ is
 * written from. Images pass through untouched, unless a material's channels must be repacked the
 * way glTF reads them ({@link GltfTextures}); element metadata goes into node `extras`; a node
 * drawing several meshes becomes one glTF mesh with one primitive each.
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
  return new NodeIO().writeBinary(doc);
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
