// Corrupt models made at test time from the corpus (never stored in the repo): truncated,
// bit-flipped, lying, cyclic, bombed and escaping files. Through convertModel (the real worker, the
// real parsers) each is a typed error naming the problem, and through the server a 4xx.
import { ConvertError, convertModel, UsdzPackageError, type ConversionResult } from '@arsession/convert';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusBytes } from './support/corpus.js';
import { diskLeftovers } from './support/diskLeftovers.js';
import { expectProblem } from './support/problemResponse.js';
import { rewriteGlbJson } from './support/rewriteGlbJson.js';
import { flipBits, spliceTokens, truncate } from './support/seededCorruption.js';
import { form, postSession, startTestServer, type TestServer } from './support/serverHarness.js';
import { zipArchive } from './support/zipArchive.js';

const TIMEOUT_MS = 20_000;

/** What convertModel made of a file: its result, or the error it threw (any error, so a wrong kind fails the test). */
async function outcomeOf(bytes: Uint8Array, fileName: string): Promise<{ result: ConversionResult } | { error: unknown }> {
  try {
    return { result: await convertModel(bytes, { fileName, timeoutMs: TIMEOUT_MS }) };
  } catch (error) {
    return { error };
  }
}

/** Refused with one of our typed errors, naming the file and matching `problem`. */
async function expectRefused(bytes: Uint8Array, fileName: string, problem: RegExp): Promise<ConvertError> {
  const outcome = await outcomeOf(bytes, fileName);
  expect('error' in outcome, `${fileName} converted`).toBe(true);
  const error = (outcome as { error: unknown }).error;
  expect(error, String(error)).toBeInstanceOf(ConvertError);
  const typed = error as ConvertError;
  expect(typed.code).toMatch(/^[a-z_]+$/);
  expect(typed.field).toBe('model_file');
  expect(typed.message).toContain(fileName);
  expect(typed.message).toMatch(problem);
  return typed;
}

const glb = {
  box: () => corpusBytes('glb', 'Box.glb'),
  /** Box.glb with its two nodes replaced by `nodes` (the mesh is mesh 0). */
  withNodes: (nodes: unknown[], roots: number[]) =>
    rewriteGlbJson(corpusBytes('glb', 'Box.glb'), (json) => {
      json.nodes = nodes;
      json.scenes = [{ nodes: roots }];
      json.scene = 0;
    }),
};
/** A chain of `depth` nodes, the mesh on the last. */
const chain = (depth: number) => Array.from({ length: depth }, (_, i) => (i < depth - 1 ? { children: [i + 1] } : { mesh: 0 }));

describe('truncated files are refused (never half-read)', () => {
  it.each([
    ['glb', 'Box.glb', 0.5],
    ['glb', 'BoxTextured.glb', 0.9],
    ['glb', 'CesiumMan.glb', 0.999],
    ['ifc', 'IfcOpenHouse_IFC4.ifc', 0.5],
    ['ifc', 'wall_door_columnt_rgb4x3.ifc', 0.995],
    ['usdz', 'simpleMaterial.usdz', 0.5],
    ['usdz', 'clean_clean_usdc.usdz', 0.95],
  ] as const)('%s %s cut to %s of its length', async (kind, name, fraction) => {
    await expectRefused(truncate(corpusBytes(kind, name), fraction), name, /truncated|runs past|end of central directory|past the end/);
  });
});

describe('bit-flipped files convert or are refused with a typed error, nothing else', () => {
  // Flips start past the format's magic, so each variant reaches its reader.
  const variants = [
    ['glb', 'CesiumMan.glb', 20],
    ['glb', 'BoxTextured.glb', 20],
    ['ifc', 'IfcOpenHouse_IFC4.ifc', 64],
    ['usdz', 'simpleMaterial.usdz', 4],
    ['usdz', 'clean_clean_usdc.usdz', 4],
  ] as const;
  it.each(variants.flatMap(([kind, name, from]) => [1, 2, 3].map((seed) => [kind, name, from, seed] as const)))(
    '%s %s (bits past byte %s, seed %s)',
    async (kind, name, from, seed) => {
      const outcome = await outcomeOf(flipBits(corpusBytes(kind, name), 16, seed, from), name);
      if ('result' in outcome) {
        // A flip that still converts must still be a model with a place to be put.
        if (outcome.result.stats.triangles > 0)
          expect([...outcome.result.bounds.min, ...outcome.result.bounds.max].every(Number.isFinite)).toBe(true);
      } else {
        expect(outcome.error, String(outcome.error)).toBeInstanceOf(ConvertError);
        expect((outcome.error as ConvertError).message).toContain(name);
      }
    },
  );
});

