import { describe, expect, it } from 'vitest';
import {
  checkUsdzPackage, ModelUnreadableError, readGlb, readIfc, readUsdz, UsdzPackageError, writeUsdz, zipStored,
} from '../src/index.js';
import { corpusBytes, corpusFiles } from '../../../test/support/corpus.js';
import { rawZipEntries } from '../../../test/support/usdReader.js';

const refusal = async (bytes: Uint8Array) => readUsdz(bytes, { fileName: 'x.usdz' }).then(() => undefined, (e: unknown) => e);

describe('readUsdz on the Pixar checker fixtures and three.js exports', () => {
  // What each fixture breaks, from MANIFEST.md; the rule our checker names for it.
  const refused: Record<string, string> = {
    'bad_alembic.usdz': 'unsupported_entry',
    'bad_refAbc.usdz': 'unsupported_entry',
    'bad_unknownfile.usdz': 'unsupported_entry',
    'bad_unencapsulated_asset.usdz': 'unencapsulated_reference',
    'bad_unencapsulated_layer.usdz': 'unencapsulated_reference',
    'first_file_not_usd.usdz': 'first_entry_not_usd',
  };
  const repaired: Record<string, string[]> = {
    'bad_badUsdz.usdz': ['repaired_compressed_entry', 'repaired_misaligned_entry'],
    'bad_badExtension_arkit.usdz': ['repaired_layer_extension'],
  };

  it('covers every USDZ in the corpus', () => {
    for (const name of corpusFiles('usdz')) {
      expect(name in refused || name in repaired || /^(clean_|single_|simpleMaterial|three-)/.test(name), name).toBe(true);
    }
  });

  it.each(Object.entries(refused))('%s is refused naming the rule %s', async (name, rule) => {
    const err = await refusal(corpusBytes('usdz', name));
    expect(err).toBeInstanceOf(UsdzPackageError);
    expect((err as UsdzPackageError).rule).toBe(rule);
    expect((err as Error).message).toContain('x.usdz');
  });

  it.each(Object.entries(repaired))('%s is repaired by repacking (%s)', async (name, codes) => {
    const scene = await readUsdz(corpusBytes('usdz', name));
    expect(scene.warnings.map((w) => w.code)).toEqual(expect.arrayContaining(codes));
  });

  it.each(corpusFiles('usdz').filter((n) => /^(clean_|single_)/.test(n)))('%s is accepted', async (name) => {
    const scene = await readUsdz(corpusBytes('usdz', name));
    expect(scene.source.format).toBe('usdz');
    if (name.startsWith('single_')) expect(scene.warnings.map((w) => w.code)).toContain('stage_defaults');
  });

  it('simpleMaterial: a textured quad, with USD fallbacks for the missing stage metadata', async () => {
    const scene = await readUsdz(corpusBytes('usdz', 'simpleMaterial.usdz'));
    expect(scene.stats.triangles).toBe(2);
    expect(scene.textures.map((t) => t.mimeType)).toEqual(['image/png']);
    expect(scene.materials[0]!.baseColorTexture).toBeDefined();
  });

  it.each([['three-DamagedHelmet.usdz', 'DamagedHelmet.glb'], ['three-CesiumMan.usdz', 'CesiumMan.glb']])(
    '%s (three.js export, geometry in referenced layers) has the geometry of %s',
    async (usdz, glb) => {
      const fromUsdz = await readUsdz(corpusBytes('usdz', usdz));
      const fromGlb = await readGlb(corpusBytes('glb', glb));
      expect(fromUsdz.stats.triangles).toBe(fromGlb.stats.triangles);
      for (let k = 0; k < 3; k++) {
        expect(fromUsdz.bounds.min[k]).toBeCloseTo(fromGlb.bounds.min[k]!, 3);
        expect(fromUsdz.bounds.max[k]).toBeCloseTo(fromGlb.bounds.max[k]!, 3);
      }
    },
  );

  it.each([['glb', 'BoxTextured.glb'], ['glb', 'SimpleInstancing.glb'], ['ifc', 'IfcOpenHouse_IFC4.ifc']] as const)(
    'our own USDZ of %s/%s reads back with the same triangles, bounds and UVs',
    async (kind, name) => {
      const scene = kind === 'glb' ? await readGlb(corpusBytes(kind, name)) : await readIfc(corpusBytes(kind, name));
      const back = await readUsdz(new Uint8Array(Buffer.concat(writeUsdz(scene))));
      expect(back.stats.triangles).toBe(scene.stats.triangles);
      expect(back.warnings).toEqual([]);
      for (let k = 0; k < 3; k++) {
        expect(back.bounds.min[k]).toBeCloseTo(scene.bounds.min[k]!, 4);
        expect(back.bounds.max[k]).toBeCloseTo(scene.bounds.max[k]!, 4);
      }
      if (scene.meshes[0]!.uvs) {
        const a = scene.meshes[0]!.uvs!, b = back.meshes[0]!.uvs!;
        for (let i = 0; i < a.length; i++) expect(b[i]).toBeCloseTo(a[i]!, 5); // v flipped on write, flipped back on read
      }
    },
  );
});

describe('checkUsdzPackage refuses hostile packages', () => {
  const layer = new TextEncoder().encode('#usda 1.0\n(\n    upAxis = "Y"\n    metersPerUnit = 1\n)\ndef Xform "A"\n{\n}\n');
  const pkg = (entries: Array<{ name: string; data: Uint8Array }>) => new Uint8Array(Buffer.concat(zipStored(entries)));

  it('an entry escaping the package', () => {
    expect(() => checkUsdzPackage(pkg([{ name: 'a.usda', data: layer }, { name: '../../etc/passwd.png', data: new Uint8Array(4) }])))
      .toThrow(expect.objectContaining({ rule: 'entry_escapes_package' }));
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
    const bad = new TextEncoder().encode('#usda 1.0\n(\n    upAxis = "Y"\n)\ndef Xform "A" (\n    prepend references = @/etc/hosts.usda@\n)\n{\n}\n');
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
