// What real producers put in USDZ packages beyond Pixar's fixtures, read as OpenUSD reads it:
// packages inside the package (Reality Composer Pro), file names with colons (Apple's RoomPlan),
// files of kinds no one loads beside the layers (an .obj, a GIF), and asset paths that name
// nothing (a Houdini shader's source, a texture left behind). Each fixture is built from what the
// real file does, not copied (see docs/USDZ-IN-THE-WILD.md for the packages themselves).
import { describe, expect, it } from 'vitest';
import { readUsdz } from '../src/index.js';
import { METRES_Y_UP, PNG_1X1, usdzOf } from './support/usdzOf.js';

const TRIANGLE = (name: string, x = 0) =>
  `def Mesh "${name}" {\n point3f[] points = [(${x},0,0), (${x + 1},0,0), (${x},1,0)]\n ` +
  `int[] faceVertexCounts = [3]\n int[] faceVertexIndices = [0, 1, 2]\n}\n`;

describe('USDZ packages as real producers write them', () => {
  it('a package inside the package, used as a layer: its root layer, its own relative paths resolved inside it', async () => {
    // As Reality Composer Pro nests a scene's assets: `0/example.usdz`, itself a package.
    const inner = usdzOf({
      'scene.usda': `${METRES_Y_UP}def Xform "World" (\n prepend references = @parts/part.usda@\n) {}\n`,
      'parts/part.usda': `${METRES_Y_UP}def Xform "World" {\n ${TRIANGLE('T', 5)}}\n`,
    });
    const outer = usdzOf({
      'root.usda':
        `${METRES_Y_UP}def Xform "World" {\n def "Nested" (\n  prepend references = @0/example.usdz@\n ` +
        `) {}\n def "Explicit" (\n  prepend references = @0/example.usdz[parts/part.usda]@\n ) {}\n}\n`,
      '0/example.usdz': inner,
    });
    const scene = await readUsdz(outer, { fileName: 'rcp.usdz' });
    expect(scene.stats.triangles).toBe(2);
    expect(scene.bounds.max[0]).toBe(6);
    expect(scene.warnings.find((w) => w.code === 'rewritten')?.message).toMatch(/layers/);
  });

  it("a package whose first entry is a package: its root layer is the stage's", async () => {
    const inner = usdzOf({ 'scene.usda': `${METRES_Y_UP}def Xform "World" {\n ${TRIANGLE('T')}}\n` });
    const scene = await readUsdz(usdzOf({ 'inner.usdz': inner }));
    expect(scene.stats.triangles).toBe(1);
  });

  it('a package three deep is refused by name, past the one level read', async () => {
    const deepest = usdzOf({ 'c.usda': `${METRES_Y_UP}def Xform "World" {\n ${TRIANGLE('T')}}\n` });
    const middle = usdzOf({ 'b.usda': `${METRES_Y_UP}def "World" (\n prepend references = @c.usdz@\n) {}\n`, 'c.usdz': deepest });
    const outer = usdzOf({ 'a.usda': `${METRES_Y_UP}def "A" (\n prepend references = @b.usdz@\n) {}\n`, 'b.usdz': middle });
    await expect(readUsdz(outer, { fileName: 'deep.usdz' })).rejects.toThrow(
      expect.objectContaining({ rule: 'unsupported_reference', message: expect.stringMatching(/one level of nesting is read/) }),
    );
  });

  it('a nested package is checked as any: an entry in it escaping it is refused', async () => {
    const inner = usdzOf({ 'scene.usda': `${METRES_Y_UP}${TRIANGLE('T')}`, '../escape.usda': 'x' });
    const outer = usdzOf({ 'root.usda': `${METRES_Y_UP}def "A" (\n prepend references = @in.usdz@\n) {}\n`, 'in.usdz': inner });
    await expect(readUsdz(outer, { fileName: 'o.usdz' })).rejects.toThrow(expect.objectContaining({ rule: 'entry_escapes_package' }));
  });

  it("packages inside the package share the package's unpacking limit: nested zip bombs stop at it", async () => {
    const { zipArchive } = await import('../../../test/support/zipArchive.js');
    // Each nested package is small and honest about itself, but together they unpack past the limit.
    const bomb = () =>
      zipArchive([
        { name: 'a.usda', data: new TextEncoder().encode(`${METRES_Y_UP}def Xform "World" {}\n`) },
        { name: 'pad.png', data: new Uint8Array(400_000), deflate: true },
      ]);
    const refs = [0, 1, 2, 3].map((i) => `def "N${i}" (\n prepend references = @n${i}.usdz@\n) {}\n`).join('');
    const outer = usdzOf({
      'root.usda': `${METRES_Y_UP}def Xform "World" {\n ${refs}}\n`,
      ...Object.fromEntries([0, 1, 2, 3].map((i) => [`n${i}.usdz`, bomb()])),
    });
    const { PackageLayers } = await import('@arsession/usd');
    const { checkUsdzPackage } = await import('../src/index.js');
    const layers = new PackageLayers(checkUsdzPackage(outer).entries, { label: 'bombs.usdz', maxUnpackedBytes: 1_000_000 });
    layers.open('n0.usdz', 'root.usda');
    expect(() => [1, 2, 3].forEach((i) => layers.open(`n${i}.usdz`, 'root.usda'))).toThrow(expect.objectContaining({ rule: 'too_large' }));
  });

  it('a texture path into a broken package inside the package is missing, not fatal', async () => {
    const text =
      `${METRES_Y_UP}def Xform "World" {\n ${TRIANGLE('T')} def Shader ` + `"S" {\n  asset inputs:file = @broken.usdz[t.png]@\n }\n}\n`;
    const scene = await readUsdz(usdzOf({ 'a.usda': text, 'broken.usdz': new Uint8Array([1, 2, 3, 4]) }));
    expect(scene.stats.triangles).toBe(1);
    expect(scene.warnings.map((w) => w.code)).toContain('assets_missing');
  });

  it('file names with colons (RoomPlan names its files by their time) are names, not URLs', async () => {
    const root = 'RoomPlan-2025-12-16T07:29:35Z-temp.usda';
    const scene = await readUsdz(
      usdzOf({
        [root]: `${METRES_Y_UP}def Xform "World" (\n prepend references = @./assets/Wall0:1.usda@\n) {}\n`,
        'assets/Wall0:1.usda': `${METRES_Y_UP}def Xform "World" {\n ${TRIANGLE('T')}}\n`,
      }),
    );
    expect(scene.stats.triangles).toBe(1);
  });

  it.each(['http://example.com/x.usda', 'file:x.usda', 'C:x.usda', 'data:text/plain,x'])(
    'a layer at %s is still outside the package',
    async (target) => {
      const outer = usdzOf({ 'a.usda': `${METRES_Y_UP}def "A" (\n prepend references = @${target}@\n) {}\n` });
      await expect(readUsdz(outer)).rejects.toThrow(expect.objectContaining({ rule: 'unencapsulated_reference' }));
    },
  );

  it('files of kinds no one loads beside the layers are left out, named, and the package rewritten', async () => {
    const scene = await readUsdz(
      usdzOf({
        'stool.usda': `${METRES_Y_UP}def Xform "World" {\n ${TRIANGLE('T')}}\n`,
        'stool.obj': 'v 0 0 0\n',
        'usd.gif': new Uint8Array([71, 73, 70]),
      }),
    );
    expect(scene.stats.triangles).toBe(1);
    expect(scene.warnings.find((w) => w.code === 'entries_left_out')?.message).toMatch(
      /2 package entries .* \(such as "stool\.obj"\) are not delivered/,
    );
    expect(scene.arkitPackage).toBeUndefined();
  });

  it('a file of such a kind used as a layer is refused, naming it', async () => {
    const outer = usdzOf({
      'a.usda': `${METRES_Y_UP}def "A" (\n prepend references = @model.glb@\n) {}\n`,
      'model.glb': new Uint8Array([103, 108, 84, 70]),
    });
    await expect(readUsdz(outer, { fileName: 'g.usdz' })).rejects.toThrow(/"model\.glb" is used as a layer but is not one/);
  });

  it("geometry compressed with Draco (a file format of OpenUSD's usdDraco plugin) is refused naming it", async () => {
    const outer = usdzOf({
      'a.usda': `${METRES_Y_UP}def "World" (\n prepend references = @a.usda.draco/mesh.drc@\n) {}\n`,
      'a.usda.draco/mesh.drc': new Uint8Array([68, 82, 65, 67, 79]),
    });
    await expect(readUsdz(outer, { fileName: 'draco.usdz' })).rejects.toThrow(/"a\.usda\.draco\/mesh\.drc" is Draco-compressed geometry/);
  });

  it(
    'asset paths that name nothing (the source of a shader, a texture ' + 'left behind) leave their inputs at their constants, named once',
    async () => {
      const text =
        `${METRES_Y_UP}def Xform "World" {\n def Mesh "M" (\n  prepend apiSchemas = ["MaterialBindingAPI"]\n ` +
        `) {\n  point3f[] points = [(0,0,0), (1,0,0), (0,1,0)]\n  int[] faceVertexCounts = ` +
        `[3]\n  int[] faceVertexIndices = [0, 1, 2]\n  rel material:binding = </World/Mat>\n }\n def ` +
        `Material "Mat" {\n  token outputs:surface.connect = </World/Mat/S.outputs:surface>\n  asset ` +
        `info:sourceAsset = @0/principledshader::2.0?SurfaceVexCode@\n  def Shader "S" {\n   uniform token ` +
        `info:id = "UsdPreviewSurface"\n   color3f inputs:diffuseColor.connect = </World/Mat/T.outputs:rgb>\n ` +
        `  token outputs:surface\n  }\n  def Shader "T" {\n   uniform token info:id = "UsdUVTexture"\n ` +
        `  asset inputs:file = @0/gradientMask.png@\n   float3 outputs:rgb\n  }\n }\n}\n`;
      const scene = await readUsdz(usdzOf({ 'water.usda': text, 'other.png': PNG_1X1 }));
      expect(scene.stats.triangles).toBe(1);
      expect(scene.materials[0]!.baseColorTexture).toBeUndefined();
      expect(scene.warnings.find((w) => w.code === 'assets_missing')?.message).toMatch(
        /^2 asset path\(s\) name nothing in the package \(such as "0\/principledshader::2\.0\?SurfaceVexCode"/,
      );
      expect(scene.arkitPackage).toBeUndefined();
    },
  );
});

describe('packages inside packages, corrupted', () => {
  it('any bytes changed or cut in a nested package are read or refused with a ConvertError, never anything else', async () => {
    const fc = (await import('fast-check')).default;
    const { ConvertError } = await import('../src/index.js');
    const inner = usdzOf({
      'scene.usda': `${METRES_Y_UP}def Xform "World" (\n prepend references = @parts/part.usda@\n) {}\n`,
      'parts/part.usda': `${METRES_Y_UP}def Xform "World" {\n ${TRIANGLE('T', 5)}}\n`,
      't.png': PNG_1X1,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(inner.length - 1), fc.nat(255)), { minLength: 1, maxLength: 6 }),
        fc.nat(inner.length),
        async (edits, cut) => {
          const broken = inner.slice(0, Math.max(1, cut));
          for (const [at, v] of edits) if (at < broken.length) broken[at] = v;
          const outer = usdzOf({
            'root.usda':
              `${METRES_Y_UP}def Xform "World" {\n def "N" (\n  prepend references = @in.usdz@\n ` +
              `) {}\n def Shader "S" {\n  asset inputs:file = @in.usdz[t.png]@\n }\n}\n`,
            'in.usdz': broken,
          });
          try {
            await readUsdz(outer, { fileName: 'fuzz.usdz' });
          } catch (err) {
            expect(err).toBeInstanceOf(ConvertError);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
