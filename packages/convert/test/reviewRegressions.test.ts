// Defects found in review, each pinned by the input that showed it.
import { Document, NodeIO } from '@gltf-transform/core';
import { EXTMeshGPUInstancing, KHRMaterialsEmissiveStrength, KHRTextureTransform } from '@gltf-transform/extensions';
import { describe, expect, it } from 'vitest';
import {
  checkMeshNodeLimit,
  convertModel,
  mergeByMaterial,
  ModelUnreadableError,
  readGlb,
  readUsdz,
  writeUsdz,
  zipStored,
  type SceneData,
} from '../src/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';
import { glbOf } from '../../../test/support/glbOf.js';
import { rawZipEntries } from '../../../test/support/usdReader.js';

function triangleDoc(): { doc: Document; prim: ReturnType<Document['createPrimitive']> } {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos = doc
    .createAccessor()
    .setType('VEC3')
    .setBuffer(buffer)
    .setArray(new Float32Array([0, 0, 0, 0.1, 0, 0, 0, 0.1, 0]));
  const uv = doc
    .createAccessor()
    .setType('VEC2')
    .setBuffer(buffer)
    .setArray(new Float32Array([0, 0, 1, 0, 0, 1]));
  return { doc, prim: doc.createPrimitive().setAttribute('POSITION', pos).setAttribute('TEXCOORD_0', uv) };
}
// The layer's content as our USDA renderer writes it (the same description the binary layer is written from).
const layerOf = (scene: SceneData) =>
  new TextDecoder().decode(rawZipEntries(new Uint8Array(Buffer.concat(writeUsdz(scene, { layerFormat: 'usda' }))))[0]!.data);

