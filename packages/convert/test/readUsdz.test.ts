import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkUsdzPackage,
  ConvertError,
  convertModel,
  ModelUnreadableError,
  readGlb,
  readIfc,
  readUsdz,
  UsdzPackageError,
  writeUsdz,
  zipStored,
} from '../src/index.js';
import { tessellateCapsule, tessellateCube, tessellateCylinder, tessellateSphere } from '@arsession/usd';
import { corpusBytes, corpusFiles } from '../../../test/support/corpus.js';
import { rawZipEntries, readUsdzBack } from '../../../test/support/usdReader.js';
import { zipArchive } from '../../../test/support/zipArchive.js';

const refusal = async (bytes: Uint8Array) =>
  readUsdz(bytes, { fileName: 'x.usdz' }).then(
    () => undefined,
    (e: unknown) => e,
  );

/** Triangles of each implicit shape at USD's fallback sizes, as our tessellation makes them. */
const SHAPE_TRIANGLES: Record<string, number> = {
  Sphere: tessellateSphere(1).indices.length / 3,
  Cube: tessellateCube(2).indices.length / 3,
  Cylinder: tessellateCylinder(1, 1, 2, 'Z').indices.length / 3,
  Cone: tessellateCylinder(1, 0, 2, 'Z').indices.length / 3,
  Capsule: tessellateCapsule(0.5, 1, 'Z').indices.length / 3,
};

