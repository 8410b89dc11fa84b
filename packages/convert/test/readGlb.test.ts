import { Document, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ModelUnreadableError, readGlb } from '../src/index.js';
import { corpusBytes, corpusFiles } from '../../../test/support/corpus.js';
import { rewriteGlbJson as rewriteJson } from '../../../test/support/rewriteGlbJson.js';

describe('readGlb on the corpus', () => {
  it.each(corpusFiles('glb'))('%s reads into consistent scene data', async (name) => {
    const scene = await readGlb(corpusBytes('glb', name), { fileName: name });
    expect(scene.source.format).toBe('glb');
    expect(scene.stats.triangles).toBeGreaterThan(0);
    for (const mesh of scene.meshes) {
      expect(mesh.indices.length % 3).toBe(0);
      const vertices = mesh.positions.length / 3;
      expect(Math.max(...mesh.indices)).toBeLessThan(vertices);
      if (mesh.normals) expect(mesh.normals.length).toBe(mesh.positions.length);
      if (mesh.uvs) expect(mesh.uvs.length).toBe(vertices * 2);
      expect(mesh.material).toBeLessThan(scene.materials.length);
      expect(mesh.positions.every(Number.isFinite)).toBe(true);
    }
    scene.nodes.forEach((n, i) => expect(n.parent).toBeLessThan(i));
    for (const b of [...scene.bounds.min, ...scene.bounds.max]) expect(Number.isFinite(b)).toBe(true);
  });

  it('decodes meshopt + quantization to the same geometry as the plain helmet', async () => {
    const plain = await readGlb(corpusBytes('glb', 'DamagedHelmet.glb'));
    const meshopt = await readGlb(corpusBytes('glb', 'DamagedHelmet-meshopt.glb'));
    expect(meshopt.stats.triangles).toBe(plain.stats.triangles);
    expect(meshopt.stats.triangles).toBe(15452);
    for (let k = 0; k < 3; k++) {
      // Quantization moves vertices by well under a millimetre on a helmet this size.
      expect(Math.abs(meshopt.bounds.min[k]! - plain.bounds.min[k]!)).toBeLessThan(2e-3);
      expect(Math.abs(meshopt.bounds.max[k]! - plain.bounds.max[k]!)).toBeLessThan(2e-3);
    }
    expect(meshopt.textures).toHaveLength(5);
  });

  it('decodes Draco', async () => {
    const s = await readGlb(corpusBytes('glb', 'Avocado-Draco.glb'));
    expect(s.stats.triangles).toBeGreaterThan(500);
    expect(s.meshes[0]!.uvs).toBeDefined();
    expect(s.textures.map((t) => t.mimeType)).toEqual(['image/png', 'image/png', 'image/png']);
  });

  it('expands 125 instances into 125 mesh nodes', async () => {
    const s = await readGlb(corpusBytes('glb', 'SimpleInstancing.glb'));
    expect(s.stats.meshNodes).toBe(125);
    expect(s.warnings.map((w) => w.code)).toContain('instancing_expanded');
    // Instances are spread out: bounds cover far more than one cube.
    expect(s.bounds.max[0]! - s.bounds.min[0]!).toBeGreaterThan(10);
  });

  it('reduces skins and morphs to the rest pose, with warnings, never silently', async () => {
    const man = await readGlb(corpusBytes('glb', 'CesiumMan.glb'));
    expect(man.warnings.map((w) => w.code)).toEqual(expect.arrayContaining(['skin_rest_pose', 'animation_dropped']));
    // Standing figure, feet on the ground, about 1.5 m tall, Y-up.
    expect(man.bounds.min[1]).toBeCloseTo(0, 1);
    expect(man.bounds.max[1]! - man.bounds.min[1]!).toBeGreaterThan(1.3);
    const cube = await readGlb(corpusBytes('glb', 'AnimatedMorphCube.glb'));
    expect(cube.warnings.map((w) => w.code)).toContain('morph_rest_pose');
  });

  it('transcodes KTX2 (Basis) textures to PNGs of their full size, with no warning', async () => {
    const bytes = corpusBytes('glb', 'AnisotropyBarnLamp-KTX2.glb');
    const doc = await new NodeIO().registerExtensions(ALL_EXTENSIONS).readBinary(bytes);
    const sources = doc.getRoot().listTextures();
    expect(sources.map((t) => t.getMimeType())).toEqual(sources.map(() => 'image/ktx2'));
    const lamp = await readGlb(bytes);
    expect(lamp.warnings.map((w) => w.code).filter((c) => c.startsWith('texture'))).toEqual([]);
    // Every KTX2 image a material uses arrives as a PNG the size its KTX2 header states.
    const used = new Set(
      doc
        .getRoot()
        .listMaterials()
        .flatMap((m) => [
          m.getBaseColorTexture(),
          m.getNormalTexture(),
          m.getMetallicRoughnessTexture(),
          m.getOcclusionTexture(),
          m.getEmissiveTexture(),
        ])
        .filter((t) => t !== null),
    );
    expect(lamp.textures).toHaveLength(used.size);
    const headerSizes = [...used]
      .map((t) => {
        const v = new DataView(t!.getImage()!.buffer, t!.getImage()!.byteOffset);
        return `${v.getUint32(20, true)}x${v.getUint32(24, true)}`;
      })
      .sort();
    const pngSizes = [];
    for (const t of lamp.textures) {
      expect(t.mimeType).toBe('image/png');
      const { data, info } = await sharp(t.data).raw().toBuffer({ resolveWithObject: true });
      pngSizes.push(`${info.width}x${info.height}`);
      // A real picture, not a blank: its pixels vary.
      let min = 255,
        max = 0;
      for (let i = 0; i < data.length; i += 97) {
        min = Math.min(min, data[i]!);
        max = Math.max(max, data[i]!);
      }
      expect(max - min).toBeGreaterThan(16);
    }
    expect(pngSizes.sort()).toEqual(headerSizes);
    expect(lamp.materials.some((m) => m.baseColorTexture !== undefined && m.normalTexture !== undefined)).toBe(true);
  });

  it('refuses a KTX2 texture that does not decode, naming it', async () => {
    const doc = await new NodeIO().registerExtensions(ALL_EXTENSIONS).readBinary(corpusBytes('glb', 'AnisotropyBarnLamp-KTX2.glb'));
    const texture = doc.getRoot().listTextures()[0]!;
    const broken = texture.getImage()!.slice();
    broken.fill(0x5a, 200); // the level data after the header and indexes
    texture.setImage(broken);
    const bytes = await new NodeIO().registerExtensions(ALL_EXTENSIONS).writeBinary(doc);
    await expect(readGlb(bytes, { fileName: 'lamp.glb' })).rejects.toThrow(/lamp\.glb: a texture cannot be decoded \(KTX2 texture/);
  });

  it('passes PNG and JPEG bytes through untouched', async () => {
    const helmet = await readGlb(corpusBytes('glb', 'DamagedHelmet.glb'));
    const doc = await new NodeIO().readBinary(corpusBytes('glb', 'DamagedHelmet.glb'));
    const originals = doc
      .getRoot()
      .listTextures()
      .map((t) => t.getImage()!);
    for (const t of helmet.textures) expect(originals.some((o) => Buffer.from(o).equals(Buffer.from(t.data)))).toBe(true);
  });

  it('bakes a mirrored node and keeps its faces the right way out', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const pos = doc
      .createAccessor()
      .setType('VEC3')
      .setBuffer(buffer)
      .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    const nrm = doc
      .createAccessor()
      .setType('VEC3')
      .setBuffer(buffer)
      .setArray(new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]));
    const prim = doc.createPrimitive().setAttribute('POSITION', pos).setAttribute('NORMAL', nrm);
    const node = doc.createNode('mirror').setScale([-1, 1, 1]).setMesh(doc.createMesh().addPrimitive(prim));
    doc.createScene().addChild(node);
    const bytes = await new NodeIO().writeBinary(doc);
    const s = await readGlb(bytes);
    const mesh = s.meshes[0]!;
    const p = mesh.positions,
      [a, b, c] = mesh.indices;
    expect(p[3]).toBe(-1); // baked: x mirrored
    const e1 = [p[b! * 3]! - p[a! * 3]!, p[b! * 3 + 1]! - p[a! * 3 + 1]!],
      e2 = [p[c! * 3]! - p[a! * 3]!, p[c! * 3 + 1]! - p[a! * 3 + 1]!];
    const faceZ = e1[0]! * e2[1]! - e1[1]! * e2[0]!;
    // The winding's face normal agrees with the vertex normal (+z) after mirroring.
    expect(Math.sign(faceZ)).toBe(Math.sign(mesh.normals![2]!));
    expect(s.warnings.map((w) => w.code)).toContain('mirrored_node_baked');
  });

  it('refuses a GLB whose binary chunk is cut short, as ModelUnreadableError', async () => {
    const bytes = corpusBytes('glb', 'Box.glb');
    const truncated = bytes.subarray(0, bytes.length - 100);
    new DataView(truncated.buffer, truncated.byteOffset).setUint32(8, truncated.length, true);
    await expect(readGlb(truncated, { fileName: 'Box.glb' })).rejects.toThrow(ModelUnreadableError);
    await expect(readGlb(truncated, { fileName: 'Box.glb' })).rejects.toThrow(/chunk declares \d+ bytes but only \d+ remain/);
  });

  it.each([
    [
      'an accessor count larger than its data',
      (j: any) => {
        j.accessors[0].count = 10_000;
      },
      /accessor 0 claims 10000 elements/,
    ],
    [
      'a buffer larger than the binary chunk',
      (j: any) => {
        j.buffers[0].byteLength = 1e9;
      },
      /declares 1000000000 bytes but the binary chunk holds/,
    ],
    [
      'a bufferView past its buffer',
      (j: any) => {
        j.bufferViews[0].byteOffset = 1e6;
      },
      /bufferView 0 .* runs past the end of buffer 0/,
    ],
    [
      'an external buffer',
      (j: any) => {
        j.buffers[0].uri = '../../etc/passwd';
      },
      /external file/,
    ],
    [
      'an accessor pointing at a missing view',
      (j: any) => {
        j.accessors[0].bufferView = 99;
      },
      /bufferView 99, which does not exist/,
    ],
  ])('refuses a GLB whose JSON lies: %s', async (_, lie, why) => {
    const bytes = rewriteJson(corpusBytes('glb', 'Box.glb'), lie);
    await expect(readGlb(bytes, { fileName: 'Box.glb' })).rejects.toThrow(why);
  });

  it.each([
    [
      'a material whose base colour texture does not exist',
      (j: any) => {
        j.materials[0].pbrMetallicRoughness.baseColorTexture.index = 7;
      },
      /material 0 \(baseColorTexture\) uses texture 7, which does not exist \(the file has 1\)/,
    ],
    [
      "an extension's texture slot that does not exist",
      (j: any) => {
        j.materials[0].extensions = { KHR_materials_clearcoat: { clearcoatTexture: { index: 3 } } };
      },
      /material 0 \(clearcoatTexture\) uses texture 3/,
    ],
    [
      'a texture whose image does not exist',
      (j: any) => {
        j.textures[0].source = 4;
      },
      /texture 0 uses image 4, which does not exist \(the file has 1\)/,
    ],
    [
      'a texture whose sampler does not exist',
      (j: any) => {
        j.textures[0].sampler = 2;
      },
      /texture 0 uses sampler 2/,
    ],
    [
      'no textures at all, but a material names one',
      (j: any) => {
        delete j.textures;
      },
      /material 0 \(baseColorTexture\) uses texture 0, which does not exist \(the file has 0\)/,
    ],
  ])('refuses a textured GLB whose JSON points at nothing, naming the reference: %s', async (_, lie, why) => {
    const bytes = rewriteJson(corpusBytes('glb', 'BoxTextured.glb'), lie);
    await expect(readGlb(bytes, { fileName: 'Box.glb' })).rejects.toThrow(why);
  });
});