describe('review regressions', () => {
  it('instancing attributes that disagree on the count are refused (the limit cannot be dodged)', () => {
    const json = {
      asset: { version: '2.0' },
      accessors: [
        { count: 1, type: 'VEC3', componentType: 5126 },
        { count: 20000, type: 'VEC3', componentType: 5126 },
      ],
      nodes: [{ mesh: 0, extensions: { EXT_mesh_gpu_instancing: { attributes: { SCALE: 0, TRANSLATION: 1 } } } }],
    };
    expect(() => checkMeshNodeLimit(glbOf(json))).toThrow(/disagree on the instance count \(1 vs 20000\)/);
  });

  it('a tiny GLB cannot make the decoder allocate gigabytes', async () => {
    const json = { asset: { version: '2.0' }, accessors: [{ componentType: 5126, type: 'MAT4', count: 5e6 }] };
    await expect(readGlb(glbOf(json))).rejects.toThrow(/claim more than \d+ MiB/);
  });

  it('a buffer uri that is not a string is a typed refusal', async () => {
    const json = { asset: { version: '2.0' }, buffers: [{ byteLength: 4, uri: 5 }] };
    await expect(readGlb(glbOf(json))).rejects.toBeInstanceOf(ModelUnreadableError);
  });

  it('convertModel leaves the rest of a shared buffer alone (two files sliced from one body)', async () => {
    const a = corpusBytes('glb', 'Box.glb'),
      b = corpusBytes('glb', 'BoxTextured.glb');
    const body = new Uint8Array(a.length + b.length);
    body.set(a);
    body.set(b, a.length);
    const first = await convertModel(body.subarray(0, a.length));
    const second = await convertModel(body.subarray(a.length));
    expect(first.stats.triangles).toBe(12);
    expect(second.stats.textures).toBe(1);
    expect(Buffer.from(body.subarray(0, 4)).toString()).toBe('glTF');
  });

  it('children of an instanced node hang under the node, not under its last instance', async () => {
    const { doc, prim } = triangleDoc();
    const mesh = doc.createMesh().addPrimitive(prim);
    const t = doc
      .createAccessor()
      .setType('VEC3')
      .setBuffer(doc.getRoot().listBuffers()[0]!)
      .setArray(new Float32Array([0, 0, 0, 100, 0, 0]));
    const instancing = doc.createExtension(EXTMeshGPUInstancing).createInstancedMesh().setAttribute('TRANSLATION', t);
    const child = doc.createNode('child').setTranslation([0, 5, 0]).setMesh(mesh);
    const parent = doc.createNode('parent').setMesh(mesh).setExtension('EXT_mesh_gpu_instancing', instancing).addChild(child);
    doc.createScene().addChild(parent);
    const scene = await readGlb(await new NodeIO().registerExtensions([EXTMeshGPUInstancing]).writeBinary(doc));
    const childNode = scene.nodes.find((n) => n.name === 'child')!;
    expect(scene.nodes[childNode.parent]!.name).toBe('parent');
    expect(scene.bounds.max[1]).toBeCloseTo(5.1, 5); // child at y = 5, never at x = 100 + …
    expect(scene.bounds.max[0]).toBeCloseTo(100.1, 5);
  });

  it('BLEND materials keep texture alpha; emissive strength is applied; texture transforms are warned about', async () => {
    const { doc, prim } = triangleDoc();
    const png = corpusBytes('glb', 'BoxTextured.glb'); // any PNG will do: take BoxTextured's
    const image = (await new NodeIO().readBinary(png)).getRoot().listTextures()[0]!.getImage()!;
    const texture = doc.createTexture('t').setImage(image).setMimeType('image/png');
    const strength = doc.createExtension(KHRMaterialsEmissiveStrength).createEmissiveStrength().setEmissiveStrength(5);
    const transform = doc.createExtension(KHRTextureTransform).createTransform().setScale([10, 10]);
    const material = doc
      .createMaterial('glass')
      .setAlphaMode('BLEND')
      .setBaseColorTexture(texture)
      .setEmissiveFactor([0.2, 0.1, 0])
      .setExtension('KHR_materials_emissive_strength', strength);
    material.getBaseColorTextureInfo()!.setExtension('KHR_texture_transform', transform);
    prim.setMaterial(material);
    doc.createScene().addChild(doc.createNode('n').setMesh(doc.createMesh().addPrimitive(prim)));
    const io = new NodeIO().registerExtensions([KHRMaterialsEmissiveStrength, KHRTextureTransform]);
    const scene = await readGlb(await io.writeBinary(doc));
    expect(scene.materials[0]!.emissive.map((v) => Math.round(v * 100) / 100)).toEqual([1, 0.5, 0]);
    expect(scene.warnings.map((w) => w.code)).toContain('texture_transform_ignored');
    expect(layerOf(scene)).toMatch(/float inputs:opacity\.connect = <[^>]*BaseColorTexture\.outputs:a>/);
  });

  it('mesh prims and child Xforms of one parent never share a name', () => {
    const m = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    const tri = {
      name: 'Door_0',
      positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
      indices: new Uint32Array([0, 1, 2]),
      material: 0,
    };
    const scene: SceneData = {
      source: { format: 'glb' },
      nodes: [
        { name: 'Frame', parent: -1, matrix: m, meshes: [0], metadata: {} },
        { name: 'Door_0', parent: 0, matrix: m, meshes: [0], metadata: {} },
      ],
      meshes: [tri],
      materials: [{ name: 'm', baseColor: [1, 1, 1], opacity: 1, metallic: 0, roughness: 1, emissive: [0, 0, 0], doubleSided: false }],
      textures: [],
      offset: [0, 0, 0],
      bounds: { min: [0, 0, 0], max: [1, 1, 0] },
      stats: { nodes: 2, meshNodes: 2, meshes: 1, triangles: 2, vertices: 6, materials: 1, textures: 0 },
      warnings: [],
    };
    const names = [...layerOf(scene).matchAll(/^ {8}def (?:Mesh|Xform) "([^"]+)"/gm)].map((x) => x[1]);
    expect(names).toHaveLength(2);
    expect(new Set(names).size).toBe(2);
  });

  it('merging a georeferenced GLB keeps 10 cm parts 10 cm wide (re-centred in float64)', async () => {
    const { doc, prim } = triangleDoc();
    const mesh = doc.createMesh().addPrimitive(prim);
    const site = doc.createNode('site').setTranslation([4e6, 10, -3e6]);
    for (let i = 0; i < 400; i++)
      site.addChild(
        doc
          .createNode(`p${i}`)
          .setTranslation([i * 0.2, 0, 0])
          .setMesh(mesh),
      );
    doc.createScene().addChild(site);
    const merged = mergeByMaterial(await readGlb(await new NodeIO().writeBinary(doc)));
    expect(merged.offset[0]).toBeGreaterThan(3.9e6);
    expect(merged.warnings.map((w) => w.code)).toContain('recentred');
    const p = merged.meshes[0]!.positions;
    for (let t = 0; t < p.length; t += 9) expect(Math.abs(p[t + 3]! - p[t]! - 0.1)).toBeLessThan(1e-4);
  });

  it('an e-mail address in a USDZ doc string is not an asset reference', async () => {
    const layer = new TextEncoder().encode(
      '#usda 1.0\n(\n    doc = "by jane@example.com, reviewed by joe@example.com"\n ' +
        '   upAxis = "Y"\n    metersPerUnit = 1\n)\ndef Xform "A"\n{\n}\n',
    );
    const scene = await readUsdz(new Uint8Array(Buffer.concat(zipStored([{ name: 'a.usda', data: layer }]))));
    expect(scene.source.format).toBe('usdz');
  });
});
