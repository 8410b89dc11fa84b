import { NodeIO } from '@gltf-transform/core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readUsdz, writeGlb, writeUsdz, type SceneMaterial } from '../src/index.js';
import { readUsdzBack } from '../../../test/support/usdReader.js';
import { METRES_Y_UP, usdzOf } from './support/usdzOf.js';

/** A small PNG of one colour (RGBA), distinct per map so each map can be told apart. */
const png = (r: number, g: number, b: number, a = 255) =>
  sharp({ create: { width: 4, height: 4, channels: 4, background: { r, g, b, alpha: a / 255 } } })
    .png()
    .toBuffer();

const texture = (name: string, file: string, extra = '') => `
  def Shader "${name}" {
   uniform token info:id = "UsdUVTexture"
   asset inputs:file = @${file}@
   float2 inputs:st.connect = </World/Looks/M/Reader.outputs:result>
   token inputs:wrapS = "mirror"
   token inputs:wrapT = "clamp"
   ${extra}
   float3 outputs:rgb
   float outputs:r
   float outputs:g
   float outputs:b
   float outputs:a
  }`;

/** A material that uses every UsdPreviewSurface input a texture can feed, each from its own channel. */
const EVERY_MAP = `${METRES_Y_UP}def Xform "World" {
 def Mesh "Quad" (
  prepend apiSchemas = ["MaterialBindingAPI"]
 ) {
  point3f[] points = [(0,0,0), (1,0,0), (1,1,0), (0,1,0)]
  int[] faceVertexCounts = [4]
  int[] faceVertexIndices = [0,1,2,3]
  texCoord2f[] primvars:uv = [(0,0), (1,0), (1,1), (0,1)] (
   interpolation = "vertex"
  )
  rel material:binding = </World/Looks/M>
 }
 def Scope "Looks" {
  def Material "M" {
   token inputs:uvSet = "uv"
   token outputs:surface.connect = </World/Looks/M/Graph.outputs:surface>
   def NodeGraph "Graph" {
    token outputs:surface.connect = </World/Looks/M/Surface.outputs:surface>
   }
   def Shader "Surface" {
    uniform token info:id = "UsdPreviewSurface"
    color3f inputs:diffuseColor.connect = </World/Looks/M/Base.outputs:rgb>
    float inputs:opacity.connect = </World/Looks/M/Opacity.outputs:a>
    float inputs:metallic.connect = </World/Looks/M/Orm.outputs:b>
    float inputs:roughness.connect = </World/Looks/M/Orm.outputs:g>
    float inputs:occlusion.connect = </World/Looks/M/Orm.outputs:r>
    color3f inputs:emissiveColor.connect = </World/Looks/M/Emissive.outputs:rgb>
    normal3f inputs:normal.connect = </World/Looks/M/Normal.outputs:rgb>
    token outputs:surface
   }
   def Shader "Reader" {
    uniform token info:id = "UsdPrimvarReader_float2"
    token inputs:varname.connect = </World/Looks/M.inputs:uvSet>
    float2 outputs:result
   }
   ${texture('Base', 'tex/base.png', 'float4 inputs:scale = (0.5, 0.5, 0.5, 1)')}
   ${texture('Opacity', 'tex/opacity.png')}
   ${texture('Orm', 'tex/orm.png', 'float4 inputs:scale = (1, 0.8, 0.6, 1)')}
   ${texture('Emissive', 'tex/emissive.png')}
   ${texture('Normal', 'tex/normal.png', 'float4 inputs:scale = (2, 2, 2, 1)\n   float4 inputs:bias = (-1, -1, -1, 0)')}
  }
 }
}
`;

const everyMapPackage = async () =>
  usdzOf({
    'scene.usda': EVERY_MAP,
    'tex/base.png': await png(200, 100, 50),
    'tex/opacity.png': await png(0, 0, 0, 128),
    'tex/orm.png': await png(255, 128, 64),
    'tex/emissive.png': await png(10, 20, 30),
    'tex/normal.png': await png(128, 128, 255),
  });

const mapsOf = (m: SceneMaterial) => ({
  base: m.baseColorTexture !== undefined,
  normal: m.normalTexture !== undefined,
  emissive: m.emissiveTexture !== undefined,
  metallic: m.metallicTexture?.channel,
  roughness: m.roughnessTexture?.channel,
  occlusion: m.occlusionTexture?.channel,
  opacity: m.opacityTexture?.channel,
});