describe('readGlb and what a GLB only carries along', () => {
  it("an application's extras that look like a texture slot are its own data, not a reference", async () => {
    const bytes = rewriteJson(corpusBytes('glb', 'BoxTextured.glb'), (j: any) => {
      j.materials[0].extras = { bakedTexture: { index: 99 } };
    });
    const scene = await readGlb(bytes, { fileName: 'extras.glb' });
    expect(scene.textures).toHaveLength(1);
  });
});

describe('readGlb transcodes WebP', () => {
  it('a WebP texture becomes a PNG of the same size, with a warning', async () => {
    const { default: sharp } = await import('sharp');
    const { EXTTextureWebP } = await import('@gltf-transform/extensions');
    const source = await new NodeIO().readBinary(corpusBytes('glb', 'BoxTextured.glb'));
    const png = source.getRoot().listTextures()[0]!.getImage()!;
    const meta = await sharp(png).metadata();
    const webp = await sharp(png).webp({ lossless: true }).toBuffer();
    source.createExtension(EXTTextureWebP).setRequired(true);
    source.getRoot().listTextures()[0]!.setImage(new Uint8Array(webp)).setMimeType('image/webp');
    const bytes = await new NodeIO().registerExtensions([EXTTextureWebP]).writeBinary(source);
    const scene = await readGlb(bytes);
    expect(scene.textures.map((t) => t.mimeType)).toEqual(['image/png']);
    const out = await sharp(scene.textures[0]!.data).metadata();
    expect([out.format, out.width, out.height]).toEqual(['png', meta.width, meta.height]);
    expect(scene.warnings.map((w) => w.code)).toContain('texture_transcoded_webp');
  });
});