describe('STEP text edited by hand or by a careless exporter: converted, or refused by the check, never left to web-ifc', () => {
  // Escapes and quotes spliced in (mostly just inside strings), and values written wrong: a bare
  // word, a dot on its own or after a reference, an overflowing number.
  const tokens = [
    "\\S\\'",
    '\\S\\',
    '\\\\',
    "''",
    '\\X2\\00E4\\X0\\',
    '\\PA\\',
    "\\s\\'",
    'X2',
    ',X2',
    '.',
    '#6.',
    '$',
    '*',
    '1.E999',
    '-',
  ];
  const house = new TextDecoder('latin1').decode(corpusBytes('ifc', 'IfcOpenHouse_IFC4.ifc'));
  it.each(Array.from({ length: 24 }, (_, k) => k + 1))('seed %i', async (seed) => {
    const edited = spliceTokens(house, tokens, 1 + (seed % 2), seed);
    const outcome = await outcomeOf(new Uint8Array(Buffer.from(edited, 'latin1')), 'edited.ifc');
    if ('error' in outcome) {
      expect(outcome.error, String(outcome.error)).toBeInstanceOf(ConvertError);
      // Web-ifc spinning on what it cannot parse shows as the deadline's refusal: the check must have caught it first.
      expect((outcome.error as ConvertError).message).not.toMatch(/did not finish/);
    } else if (outcome.result.stats.triangles > 0) {
      expect([...outcome.result.bounds.min, ...outcome.result.bounds.max].every(Number.isFinite)).toBe(true);
    }
  });
});

describe('GLB whose JSON lies about its binary layout', () => {
  it.each([
    [
      'a buffer longer than the binary chunk',
      (j: any) => {
        j.buffers[0].byteLength *= 10;
      },
      /buffer 0 declares 6480 bytes but the binary chunk holds 648/,
    ],
    [
      'a bufferView past its buffer',
      (j: any) => {
        j.bufferViews[0].byteLength *= 10;
      },
      /bufferView 0 .* runs past the end of buffer 0/,
    ],
    [
      'an accessor count past its bufferView',
      (j: any) => {
        j.accessors[0].count *= 100;
      },
      /accessor 0 claims 3600 elements/,
    ],
    [
      'an accessor count of 1e308',
      (j: any) => {
        j.accessors[0].count = 1e308;
      },
      /claim more than \d+ MiB/,
    ],
    [
      'a fractional accessor count',
      (j: any) => {
        j.accessors[0].count = 1.5;
      },
      /accessor 0 has an invalid count \(1\.5\)/,
    ],
    [
      'a negative bufferView offset',
      (j: any) => {
        j.bufferViews[0].byteOffset = -100;
      },
      /bufferView 0 has an invalid byteOffset \(-100\)/,
    ],
    [
      'a negative accessor offset',
      (j: any) => {
        j.accessors[1].byteOffset = -4;
      },
      /accessor 1 has an invalid byteOffset \(-4\)/,
    ],
    [
      'indices in an accessor that does not exist',
      (j: any) => {
        j.meshes[0].primitives[0].indices = 99;
      },
      /primitive 0 \(indices\) uses accessor 99, which does not exist/,
    ],
    [
      'a node using a mesh that does not exist',
      (j: any) => {
        j.nodes[1].mesh = 7;
      },
      /node 1 uses mesh 7, which does not exist/,
    ],
    [
      'a material that does not exist',
      (j: any) => {
        j.meshes[0].primitives[0].material = 3;
      },
      /uses material 3, which does not exist/,
    ],
    [
      'a scale of 1e308 (coordinates overflow)',
      (j: any) => {
        j.nodes[0].matrix = [1e308, 0, 0, 0, 0, 1e308, 0, 0, 0, 0, 1e308, 0, 0, 0, 0, 1];
      },
      /not finite numbers/,
    ],
    [
      'a matrix of two numbers',
      (j: any) => {
        j.nodes[0].matrix = [1, 0];
      },
      /not finite numbers/,
    ],
  ] as const)('%s', async (_what, edit, problem) => {
    await expectRefused(rewriteGlbJson(glb.box(), edit), 'lying.glb', problem);
  });
});