describe('readUsdz on the Pixar checker fixtures and three.js exports', () => {
  // What each fixture breaks, from MANIFEST.md; the rule our checker names for it.
  const refused: Record<string, string> = {
    'bad_alembic.usdz': 'first_entry_not_usd',
    'bad_refAbc.usdz': 'unsupported_reference',
    'bad_unencapsulated_layer.usdz': 'unencapsulated_reference',
    'first_file_not_usd.usdz': 'first_entry_not_usd',
  };
  // Read, but rewritten on delivery, for what the manifest says they break. A file of a kind no one
  // loads, or an asset outside the package, does not stop OpenUSD from opening the stage, nor us.
  const rewritten: Record<string, RegExp> = {
    'bad_badUsdz.usdz': /compressed and misaligned/,
    'bad_badExtension_arkit.usdz': /is not a \.usdc file/,
    'bad_unknownfile.usdz': /unknownfile is neither a USD layer nor a PNG or JPEG image/,
    'bad_unencapsulated_asset.usdz': /asset paths name nothing in the package/,
  };

  it('covers every USDZ in the corpus', () => {
    for (const name of corpusFiles('usdz')) {
      expect(name in refused || name in rewritten || /^(clean_|single_|simpleMaterial|three-)/.test(name), name).toBe(true);
    }
  });

  it.each(Object.entries(refused))('%s is refused naming the rule %s', async (name, rule) => {
    const err = await refusal(corpusBytes('usdz', name));
    expect(err).toBeInstanceOf(UsdzPackageError);
    expect((err as UsdzPackageError).rule).toBe(rule);
    expect((err as Error).message).toContain('x.usdz');
  });

  it.each(Object.entries(rewritten))('%s is read, and rewritten for delivery (%s)', async (name, why) => {
    const scene = await readUsdz(corpusBytes('usdz', name));
    expect(scene.arkitPackage).toBeUndefined();
    expect(scene.warnings.find((w) => w.code === 'rewritten')?.message).toMatch(why);
  });

  it.each(corpusFiles('usdz').filter((n) => n.startsWith('clean_')))(
    '%s: every shape drawn at its fallback size, in centimetres',
    async (name) => {
      const bytes = corpusBytes('usdz', name);
      const scene = await readUsdz(bytes);
      // The shapes an independent reader finds in the composed layers (TinyUSDZ lists prims per layer).
      const entries = rawZipEntries(bytes).filter((e) => /\.usd[ac]?$/.test(e.name));
      const shapes = new Map<string, string>();
      for (const e of entries) {
        const { prims } = await readUsdzBack(new Uint8Array(Buffer.concat(zipStored([{ name: e.name, data: e.data }]))));
        for (const p of prims) if (p.type in SHAPE_TRIANGLES) shapes.set(p.path, p.type);
      }
      expect(shapes.size).toBeGreaterThan(0);
      expect(scene.stats.triangles).toBe([...shapes.values()].reduce((n, type) => n + SHAPE_TRIANGLES[type]!, 0));
      // Every fallback shape spans [−1, 1] in stage units along Z and X; across its ring (Y) the round
      // ones reach sin 72°, as OpenUSD draws them, the cube 1. The stages are in centimetres.
      const y = [...shapes.values()].includes('Cube') ? 0.01 : +(0.01 * Math.sin((2 * Math.PI) / 5)).toFixed(6);
      expect(scene.bounds.min.map((v) => +v.toFixed(6))).toEqual([-0.01, -y, -0.01]);
      expect(scene.bounds.max.map((v) => +v.toFixed(6))).toEqual([0.01, y, 0.01]);
    },
  );

  it('clean_clean_arkit meets every ARKit rule: delivered byte for byte as uploaded', async () => {
    const bytes = corpusBytes('usdz', 'clean_clean_arkit.usdz');
    const scene = await readUsdz(bytes);
    expect(scene.arkitPackage?.repacked).toBe(false);
    expect(Buffer.from(scene.arkitPackage!.bytes).equals(Buffer.from(bytes))).toBe(true);
    const result = await convertModel(bytes.slice(), { fileName: 'clean_arkit.usdz' });
    expect(result.delivery).toBe('as_uploaded');
    expect(Buffer.from(result.usdz!).equals(Buffer.from(bytes))).toBe(true);
    expect(result.stats.triangles).toBe(scene.stats.triangles);
  });

  it('a compliant package that is only compressed is repacked, its entries untouched', async () => {
    const entries = rawZipEntries(corpusBytes('usdz', 'clean_clean_arkit.usdz'));
    const deflated = zipArchive(entries.map((e) => ({ name: e.name, data: e.data, deflate: true })));
    const scene = await readUsdz(deflated);
    expect(scene.arkitPackage?.repacked).toBe(true);
    expect(
      rawZipEntries(scene.arkitPackage!.bytes).map((e) => [e.name, e.method, e.dataOffset % 64, Buffer.from(e.data).toString('hex')]),
    ).toEqual(entries.map((e) => [e.name, 0, 0, Buffer.from(e.data).toString('hex')]));
    expect(scene.warnings.map((w) => w.code)).toContain('repacked');
  });

  it('a compliant package whose only fault is alignment is repacked, its entries untouched', async () => {
    const entries = rawZipEntries(corpusBytes('usdz', 'clean_clean_arkit.usdz'));
    // Stored, but packed with no padding: the data of some entry no longer starts on a 64-byte boundary.
    const packed = zipArchive(entries.map((e) => ({ name: e.name, data: e.data })));
    expect(rawZipEntries(packed).some((e) => e.dataOffset % 64 !== 0)).toBe(true);
    expect(rawZipEntries(packed).every((e) => e.method === 0)).toBe(true);
    const scene = await readUsdz(packed);
    expect(scene.arkitPackage?.repacked).toBe(true);
    expect(
      rawZipEntries(scene.arkitPackage!.bytes).map((e) => [e.name, e.method, e.dataOffset % 64, Buffer.from(e.data).toString('hex')]),
    ).toEqual(entries.map((e) => [e.name, 0, 0, Buffer.from(e.data).toString('hex')]));
    const result = await convertModel(packed.slice(), { fileName: 'packed.usdz' });
    expect(result.delivery).toBe('repacked');
  });

  it.each(corpusFiles('usdz').filter((n) => n.startsWith('single_')))("%s: an empty stage, read with USD's fallbacks", async (name) => {
    const scene = await readUsdz(corpusBytes('usdz', name));
    expect(scene.stats.triangles).toBe(0);
    expect(scene.warnings.map((w) => w.code)).toEqual(expect.arrayContaining(['stage_defaults', 'no_geometry']));
    expect(scene.arkitPackage).toBeUndefined();
  });

  it("simpleMaterial: a textured quad 8.6 m × 2.9 m (centimetres by USD's fallback), its UV set named through the material", async () => {
    const scene = await readUsdz(corpusBytes('usdz', 'simpleMaterial.usdz'));
    expect(scene.stats.triangles).toBe(2);
    expect(scene.textures.map((t) => t.mimeType)).toEqual(['image/png']);
    expect(scene.materials[0]!.baseColorTexture).toBeDefined();
    expect(scene.materials[0]!.roughness).toBeCloseTo(0.4, 6);
    expect(scene.bounds.max.map((v) => +v.toFixed(6))).toEqual([4.3, 1.45, 0]);
    expect(scene.meshes[0]!.uvs).toBeDefined();
  });

  it.each([
    ['three-DamagedHelmet.usdz', 'DamagedHelmet.glb'],
    ['three-CesiumMan.usdz', 'CesiumMan.glb'],
  ])('%s (three.js export, geometry in referenced layers) has the geometry of %s', async (usdz, glb) => {
    const fromUsdz = await readUsdz(corpusBytes('usdz', usdz));
    const fromGlb = await readGlb(corpusBytes('glb', glb));
    expect(fromUsdz.stats.triangles).toBe(fromGlb.stats.triangles);
    for (let k = 0; k < 3; k++) {
      expect(fromUsdz.bounds.min[k]).toBeCloseTo(fromGlb.bounds.min[k]!, 3);
      expect(fromUsdz.bounds.max[k]).toBeCloseTo(fromGlb.bounds.max[k]!, 3);
    }
    expect(fromUsdz.textures.length).toBeGreaterThan(0);
  });

  it.each([
    ['glb', 'BoxTextured.glb'],
    ['glb', 'SimpleInstancing.glb'],
    ['ifc', 'IfcOpenHouse_IFC4.ifc'],
  ] as const)('our own USDZ of %s/%s meets the ARKit rules and reads back with the same triangles, bounds and UVs', async (kind, name) => {
    const scene = kind === 'glb' ? await readGlb(corpusBytes(kind, name)) : await readIfc(corpusBytes(kind, name));
    const back = await readUsdz(new Uint8Array(Buffer.concat(writeUsdz(scene))));
    expect(back.stats.triangles).toBe(scene.stats.triangles);
    expect(back.warnings).toEqual([]);
    expect(back.arkitPackage?.repacked).toBe(false);
    for (let k = 0; k < 3; k++) {
      expect(back.bounds.min[k]).toBeCloseTo(scene.bounds.min[k]!, 4);
      expect(back.bounds.max[k]).toBeCloseTo(scene.bounds.max[k]!, 4);
    }
    if (scene.meshes[0]!.uvs) {
      const a = scene.meshes[0]!.uvs!,
        b = back.meshes[0]!.uvs!;
      for (let i = 0; i < a.length; i++) expect(b[i]).toBeCloseTo(a[i]!, 5); // v flipped on write, flipped back on read
    }
  });

  it('any corruption of a real package is read or refused with a ConvertError, never anything else', async () => {
    const sources = ['clean_clean.usdz', 'clean_clean_arkit.usdz', 'simpleMaterial.usdz', 'three-CesiumMan.usdz'].map((n) =>
      corpusBytes('usdz', n),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.nat(sources.length - 1),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }),
        fc.option(fc.double({ min: 0.1, max: 1, noNaN: true })),
        async (which, edits, cut) => {
          let bytes = sources[which]!.slice();
          for (const [at, byte] of edits) bytes[Math.floor(at * (bytes.length - 1))] = byte;
          if (cut !== null) bytes = bytes.subarray(0, Math.floor(cut * bytes.length));
          try {
            await readUsdz(bytes);
          } catch (err) {
            if (!(err instanceof ConvertError)) throw err;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('checkUsdzPackage refuses hostile packages', () => {
  const layer = new TextEncoder().encode('#usda 1.0\n(\n    upAxis = "Y"\n    metersPerUnit = 1\n)\ndef Xform "A"\n{\n}\n');
  const pkg = (entries: Array<{ name: string; data: Uint8Array }>) => new Uint8Array(Buffer.concat(zipStored(entries)));

  it('an entry escaping the package', () => {
    expect(() =>
      checkUsdzPackage(
        pkg([
          { name: 'a.usda', data: layer },
          { name: '../../etc/passwd.png', data: new Uint8Array(4) },
        ]),
      ),
    ).toThrow(expect.objectContaining({ rule: 'entry_escapes_package' }));
  });

  it('a zip bomb (declared sizes over the limit)', () => {
    const bytes = pkg([{ name: 'a.usda', data: layer }]);
    const cd = rawZipEntries(bytes).length; // one entry; patch its central-directory uncompressed size
    expect(cd).toBe(1);
    const v = new DataView(bytes.buffer);
    const eocd = bytes.length - 22;
    const cdOffset = v.getUint32(eocd + 16, true);
    v.setUint32(cdOffset + 24, 0xfffffff0, true);
    expect(() => checkUsdzPackage(bytes, { maxUnpackedBytes: 1 << 20 })).toThrow(expect.objectContaining({ rule: 'too_large' }));
  });

  it('a truncated package', () => {
    const bytes = corpusBytes('usdz', 'three-DamagedHelmet.usdz');
    expect(() => checkUsdzPackage(bytes.subarray(0, bytes.length / 2))).toThrow(ModelUnreadableError);
  });

  it('a layer that refers outside the package', async () => {
    const bad = new TextEncoder().encode(
      '#usda 1.0\n(\n    upAxis = "Y"\n)\ndef Xform "A" (\n    prepend references = @/etc/hosts.usda@\n)\n{\n}\n',
    );
    const err = await refusal(pkg([{ name: 'a.usda', data: bad }]));
    expect(err).toMatchObject({ rule: 'unencapsulated_reference' });
  });

  it('a stored, aligned, well-formed package passes unchanged', () => {
    const bytes = pkg([{ name: 'a.usda', data: layer }]);
    const checked = checkUsdzPackage(bytes);
    expect(checked.repaired).toEqual([]);
    expect(checked.bytes).toBe(bytes);
  });
});