describe('UsdPreviewSurface materials', () => {
  it('every input a texture can feed is read, with its channel, factor, wrap and UV set', async () => {
    const scene = await readUsdz(await everyMapPackage());
    expect(scene.materials).toHaveLength(1);
    const m = scene.materials[0]!;
    expect(mapsOf(m)).toEqual({ base: true, normal: true, emissive: true, metallic: 'b', roughness: 'g', occlusion: 'r', opacity: 'a' });
    expect(m.baseColor).toEqual([0.5, 0.5, 0.5]);
    expect(m.metallic).toBeCloseTo(0.6, 6);
    expect(m.roughness).toBeCloseTo(0.8, 6);
    expect(m.normalTexture!.scale).toBe(1);
    expect(m.baseColorTexture!.wrap).toEqual(['mirror', 'clamp']);
    // One ORM image feeds three inputs: read once.
    expect(scene.textures).toHaveLength(5);
    expect(m.metallicTexture!.texture).toBe(m.roughnessTexture!.texture);
    // The UV set named through the Material's interface input is the one read.
    expect(Array.from(scene.meshes[0]!.uvs!)).toEqual([0, 1, 1, 1, 1, 0, 0, 0]);
  });

  it('survive a conversion: our USDZ connects every input again, as an independent reader sees it, and reads back the same', async () => {
    const scene = await readUsdz(await everyMapPackage());
    const written = new Uint8Array(Buffer.concat(writeUsdz(scene)));
    const back = await readUsdz(written);
    expect(mapsOf(back.materials[0]!)).toEqual(mapsOf(scene.materials[0]!));
    for (const key of ['baseColor', 'metallic', 'roughness', 'opacity', 'emissive'] as const)
      expect(back.materials[0]![key]).toEqual(scene.materials[0]![key]);
    const { text } = await readUsdzBack(written);
    for (const input of ['diffuseColor', 'opacity', 'metallic', 'roughness', 'occlusion', 'emissiveColor', 'normal']) {
      expect(text, input).toMatch(new RegExp(`inputs:${input}\\.connect = </[^>]+\\.outputs:(rgb|r|g|b|a)>`));
    }
  });

  it('survive a conversion to GLB: channels moved where glTF reads them', async () => {
    const scene = await readUsdz(await everyMapPackage());
    const doc = await new NodeIO().readBinary(await writeGlb(scene));
    const m = doc.getRoot().listMaterials()[0]!;
    expect(m.getAlphaMode()).toBe('BLEND');
    for (const t of [
      m.getBaseColorTexture(),
      m.getNormalTexture(),
      m.getOcclusionTexture(),
      m.getEmissiveTexture(),
      m.getMetallicRoughnessTexture(),
    ])
      expect(t).not.toBeNull();
    // The opacity image's alpha (128) is now the base colour's alpha; its colour is the base image's.
    const { data } = await sharp(m.getBaseColorTexture()!.getImage()!).raw().toBuffer({ resolveWithObject: true });
    expect([data[0], data[1], data[2], data[3]]).toEqual([200, 100, 50, 128]);
    // ORM laid out as glTF has it already: passed through untouched.
    const orm = await sharp(m.getMetallicRoughnessTexture()!.getImage()!).raw().toBuffer();
    expect([orm[1], orm[2]]).toEqual([128, 64]);
  });

  it('a texture that is not PNG or JPEG leaves its input at the constant, with a warning', async () => {
    const text = EVERY_MAP.replace('tex/emissive.png', 'tex/emissive.exr');
    const scene = await readUsdz(
      usdzOf({
        'scene.usda': text,
        'tex/base.png': await png(1, 2, 3),
        'tex/opacity.png': await png(0, 0, 0),
        'tex/orm.png': await png(1, 1, 1),
        'tex/emissive.exr': new Uint8Array([0x76, 0x2f, 0x31, 0x01]),
        'tex/normal.png': await png(128, 128, 255),
      }),
    );
    expect(scene.materials[0]!.emissiveTexture).toBeUndefined();
    expect(scene.warnings.find((w) => w.code === 'texture_dropped')?.message).toMatch(/tex\/emissive\.exr/);
  });

  it('a TGA texture (as Blender packs them) arrives as a PNG of the same pixels, and the package is delivered rewritten', async () => {
    // 2×1 true-colour, bottom-left origin: BGR pixels (left red-ish, right blue-ish).
    const tga = Uint8Array.from([0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 24, 0, 10, 20, 200, 220, 30, 5]);
    const text = EVERY_MAP.replace('tex/orm.png', '0/roughness.tga');
    const scene = await readUsdz(
      usdzOf({
        'scene.usda': text,
        'tex/base.png': await png(1, 2, 3),
        'tex/opacity.png': await png(0, 0, 0),
        '0/roughness.tga': tga,
        'tex/emissive.png': await png(9, 9, 9),
        'tex/normal.png': await png(128, 128, 255),
      }),
      { fileName: 'blender.usdz' },
    );
    const m = scene.materials[0]!;
    expect(m.roughnessTexture?.channel).toBe('g');
    const texture = scene.textures[m.roughnessTexture!.texture]!;
    expect(texture.mimeType).toBe('image/png');
    const { data, info } = await sharp(texture.data).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([2, 1, 3]);
    expect(Array.from(data)).toEqual([200, 20, 10, 5, 30, 220]);
    expect(scene.warnings.find((w) => w.code === 'texture_transcoded_tga')?.message).toMatch(/0\/roughness\.tga/);
    expect(scene.arkitPackage).toBeUndefined();
    expect(scene.warnings.find((w) => w.code === 'rewritten')?.message).toMatch(
      /0\/roughness\.tga is neither a USD layer nor a PNG or JPEG image/,
    );
  });

  it('a TGA texture that cannot be decoded is named, and its input keeps its constant', async () => {
    const text = EVERY_MAP.replace('tex/orm.png', 'tex/orm.tga');
    const scene = await readUsdz(
      usdzOf({
        'scene.usda': text,
        'tex/base.png': await png(1, 2, 3),
        'tex/opacity.png': await png(0, 0, 0),
        'tex/orm.tga': new Uint8Array([0, 0, 2, 0, 0]),
        'tex/emissive.png': await png(9, 9, 9),
        'tex/normal.png': await png(128, 128, 255),
      }),
    );
    expect(scene.materials[0]!.roughnessTexture).toBeUndefined();
    expect(scene.warnings.find((w) => w.code === 'texture_unreadable')?.message).toMatch(
      /tex\/orm\.tga cannot be decoded \(it has 5 bytes, fewer than a TGA header\)/,
    );
  });

  it('bindings: the nearest wins, a collection binding before a direct one, strongerThanDescendants over all', async () => {
    const material = (name: string, rgb: string) =>
      `def Material "${name}" {\n token outputs:surface.connect = </Looks/${name}/S.outputs:surface>\n def Shader "S" {\n ` +
      `uniform token info:id = "UsdPreviewSurface"\n color3f inputs:diffuseColor = (${rgb})\n token outputs:surface\n }\n}`;
    const quad = (name: string, binding = '') =>
      `def Mesh "${name}" (\n prepend apiSchemas = ["MaterialBindingAPI"]\n) {\n point3f[] points = ` +
      `[(0,0,0),(1,0,0),(1,1,0)]\n int[] faceVertexCounts = [3]\n int[] faceVertexIndices = [0,1,2]\n ${binding}\n}`;
    const scene = await sceneWith(`def Scope "Looks" {
${material('Red', '1, 0, 0')}\n${material('Blue', '0, 0, 1')}\n${material('Green', '0, 1, 0')}\n}
def Xform "A" (\n prepend apiSchemas = ["MaterialBindingAPI", "CollectionAPI:picked"]\n) {
 rel material:binding = </Looks/Red>
 rel collection:picked:includes = [</A/ByCollection>]
 rel material:binding:collection:preview:pick = [</A.collection:picked>, </Looks/Blue>]
 ${quad('Inherited')}
 ${quad('Own', 'rel material:binding = </Looks/Green>')}
 ${quad('ByCollection')}
}
def Xform "B" (\n prepend apiSchemas = ["MaterialBindingAPI"]\n) {
 rel material:binding = </Looks/Red> (\n bindMaterialAs = "strongerThanDescendants"\n )
 ${quad('Overridden', 'rel material:binding = </Looks/Green>')}
}`);
    const colourOf = (mesh: string) => {
      const node = scene.nodes.find((n) => n.name === mesh)!;
      return scene.materials[scene.meshes[node.meshes[0]!]!.material]!.name;
    };
    expect([colourOf('Inherited'), colourOf('Own'), colourOf('ByCollection'), colourOf('Overridden')]).toEqual([
      'Red',
      'Green',
      'Blue',
      'Red',
    ]);
  });
});

function sceneWith(body: string) {
  return readUsdz(usdzOf({ 'scene.usda': `${METRES_Y_UP}${body}` }));
}