describe('node graphs that are not a tree of sane depth', () => {
  it('a 20 000-node chain is refused from the JSON in moments, not at the deadline', async () => {
    const started = Date.now();
    await expectRefused(glb.withNodes(chain(20_000), [0]), 'deep.glb', /deeper than 256 levels/);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS / 2);
  });
  it('256 levels convert; 257 do not', async () => {
    const ok = await outcomeOf(glb.withNodes(chain(256), [0]), 'ok.glb');
    expect('result' in ok && ok.result.stats.triangles).toBe(12);
    await expectRefused(glb.withNodes(chain(257), [0]), 'deep.glb', /deeper than 256 levels/);
  });
  it.each([
    ['a node that is its own child', [{ children: [0], mesh: 0 }], [0], /node 0 is its own child/],
    ["two nodes that are each other's parent", [{ children: [1] }, { children: [0], mesh: 0 }], [], /node 0 is its own ancestor/],
    [
      'a cycle hanging under a scene root',
      [{ children: [1], mesh: 0 }, { children: [2] }, { children: [1] }],
      [0],
      /two parents|own ancestor/,
    ],
    ['a node with two parents', [{ children: [2] }, { children: [2] }, { mesh: 0 }], [0, 1], /node 2 has two parents/],
    ['a child that does not exist', [{ children: [5], mesh: 0 }], [0], /node 0 lists child 5, which does not exist/],
    ['a scene root that does not exist', [{ mesh: 0 }], [9], /scene 0 lists node 9, which does not exist/],
  ] as const)('%s', async (_what, nodes, roots, problem) => {
    await expectRefused(glb.withNodes([...nodes], [...roots]), 'graph.glb', problem);
  });
});

describe('.ifczip archives: bombs', () => {
  it('an IFC that inflates past the size its headers declare is refused as a zip bomb', async () => {
    const bomb = zipArchive([{ name: 'house.ifc', data: corpusBytes('ifc', 'IfcOpenHouse_IFC4.ifc'), deflate: true, declaredSize: 1000 }]);
    await expectRefused(bomb, 'bomb.ifczip', /house\.ifc unpacks to more than the 1000 bytes the zip declares for it \(a zip bomb\?\)/);
  });
  it(
    'an IFC larger than the caller allows archives to unpack to (a server: ' +
      'its upload limit) is refused before inflating, with the figures',
    async () => {
      const zipped = zipArchive([{ name: 'haus.ifc', data: corpusBytes('ifc', 'AC20-FZK-Haus.ifc'), deflate: true }]);
      expect(zipped.length).toBeLessThan(1 << 20);
      const error = await convertModel(zipped, { fileName: 'haus.ifczip', timeoutMs: TIMEOUT_MS, maxUnpackedBytes: 1 << 20 }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(ConvertError);
      expect((error as Error).message).toMatch(
        /haus\.ifczip: haus\.ifc unpacks to 2570803 bytes, over the 1048576 bytes an archive may unpack to/,
      );
    },
  );
});

describe('USDZ packages: zip bombs and entries escaping the package', () => {
  const layer = new TextEncoder().encode(
    '#usda 1.0\n(\n    upAxis = "Y"\n    metersPerUnit = 1\n)\ndef Mesh "M"\n{\n    point3f[] points = ' +
      '[(0,0,0),(1,0,0),(0,1,0)]\n    int[] faceVertexCounts = [3]\n    int[] faceVertexIndices = [0,1,2]\n}\n',
  );
  const spaces = new Uint8Array(64 * 1024 * 1024).fill(0x20);

  it('the honest package converts (so the refusals below are about what was changed)', async () => {
    const ok = await outcomeOf(zipArchive([{ name: 'a.usda', data: layer }]), 'ok.usdz');
    expect('result' in ok && ok.result.stats.triangles).toBe(1);
  });
  it('an entry that inflates far past the size its headers declare', async () => {
    const bomb = zipArchive([
      { name: 'a.usda', data: layer },
      { name: 'b.png', data: spaces, deflate: true, declaredSize: 1000 },
    ]);
    expect(bomb.length).toBeLessThan(200_000);
    const error = await expectRefused(bomb, 'bomb.usdz', /"b\.png" unpacks to more than the 1000 bytes .* zip bomb/);
    expect(error).toBeInstanceOf(UsdzPackageError);
    expect((error as UsdzPackageError).rule).toBe('too_large');
  });
  it(
    'an entry of a kind nothing loads is never inflated: a 1 GiB junk.bin ' + 'whose stream is no deflate at all does not stop the package',
    async () => {
      const junk = zipArchive([
        { name: 'a.usda', data: layer },
        { name: 'junk.bin', data: new Uint8Array(0), deflate: true, stream: new Uint8Array(4096).fill(0xff), declaredSize: 2 ** 30 },
      ]);
      const outcome = await outcomeOf(junk, 'junk.usdz');
      expect('result' in outcome, 'error' in outcome ? String(outcome.error) : '').toBe(true);
      const result = (outcome as { result: ConversionResult }).result;
      expect(result.stats.triangles).toBe(1);
      expect(result.warnings.find((w) => w.code === 'entries_left_out')?.message).toMatch(/junk\.bin/);
    },
  );
  it('the entries read may unpack to no more than the caller allows (a server: its upload limit), named with the figure', async () => {
    const big = zipArchive([
      { name: 'a.usda', data: layer },
      { name: 'big.png', data: new Uint8Array(2 << 20), deflate: true },
    ]);
    const outcome = await convertModel(big, { fileName: 'big.usdz', timeoutMs: TIMEOUT_MS, maxUnpackedBytes: 1 << 20 }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(outcome).toBeInstanceOf(UsdzPackageError);
    expect((outcome as UsdzPackageError).rule).toBe('too_large');
    expect((outcome as Error).message).toMatch(
      /big\.usdz: the package unpacks to more than the 1048576 bytes it may \(entry "big\.png" declares 2097152 bytes/,
    );
  });
  it('entries whose declared sizes add up past the unpacking limit', async () => {
    const bomb = zipArchive([
      { name: 'a.usda', data: layer },
      ...[1, 2, 3].map((i) => ({ name: `${i}.png`, data: new Uint8Array(8), declaredSize: 0xfffffff0 })),
    ]);
    expect(((await expectRefused(bomb, 'declared.usdz', /unpacks to more than/)) as UsdzPackageError).rule).toBe('too_large');
  });
  it.each(['../x.usda', '/etc/x.usda', 'C:/x.usda', 'sub/../../x.usda', '..\\x.usda'])('an entry named %s', async (name) => {
    const error = await expectRefused(
      zipArchive([
        { name: 'a.usda', data: layer },
        { name, data: layer },
      ]),
      'escape.usdz',
      /points outside the package/,
    );
    expect((error as UsdzPackageError).rule).toBe('entry_escapes_package');
  });
  it.each(['../x.usda', '/tmp/x.usda', 'http://example.com/x.usda'])('a layer referring to %s', async (target) => {
    const text = new TextEncoder().encode(`#usda 1.0\n(\n    upAxis = "Y"\n)\ndef "A" (\n    prepend references = @${target}@\n)\n{\n}\n`);
    const error = await expectRefused(
      zipArchive([
        { name: 'a.usda', data: text },
        { name: 'x.usda', data: layer },
      ]),
      'ref.usdz',
      /outside the package/,
    );
    expect((error as UsdzPackageError).rule).toBe('unencapsulated_reference');
  });
});

describe('IFC that web-ifc must not be handed', () => {
  const house = () => new TextDecoder('latin1').decode(corpusBytes('ifc', 'IfcOpenHouse_IFC4.ifc'));
  const latin1 = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
  const minimal = (data: string) =>
    latin1(
      "ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION((''),'2;1');\nFILE_NAME('x','',(''),(''),'','','');\n" +
        `FILE_SCHEMA(('IFC4'));\nENDSEC;\nDATA;\n${data}\nENDSEC;\nEND-ISO-10303-21;\n`,
    );
  // A wall standing on a placement of 1e308 metres: web-ifc makes NaN of it.
  const overflowingWall = [
    '#1=IFCLOCALPLACEMENT($,#2);',
    '#2=IFCAXIS2PLACEMENT3D(#3,$,$);',
    '#3=IFCCARTESIANPOINT((1.E308,1.E308,1.E308));',
    "#4=IFCWALL('0000000000000000000000',$,'x',$,$,#1,#5,$,$);",
    '#5=IFCPRODUCTDEFINITIONSHAPE($,$,(#6));',
    "#6=IFCSHAPEREPRESENTATION($,'Body','SweptSolid',(#7));",
    '#7=IFCEXTRUDEDAREASOLID(#8,#2,#9,1.E308);',
    '#8=IFCRECTANGLEPROFILEDEF(.AREA.,$,$,1.E308,1.E308);',
    '#9=IFCDIRECTION((0.,0.,1.));',
  ].join('\n');

  it('the untouched house converts (so the refusals below are about what was changed)', async () => {
    const ok = await outcomeOf(latin1(house()), 'house.ifc');
    expect('result' in ok && ok.result.stats.triangles).toBeGreaterThan(1000);
  });
  it.each([
    [
      'an element numbered #99999999999999999',
      (h: string) => h.replace('#40=IFCWALLSTANDARDCASE', '#99999999999999999=IFCWALLSTANDARDCASE'),
      /#99999999999999999, out of range/,
    ],
    [
      'a reference to #99999999999999999',
      (h: string) => h.replace(/(#40=IFCWALLSTANDARDCASE\('[^']*',#5,'South wall',\$,\$,)#65/, '$1#99999999999999999'),
      /#40 refers to #99999999999999999, out of range/,
    ],
    [
      'an id past 32 bits',
      (h: string) =>
        h.replace('ENDSEC;\nEND-ISO', "#4294967296=IFCWALL('0000000000000000000000',#5,'x',$,$,#65,#42,$,$);\nENDSEC;\nEND-ISO"),
      /#4294967296, out of range/,
    ],
    [
      'a bare word where a value belongs (web-ifc would spin until the deadline)',
      (h: string) => h.replace("'MappedRepresentation',(", "'MappedRepresentation'X2,("),
      /entity #\d+ has "X2" where a value belongs/,
    ],
    [
      'a dot after a reference (web-ifc would read the rest of the file as one enumeration)',
      (h: string) => h.replace(/(#40=IFCWALLSTANDARDCASE\('[^']*',#5)/, '$1.'),
      /entity #40 has "#5\." where a reference belongs/,
    ],
    [
      'a negative id',
      (h: string) => h.replace('ENDSEC;\nEND-ISO', "#-5=IFCWALL('0000000000000000000000',#5,'x',$,$,#65,#42,$,$);\nENDSEC;\nEND-ISO"),
      /"#" without a number/,
    ],
  ] as const)('%s', async (_what, edit, problem) => {
    const text = edit(house());
    expect(text).not.toBe(house());
    await expectRefused(latin1(text), 'absurd.ifc', problem);
  });
  it('unbalanced parentheses (web-ifc would spin until the deadline) are refused at once', async () => {
    const started = Date.now();
    await expectRefused(minimal('#1=IFCWALL(((((;'), 'spin.ifc', /line 8: entity #1 has 5 unclosed parentheses/);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS / 2);
  });
  it('binary garbage where the entities should be', async () => {
    await expectRefused(minimal('\u0000\u0001\u00ff'.repeat(500)), 'garbage.ifc', /line 8: expected an entity instance .*\\x00/);
  });
  it('a string that never ends', async () => {
    await expectRefused(minimal("#1=IFCPROJECT('open,$,$,$,$,$,$,$,$);"), 'string.ifc', /a string in entity #1 never ends/);
  });
  it('geometry web-ifc turns into NaN', async () => {
    await expectRefused(minimal(overflowingWall), 'nan.ifc', /not finite numbers/);
  });
});

describe('a sample through the server: 4xx problem+json naming model_file and the file', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ conversionTimeoutSeconds: 20 });
  });
  afterAll(() => t.stop());

  const cases: Array<[string, () => Uint8Array, number, string, RegExp]> = [
    ['truncated.glb', () => truncate(corpusBytes('glb', 'BoxTextured.glb'), 0.5), 422, 'model_unreadable', /truncated/],
    ['deep.glb', () => glb.withNodes(chain(5000), [0]), 422, 'model_unreadable', /deeper than 256 levels/],
    [
      'cycle.glb',
      () => glb.withNodes([{ children: [1] }, { children: [0], mesh: 0 }], [0]),
      422,
      'model_unreadable',
      /two parents|own ancestor/,
    ],
    [
      'lying.glb',
      () =>
        rewriteGlbJson(glb.box(), (j) => {
          j.accessors[0].count *= 100;
        }),
      422,
      'model_unreadable',
      /claims 3600 elements/,
    ],
    [
      'escape.usdz',
      () => zipArchive([{ name: '../x.usda', data: new TextEncoder().encode('#usda 1.0\n') }]),
      422,
      'usdz_package_invalid',
      /points outside the package/,
    ],
    [
      'bomb.usdz',
      () =>
        zipArchive([
          { name: 'a.usda', data: new TextEncoder().encode('#usda 1.0\n') },
          { name: 'b.png', data: new Uint8Array(32 << 20), deflate: true, declaredSize: 100 },
        ]),
      422,
      'usdz_package_invalid',
      /zip bomb/,
    ],
    // Archives unpack to no more than the upload limit (512 MB by default): what a plain file could be.
    [
      'past-upload-limit.usdz',
      () =>
        zipArchive([
          { name: 'a.usda', data: new TextEncoder().encode('#usda 1.0\n') },
          { name: 'b.png', data: new Uint8Array(1000), deflate: true, declaredSize: 600 * 2 ** 20 },
        ]),
      422,
      'usdz_package_invalid',
      /unpacks to more than the 536870912 bytes it may/,
    ],
    [
      'past-upload-limit.ifczip',
      () => zipArchive([{ name: 'm.ifc', data: new Uint8Array(1000), deflate: true, declaredSize: 600 * 2 ** 20 }]),
      422,
      'model_unreadable',
      /m\.ifc unpacks to 629145600 bytes, over the 536870912 bytes an archive may unpack to/,
    ],
    [
      'absurd.ifc',
      () =>
        new Uint8Array(
          Buffer.from(
            new TextDecoder('latin1').decode(corpusBytes('ifc', 'IfcOpenHouse_IFC4.ifc')).replace('#40=', '#99999999999999999='),
            'latin1',
          ),
        ),
      422,
      'model_unreadable',
      /out of range/,
    ],
    [
      'spin.ifc',
      () =>
        new TextEncoder().encode(
          "ISO-10303-21;\nHEADER;\nFILE_SCHEMA(('IFC4'));\nENDSEC;\nDATA;\n#1=IFCWALL(((((;\nENDSEC;\nEND-ISO-10303-21;\n",
        ),
      422,
      'model_unreadable',
      /unclosed parentheses/,
    ],
    ['flipped-magic.glb', () => flipBits(corpusBytes('glb', 'Box.glb'), 1, 7, 0).fill(0x00, 0, 4), 415, 'unsupported_format', /not an IFC/],
  ];
  it.each(cases)('%s', async (name, bytes, status, code, problem) => {
    const r = await postSession(t, 'by_plane', form({ model_file: [new Blob([bytes()]), name] }), null);
    expectProblem(r, [status]);
    expect(r.body.code).toBe(code);
    expect(r.body.errors[0].field).toBe('model_file');
    expect(r.body.file).toBe(name);
    expect(r.body.detail).toContain(name);
    expect(r.body.detail).toMatch(problem);
  });

  it('afterwards: nothing left on disk, and the server still answers', async () => {
    expect(await diskLeftovers(t)).toEqual([]);
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    const ok = await postSession(t, 'by_plane', form({ model_file: [new Blob([glb.box()]), 'Box.glb'] }), null);
    expect(ok.status).toBe(201);
  });
});
