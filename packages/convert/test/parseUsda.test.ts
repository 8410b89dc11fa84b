import { inflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsdUnreadableError } from '@arsession/usd';
import type { SceneData } from '../src/scene/SceneData.js';
import { newIdentityMatrix } from '../src/scene/identityMatrix.js';
import { describeLayer } from '../src/usdz/layer/describeLayer.js';
import {
  parseUsda,
  readZipDirectory,
  tokenizeUsda,
  USDA_ASSET,
  USDA_DECIMALS,
  USDA_MAGIC,
  USDA_MAX_NESTING,
  USDA_NAME,
  USDA_NUMBER,
  USDA_PATH,
  USDA_PUNCT,
  USDA_STRING,
  type SdfLayer,
  type SdfSpec,
  type SdfValue,
  type UsdLayer,
  type UsdPrim,
  type UsdValue,
} from '@arsession/usd';
import { tinyusdzModule } from '../../../test/support/tinyusdzModule.js';
import { renderUsda } from '../src/usdz/writeUsdaLayer.js';
import { corpusBytes, corpusFiles } from '../../../test/support/corpus.js';

// ---- Helpers ----

const concat = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/** Parses `body` under a `#usda 1.0` header, as layer `test.usda`. */
function parse(body: string): SdfLayer {
  return parseUsda(`#usda 1.0\n${body}`, 'test.usda');
}

function spec(layer: SdfLayer, path: string): SdfSpec {
  const s = layer.specs.get(path);
  if (!s) throw new Error(`no spec at ${path} (${layer.specs.size} specs)`);
  return s;
}

function field(layer: SdfLayer, path: string, key: string): SdfValue | undefined {
  return spec(layer, path).fields.get(key);
}

/** The error `parseUsda` throws for `body` (which must be refused). */
function refusal(body: string, header = '#usda 1.0\n'): UsdUnreadableError {
  try {
    parseUsda(`${header}${body}`, 'test.usda');
  } catch (e) {
    expect(e).toBeInstanceOf(UsdUnreadableError);
    return e as UsdUnreadableError;
  }
  throw new Error(`accepted: ${body}`);
}

const listOp = <T>(edits: { explicit?: T[]; prepended?: T[]; appended?: T[]; added?: T[]; deleted?: T[]; ordered?: T[] }) => ({
  prepended: [],
  appended: [],
  added: [],
  deleted: [],
  ordered: [],
  ...edits,
});
const ref = (assetPath: string, primPath: string, offset = 0, scale = 1) => ({ assetPath, primPath, layerOffset: { offset, scale } });

/** Every entry of a package, nested packages included (deflated entries inflated: `bad_badUsdz` has some). */
function entriesOf(bytes: Uint8Array, label: string): Array<{ name: string; data: Uint8Array }> {
  return readZipDirectory(bytes, label).flatMap((e) => {
    const raw = bytes.subarray(e.dataOffset, e.dataOffset + e.compressedSize);
    const data = e.method === 8 ? new Uint8Array(inflateRawSync(raw)) : raw;
    const nested = /\.usdz$/i.test(e.name)
      ? entriesOf(data, `${label}/${e.name}`).map((n) => ({ name: `${e.name}/${n.name}`, data: n.data }))
      : [];
    return [{ name: e.name, data }, ...nested];
  });
}

const isText = (data: Uint8Array) => Buffer.from(data.subarray(0, 5)).toString('latin1') === '#usda';
const TEXT_LAYERS = corpusFiles('usdz').flatMap((pkg) =>
  entriesOf(corpusBytes('usdz', pkg), pkg)
    .filter((e) => isText(e.data))
    .map((e) => ({ pkg, ...e })),
);

/** What TinyUSDZ (an independent C++ reader) makes of a layer: its own USDA re-serialisation. */
async function tinyText(data: Uint8Array, name: string): Promise<string> {
  const mod = await tinyusdzModule();
  const loader = new mod.TinyUSDZLoaderNative();
  try {
    if (!loader.loadAsLayerFromBinary(data, name)) throw new Error(`TinyUSDZ: ${loader.error()}`);
    return loader.layerToString();
  } finally {
    loader.delete();
  }
}

/**
 * Facts read off TinyUSDZ's text by its layout (four spaces per level, one statement a line):
 * prims with their types, the header's metadata, and property values as written.
 */
function tinyFacts(text: string) {
  const prims = new Map<string, string>();
  const values = new Map<string, string>();
  const header = /^#usda[^\n]*\n\(\n([\s\S]*?)\n\)/.exec(text)?.[1] ?? '';
  const meta = (key: string) => new RegExp(`^\\s*${key} = "?([^"\\n]+)"?$`, 'm').exec(header)?.[1];
  const stack: string[] = [];
  for (const line of text.split('\n')) {
    const indent = /^ */.exec(line)![0].length;
    const def = /^ *(?:def|over|class)\s+(?:([\w:.]+)\s+)?"([^"]+)"/.exec(line);
    if (def) {
      const depth = indent / 4;
      stack.length = depth;
      const path = `${depth ? stack[depth - 1] : ''}/${def[2]}`;
      stack.push(path);
      prims.set(path, def[1] ?? '');
      continue;
    }
    const prop = /^ *(?:(?:uniform|custom|varying) )*[A-Za-z0-9_]+(?:\[\])? ([A-Za-z_][\w:]*) = (.*?)(?: \($)?$/.exec(line);
    const owner = stack[indent / 4 - 1];
    if (prop && owner && indent % 4 === 0) values.set(`${owner}.${prop[1]}`, prop[2]!);
  }
  const mpu = meta('metersPerUnit');
  return {
    prims,
    values,
    defaultPrim: meta('defaultPrim'),
    upAxis: meta('upAxis'),
    metersPerUnit: mpu === undefined ? undefined : Number(mpu),
  };
}

/** `[(1, 2, 3), (4, 5, 6)]` → [[1, 2, 3], [4, 5, 6]]. */
function tuplesOf(text: string): number[][] {
  return [...text.matchAll(/\(([^()]*)\)/g)].map((m) => m[1]!.split(',').map(Number));
}

const closeTo = (a: number, b: number, tolerance: number) => Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(b));

// ---- 1. The corpus, against TinyUSDZ ----

describe('parseUsda on every text layer of the corpus packages', () => {
  it('finds the text layers (nested packages included), and every .usda entry is one', () => {
    const names = TEXT_LAYERS.map((l) => `${l.pkg}:${l.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'clean_clean.usdz:clean.usd',
        'clean_clean.usdz:shading.usda',
        'clean_clean_usdc.usdz:shading.usda',
        'three-DamagedHelmet.usdz:model.usda',
        'three-DamagedHelmet.usdz:geometries/Geometry_2.usda',
        'three-CesiumMan.usdz:geometries/Geometry_2.usda',
        'single_usda.usdz:test.usda',
        'first_file_not_usd.usdz:test.usda',
        'bad_badUsdz.usdz:clean.usd',
        'bad_badUsdz.usdz:clean.usdz/shading.usda',
        'bad_refAbc.usdz:refAbc.usd',
      ]),
    );
    for (const pkg of corpusFiles('usdz')) {
      for (const e of entriesOf(corpusBytes('usdz', pkg), pkg))
        if (/\.usda$/i.test(e.name)) expect(isText(e.data), `${pkg}:${e.name}`).toBe(true);
    }
  });

  it.each(TEXT_LAYERS.map((l) => [`${l.pkg}:${l.name}`, l] as const))('%s: same prims, header and values as TinyUSDZ', async (_, l) => {
    const layer = parseUsda(l.data, l.name);
    const tiny = tinyFacts(await tinyText(l.data, l.name.split('/').pop()!));

    const ours = new Map(
      [...layer.specs]
        .filter(([, s]) => s.type === 'prim')
        .map(([path, s]) => {
          const t = s.fields.get('typeName');
          return [path, t?.kind === 'token' ? t.value : ''] as const;
        }),
    );
    expect(ours.size).toBeGreaterThan(0);
    expect(ours).toEqual(tiny.prims);

    const meta = (key: string) => {
      const v = field(layer, '/', key);
      return v && (v.kind === 'token' || v.kind === 'string') ? v.value : v?.kind === 'number' ? v.value : undefined;
    };
    expect(meta('defaultPrim')).toBe(tiny.defaultPrim);
    expect(meta('upAxis')).toBe(tiny.upAxis);
    expect(meta('metersPerUnit')).toBe(tiny.metersPerUnit);

    let checked = 0;
    for (const [key, text] of tiny.values) {
      const name = key.slice(key.lastIndexOf('.') + 1);
      if (!['info:id', 'inputs:file', 'points', 'normals'].includes(name)) continue;
      const value = field(layer, key, 'default');
      if (name === 'info:id') {
        expect(value).toEqual({ kind: 'token', value: JSON.parse(text) });
        checked++;
      } else if (name === 'inputs:file') {
        expect(value).toEqual({ kind: 'asset', value: /^@(.*)@$/.exec(text)![1] });
        checked++;
      } else if (name === 'points' || name === 'normals') {
        const expected = tuplesOf(text);
        expect(value?.kind).toBe('array');
        if (value?.kind !== 'array') continue;
        expect(value.value).toBeInstanceOf(Float32Array);
        expect(value.size).toBe(3);
        expect(value.value.length / 3).toBe(expected.length);
        for (const [i, tuple] of [
          [0, expected[0]!],
          [expected.length - 1, expected.at(-1)!],
        ] as const) {
          for (let k = 0; k < 3; k++) expect(closeTo(value.value[i * 3 + k]!, tuple[k]!, 1e-5), `${key}[${i}][${k}]`).toBe(true);
        }
        checked++;
      }
    }
    if (/Geometry_2/.test(l.name)) expect(checked).toBe(2); // points and normals
    if (/shading\.usda$/.test(l.name)) expect(checked).toBeGreaterThan(5);
  });

  it('parses a 1.8 MB three.js geometry layer (speed is measured in bench/, not here)', () => {
    const layer = TEXT_LAYERS.find((l) => l.pkg === 'three-DamagedHelmet.usdz' && l.name === 'geometries/Geometry_2.usda')!;
    expect(layer.data.length).toBeGreaterThan(1_500_000);
    const parsed = parseUsda(layer.data, layer.name);
    const st = field(parsed, '/Geometry/Geometry', 'properties');
    expect(st).toEqual({ kind: 'tokenList', value: expect.arrayContaining(['points', 'normals', 'primvars:st', 'faceVertexIndices']) });
    expect(field(parsed, '/Geometry/Geometry.primvars:st', 'interpolation')).toEqual({ kind: 'token', value: 'vertex' });
  });
});

// ---- 2. Our own writer's output ----

/** A scene that exercises what describeLayer writes: nested transforms, metadata, textures, elements. */
function richScene(positions: Float32Array, normals: Float32Array | undefined, uvs: Float32Array | undefined): SceneData {
  const matrix = newIdentityMatrix();
  matrix.set([0.5, 0.25, -1.125, 0], 0);
  matrix.set([12.5, -3, 0.1, 1], 12);
  const vertices = positions.length / 3;
  const indices = Uint32Array.from({ length: Math.floor(vertices / 3) * 3 }, (_, i) => i);
  const png = { name: 't0', mimeType: 'image/png' as const, data: new Uint8Array([137, 80, 78, 71]) };
  return {
    source: { format: 'glb' },
    nodes: [
      {
        name: 'Root node',
        parent: -1,
        matrix: newIdentityMatrix(),
        meshes: [],
        metadata: { ifcClass: 'IfcWall', 'global id': '2O2Fr$t4X7Zf8NOew3FLOH' },
      },
      { name: 'child', parent: 0, matrix, meshes: [0, 1], metadata: {} },
    ],
    meshes: [
      {
        name: 'mesh a',
        material: 0,
        positions,
        indices,
        ...(normals && { normals }),
        ...(uvs && { uvs }),
        elements: [
          { firstTriangle: 0, triangleCount: indices.length / 3, metadata: { ifcClass: 'IfcDoor', globalId: 'g"1', name: 'Door\n1' } },
        ],
      },
      { name: 'mesh b', material: 1, positions, indices },
    ],
    materials: [
      {
        name: 'textured',
        baseColor: [1, 0.5, 0.1],
        opacity: 0.75,
        metallic: 0.3,
        roughness: 0.6,
        emissive: [0, 0, 0],
        doubleSided: true,
        alphaCutoff: 0.5,
        baseColorTexture: { texture: 0, wrap: ['clamp', 'mirror'] },
        normalTexture: { texture: 0, scale: 0.8 },
        metallicTexture: { texture: 0, channel: 'b' },
        roughnessTexture: { texture: 0, channel: 'g' },
      },
      { name: 'plain', baseColor: [0.2, 0.4, 0.6], opacity: 1, metallic: 0, roughness: 1, emissive: [0.1, 0, 0.3], doubleSided: false },
    ],
    textures: [png],
    offset: [0, 0, 0],
    bounds: { min: [0, 0, 0], max: [0, 0, 0] },
    stats: { nodes: 2, meshNodes: 1, meshes: 2, triangles: indices.length / 3, vertices, materials: 2, textures: 1 },
    warnings: [],
  };
}

/** The value the layer should hold for a UsdValue the writer wrote (floats read back as float32). */
function expectValue(v: UsdValue, got: SdfValue | undefined, where: string): void {
  const f = Math.fround;
  const near = (values: ArrayLike<number>, decimals: number) => {
    expect(got?.kind, where).toBe('array');
    if (got?.kind !== 'array') return;
    expect(got.value, where).toBeInstanceOf(Float32Array);
    expect(got.value.length, where).toBe(values.length);
    for (let i = 0; i < values.length; i++) {
      const tolerance = 0.5 * 10 ** -decimals + Math.abs(values[i]!) * 2 ** -23;
      if (!(Math.abs(got.value[i]! - values[i]!) <= tolerance)) expect.fail(`${where}[${i}]: ${got.value[i]} vs ${values[i]}`);
    }
  };
  switch (v.type) {
    case 'bool':
      expect(got, where).toEqual({ kind: 'bool', value: v.value });
      return;
    case 'int':
      expect(got, where).toEqual({ kind: 'number', type: 'int', value: v.value });
      return;
    case 'float':
      expect(got, where).toEqual({ kind: 'number', type: 'float', value: f(v.value) });
      return;
    case 'double':
      expect(got, where).toEqual({ kind: 'number', type: 'double', value: v.value });
      return;
    case 'token':
    case 'string':
    case 'asset':
      expect(got, where).toEqual({ kind: v.type, value: v.value });
      return;
    case 'float2':
    case 'float3':
    case 'float4':
    case 'color3f':
    case 'normal3f':
      expect(got, where).toEqual({ kind: 'tuple', type: v.type, value: v.value.map(f) });
      return;
    case 'matrix4d':
      expect(got, where).toEqual({ kind: 'tuple', type: 'matrix4d', value: Array.from(v.value) });
      return;
    case 'token[]':
    case 'string[]':
      expect(got, where).toEqual({ kind: 'stringArray', type: v.type, value: v.value });
      return;
    case 'int[]':
      expect(got, where).toEqual({ kind: 'array', type: 'int[]', size: 1, value: Int32Array.from(v.value) });
      return;
    case 'float3[]':
    case 'point3f[]':
      near(v.value, USDA_DECIMALS.position);
      return;
    case 'normal3f[]':
      near(v.value, USDA_DECIMALS.normal);
      return;
    case 'texCoord2f[]':
      near(v.value, USDA_DECIMALS.uv);
      return;
  }
}

/** Checks a parsed layer against the UsdLayer the writer rendered it from. */
function expectWriterLayer(layer: SdfLayer, usd: UsdLayer): number {
  expect(field(layer, '/', 'defaultPrim')).toEqual({ kind: 'token', value: usd.root.name });
  expect(field(layer, '/', 'upAxis')).toEqual({ kind: 'token', value: usd.upAxis });
  expect(field(layer, '/', 'metersPerUnit')).toEqual({ kind: 'number', type: 'double', value: usd.metersPerUnit });
  expect(field(layer, '/', 'customLayerData')).toEqual({
    kind: 'dictionary',
    value: new Map(Object.entries(usd.customLayerData).map(([k, v]) => [k, { kind: 'string', value: v }])),
  });
  expect(field(layer, '/', 'primChildren')).toEqual({ kind: 'tokenList', value: [usd.root.name] });
  let prims = 0;
  const visit = (prim: UsdPrim, path: string) => {
    prims++;
    const s = spec(layer, path);
    expect(s.type).toBe('prim');
    expect(s.fields.get('specifier')).toEqual({ kind: 'specifier', value: 'def' });
    expect(s.fields.get('typeName')).toEqual({ kind: 'token', value: prim.typeName });
    expect(s.fields.get('kind')).toEqual(prim.kind === undefined ? undefined : { kind: 'token', value: prim.kind });
    expect(s.fields.get('apiSchemas')).toEqual(
      prim.apiSchemas ? { kind: 'tokenListOp', value: listOp({ prepended: prim.apiSchemas }) } : undefined,
    );
    const customData = s.fields.get('customData');
    if (prim.customData) {
      expect(customData?.kind).toBe('dictionary');
      if (customData?.kind === 'dictionary') {
        expect([...customData.value.keys()]).toEqual(Object.keys(prim.customData));
        for (const [k, v] of Object.entries(prim.customData)) expectValue(v, customData.value.get(k), `${path} customData ${k}`);
      }
    } else expect(customData).toBeUndefined();
    expect(s.fields.get('primChildren')).toEqual(
      prim.children.length ? { kind: 'tokenList', value: prim.children.map((c) => c.name) } : undefined,
    );
    expect(s.fields.get('properties')).toEqual(
      prim.properties.length ? { kind: 'tokenList', value: prim.properties.map((p) => p.name) } : undefined,
    );
    for (const p of prim.properties) {
      const at = `${path}.${p.name}`;
      const ps = spec(layer, at);
      if (p.kind === 'relationship') {
        expect(ps.type).toBe('relationship');
        expect(ps.fields.get('targetPaths')).toEqual({ kind: 'pathListOp', value: listOp({ explicit: [p.target] }) });
        continue;
      }
      expect(ps.type).toBe('attribute');
      expect(ps.fields.get('typeName'), at).toEqual({ kind: 'token', value: p.type });
      expect(ps.fields.get('variability'), at).toEqual({ kind: 'variability', value: p.uniform ? 'uniform' : 'varying' });
      expect(ps.fields.get('custom')).toEqual({ kind: 'bool', value: false });
      expect(ps.fields.get('interpolation')).toEqual(p.interpolation === undefined ? undefined : { kind: 'token', value: p.interpolation });
      if (p.connect !== undefined)
        expect(ps.fields.get('connectionPaths'), at).toEqual({ kind: 'pathListOp', value: listOp({ explicit: [p.connect] }) });
      else if (p.value) expectValue(p.value, ps.fields.get('default'), at);
      else expect(ps.fields.has('default'), at).toBe(false);
    }
    for (const c of prim.children) visit(c, `${path}/${c.name}`);
  };
  visit(usd.root, `/${usd.root.name}`);
  const primSpecs = [...layer.specs.values()].filter((s) => s.type === 'prim').length;
  expect(primSpecs).toBe(prims);
  return prims;
}

describe("parseUsda on our own writer's USDA", () => {
  it('reads back a textured, nested scene: prims, property types, values, connections, metadata', () => {
    const positions = new Float32Array([0, 0, 0, 1.5, -2.25, 1e-7, 123456.789, 0.333333, -0.5, 3, 2, 1, 7, 8, 9, -1, -2, -3]);
    const normals = new Float32Array([0, 1, 0, 0.6, 0.8, 0, 0, 0, -1, 1, 0, 0, 0.57735, 0.57735, 0.57735, 0, -1, 0]);
    const uvs = new Float32Array([0, 0, 1, 1, 0.25, 0.75, 0.123456, 0.987654, 0.5, 0.5, 1, 0]);
    const usd = describeLayer(richScene(positions, normals, uvs));
    const layer = parseUsda(concat([...renderUsda(usd)]), 'model.usda');
    expect(expectWriterLayer(layer, usd)).toBeGreaterThan(10);
  });

  it("reads back random meshes within the writer's decimals", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 12 })
          .chain((n) =>
            fc.tuple(
              fc.float32Array({ minLength: n * 9, maxLength: n * 9, min: -1e5, max: 1e5, noNaN: true, noDefaultInfinity: true }),
              fc.option(fc.float32Array({ minLength: n * 9, maxLength: n * 9, min: -1, max: 1, noNaN: true })),
              fc.option(fc.float32Array({ minLength: n * 6, maxLength: n * 6, min: 0, max: 1, noNaN: true })),
            ),
          ),
        ([positions, normals, uvs]) => {
          const usd = describeLayer(richScene(positions, normals ?? undefined, uvs ?? undefined));
          expectWriterLayer(parseUsda(concat([...renderUsda(usd)]), 'model.usda'), usd);
        },
      ),
      { numRuns: 60 },
    );
  });
});

// ---- 3. One construct at a time ----

describe('parseUsda: the layer header', () => {
  it(
    'reads layer metadata: defaultPrim, upAxis, metersPerUnit, sublayers ' +
      'with offsets, dictionaries, doc, comment, time codes, unknown keys',
    () => {
      const layer = parse(`(
    "A comment"
    doc = """Line one
line "two\\""""
    defaultPrim = "World"
    upAxis = "Z"
    metersPerUnit = 0.01
    startTimeCode = 1
    endTimeCode = 240
    timeCodesPerSecond = 24
    framePrecision = 3
    subLayers = [
        @a.usda@ (offset = 1; scale = 2),
        @b.usdc@,
        @./c.usda@ (scale = 0.5)
    ]
    customLayerData = {
        string creator = "hand"
        dictionary nested = {
            double3 b = (1, 2, 3)
            int[] c = [1, 2]
        }
        token 'quoted key' = "t"
    }
    myOwnMetadatum = "kept"
    myNumber = 4.5
)
`);
      const root = spec(layer, '/');
      expect(root.type).toBe('pseudoRoot');
      expect(root.fields.get('comment')).toEqual({ kind: 'string', value: 'A comment' });
      expect(root.fields.get('documentation')).toEqual({ kind: 'string', value: 'Line one\nline "two"' });
      expect(root.fields.get('defaultPrim')).toEqual({ kind: 'token', value: 'World' });
      expect(root.fields.get('upAxis')).toEqual({ kind: 'token', value: 'Z' });
      expect(root.fields.get('metersPerUnit')).toEqual({ kind: 'number', type: 'double', value: 0.01 });
      expect(root.fields.get('startTimeCode')).toEqual({ kind: 'number', type: 'double', value: 1 });
      expect(root.fields.get('endTimeCode')).toEqual({ kind: 'number', type: 'double', value: 240 });
      expect(root.fields.get('timeCodesPerSecond')).toEqual({ kind: 'number', type: 'double', value: 24 });
      expect(root.fields.get('framePrecision')).toEqual({ kind: 'number', type: 'int', value: 3 });
      expect(root.fields.get('subLayers')).toEqual({ kind: 'stringList', value: ['a.usda', 'b.usdc', './c.usda'] });
      expect(root.fields.get('subLayerOffsets')).toEqual({
        kind: 'layerOffsets',
        value: [
          { offset: 1, scale: 2 },
          { offset: 0, scale: 1 },
          { offset: 0, scale: 0.5 },
        ],
      });
      expect(root.fields.get('customLayerData')).toEqual({
        kind: 'dictionary',
        value: new Map<string, SdfValue>([
          ['creator', { kind: 'string', value: 'hand' }],
          [
            'nested',
            {
              kind: 'dictionary',
              value: new Map<string, SdfValue>([
                ['b', { kind: 'tuple', type: 'double3', value: [1, 2, 3] }],
                ['c', { kind: 'array', type: 'int[]', size: 1, value: Int32Array.of(1, 2) }],
              ]),
            },
          ],
          ['quoted key', { kind: 'token', value: 't' }],
        ]),
      });
      expect(root.fields.get('myOwnMetadatum')).toEqual({ kind: 'string', value: 'kept' });
      expect(root.fields.get('myNumber')).toEqual({ kind: 'number', type: 'double', value: 4.5 });
      expect(root.fields.has('primChildren')).toBe(false); // no prim statements at all
    },
  );

  it('refuses a missing or wrong header, and names file, line and what was expected', () => {
    expect(refusal('def "A" {}', '').message).toBe('test.usda line 1: expected the "#usda 1.0" header on the first line, found "def"');
    expect(refusal('', '#sdf 1.4\n').message).toMatch(/^test\.usda line 1: the header "#sdf 1\.4" is not/);
    // A '#' after line 1 is a comment, not the header.
    expect(refusal('\ndef "A" {}', '\n#usda 1.0').message).toBe(
      'test.usda line 3: expected the "#usda 1.0" header on the first line, found "def"',
    );
    expect(refusal('(\n  metersPerUnit = "one"\n)').message).toBe('test.usda line 3: expected a number for double, found string "one"');
    const e = refusal('def Shader "S"\n{\n    asset inputs:file {\n}\n');
    expect(e.message).toBe('test.usda line 4: expected "=" after attribute name inputs:file, found "{"');
    expect(e.code).toBe('usd_unreadable');
  });

  it("passes the caller's file name and field to its errors", () => {
    try {
      parseUsda('#usda 1.0\ndef', 'a.usda', { fileName: 'upload.usdz', field: 'model' });
      expect.fail('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(UsdUnreadableError);
      expect((e as UsdUnreadableError).fileName).toBe('upload.usdz');
      expect((e as UsdUnreadableError).field).toBe('model');
      expect((e as Error).message).toBe('a.usda line 2: expected a prim name in quotes after "def", found end of file');
    }
  });
});

describe('parseUsda: prims', () => {
  it('reads def/over/class, type names, children and their order, at the root and below', () => {
    const layer = parse(`
def Xform "World"
{
    def "Untyped" {}
    over Mesh "Over" {
    }
    class "_Class" { }
    def a::b::Cxx "Namespaced" {}
}
over "Second" {}
class Scope "Third" {}
`);
    expect(field(layer, '/', 'primChildren')).toEqual({ kind: 'tokenList', value: ['World', 'Second', 'Third'] });
    expect(field(layer, '/World', 'primChildren')).toEqual({ kind: 'tokenList', value: ['Untyped', 'Over', '_Class', 'Namespaced'] });
    expect(field(layer, '/World', 'specifier')).toEqual({ kind: 'specifier', value: 'def' });
    expect(field(layer, '/World', 'typeName')).toEqual({ kind: 'token', value: 'Xform' });
    expect(field(layer, '/World/Untyped', 'typeName')).toBeUndefined();
    expect(field(layer, '/World/Over', 'specifier')).toEqual({ kind: 'specifier', value: 'over' });
    expect(field(layer, '/World/Over', 'typeName')).toEqual({ kind: 'token', value: 'Mesh' });
    expect(field(layer, '/World/_Class', 'specifier')).toEqual({ kind: 'specifier', value: 'class' });
    expect(field(layer, '/World/Namespaced', 'typeName')).toEqual({ kind: 'token', value: 'a::b::Cxx' });
    expect(field(layer, '/Second', 'specifier')).toEqual({ kind: 'specifier', value: 'over' });
    expect(field(layer, '/Third', 'typeName')).toEqual({ kind: 'token', value: 'Scope' });
    expect(field(layer, '/World/Untyped', 'primChildren')).toBeUndefined();
    expect(spec(layer, '/World/Untyped').type).toBe('prim');
  });

  it('reads list-op metadata: references, payloads, inherits, specializes, apiSchemas, variantSets, in every form', () => {
    const layer = parse(`
def "A" (
    references = @a.usda@</Prim> (offset = 2; scale = 0.5)
    prepend payload = [@p.usda@, @q.usda@</Q>]
    inherits = </_Class>
    prepend specializes = [</Base>, <../Sibling>]
    prepend apiSchemas = ["MaterialBindingAPI", "SkelBindingAPI"]
    delete apiSchemas = ["Old"]
    prepend variantSets = "shape"
)
{
    def "B" (
        prepend references = </Other>
        append references = @a.usda@
        delete references = [@gone.usda@</X>, </Y>]
        add references = @added.usda@ (customData = { string why = "kept out of the model" })
        reorder references = [</Other>, @a.usda@]
        append inherits = <Cls>
        delete inherits = [</A/Old>]
        payload = None
        specializes = []
        apiSchemas = ["OnlyThis"]
        variantSets = ["a", "b"]
    ) {}
    def "C" (references = None; prepend variantSets = ["x", "y"]) {}
}
`);
    expect(field(layer, '/A', 'references')).toEqual({
      kind: 'referenceListOp',
      value: listOp({ explicit: [ref('a.usda', '/Prim', 2, 0.5)] }),
    });
    expect(field(layer, '/A', 'payload')).toEqual({
      kind: 'payloadListOp',
      value: listOp({ prepended: [ref('p.usda', ''), ref('q.usda', '/Q')] }),
    });
    expect(field(layer, '/A', 'inheritPaths')).toEqual({ kind: 'pathListOp', value: listOp({ explicit: ['/_Class'] }) });
    expect(field(layer, '/A', 'specializes')).toEqual({ kind: 'pathListOp', value: listOp({ prepended: ['/Base', '/Sibling'] }) });
    // A later list-op statement edits the same list op; prepend and delete coexist.
    expect(field(layer, '/A', 'apiSchemas')).toEqual({
      kind: 'tokenListOp',
      value: listOp({ prepended: ['MaterialBindingAPI', 'SkelBindingAPI'], deleted: ['Old'] }),
    });
    expect(field(layer, '/A', 'variantSetNames')).toEqual({ kind: 'stringListOp', value: listOp({ prepended: ['shape'] }) });
    expect(field(layer, '/A', 'variantSetChildren')).toBeUndefined(); // only explicit or added names make variant sets

    expect(field(layer, '/A/B', 'references')).toEqual({
      kind: 'referenceListOp',
      value: listOp({
        prepended: [ref('', '/Other')],
        appended: [ref('a.usda', '')],
        deleted: [ref('gone.usda', '/X'), ref('', '/Y')],
        added: [ref('added.usda', '')],
        ordered: [ref('', '/Other'), ref('a.usda', '')],
      }),
    });
    expect(field(layer, '/A/B', 'inheritPaths')).toEqual({
      kind: 'pathListOp',
      value: listOp({ appended: ['/A/B/Cls'], deleted: ['/A/Old'] }),
    });
    expect(field(layer, '/A/B', 'payload')).toEqual({ kind: 'payloadListOp', value: listOp({ explicit: [] }) });
    expect(field(layer, '/A/B', 'specializes')).toEqual({ kind: 'pathListOp', value: listOp({ explicit: [] }) });
    expect(field(layer, '/A/B', 'apiSchemas')).toEqual({ kind: 'tokenListOp', value: listOp({ explicit: ['OnlyThis'] }) });
    expect(field(layer, '/A/B', 'variantSetNames')).toEqual({ kind: 'stringListOp', value: listOp({ explicit: ['a', 'b'] }) });
    expect(field(layer, '/A/B', 'variantSetChildren')).toEqual({ kind: 'tokenList', value: ['a', 'b'] });
    expect(spec(layer, '/A/B{a=}').type).toBe('variantSet');
    expect(spec(layer, '/A/B{b=}').type).toBe('variantSet');
    expect(field(layer, '/A/C', 'references')).toEqual({ kind: 'referenceListOp', value: listOp({ explicit: [] }) });
    expect(field(layer, '/A/C', 'variantSetNames')).toEqual({ kind: 'stringListOp', value: listOp({ prepended: ['x', 'y'] }) });
  });

  it('an explicit list replaces edits and edits replace an explicit list, as SdfListOp does', () => {
    const layer = parse(`def "A" (
    prepend apiSchemas = ["P"]
    apiSchemas = ["E"]
) {}
def "B" (
    apiSchemas = ["E"]
    append apiSchemas = ["Q"]
) {}`);
    expect(field(layer, '/A', 'apiSchemas')).toEqual({ kind: 'tokenListOp', value: listOp({ explicit: ['E'] }) });
    expect(field(layer, '/B', 'apiSchemas')).toEqual({ kind: 'tokenListOp', value: listOp({ appended: ['Q'] }) });
  });

  it(
    'reads the other prim metadata: variants, kind, instanceable, active, hidden, ' +
      'dictionaries, doc, permission, symmetry, displayName, payloadAssetDependencies',
    () => {
      const layer = parse(`
def "A" (
    variants = {
        string shape = "sphere"
    }
    variants = {
        string color = "red"
    }
    kind = "component"
    instanceable = true
    active = false
    hidden = 1
    customData = {
        int a = 1
        dictionary deeper = {
            string[] s = ["x", 'y']
            bool b = yes
        }
    }
    assetInfo = {
        asset identifier = @./chair.usd@
        string version = "1.0"
    }
    doc = "Documented"
    "A comment"
    permission = private
    symmetryFunction =
    displayName = "Ä name"
    payloadAssetDependencies = [@a.png@, @b.png@]
    sceneName = "three.js says so"
    typeName = "Sphere"
    prefixSubstitutions = { "$A": "/x", "$B": "/y" }
) {}
def "B" (symmetryFunction = mirror; permission = public) {}
`);
      const a = spec(layer, '/A').fields;
      expect(a.get('variantSelection')).toEqual({
        kind: 'variantSelection',
        value: new Map([
          ['color', 'red'],
          ['shape', 'sphere'],
        ]),
      });
      expect(a.get('kind')).toEqual({ kind: 'token', value: 'component' });
      expect(a.get('instanceable')).toEqual({ kind: 'bool', value: true });
      expect(a.get('active')).toEqual({ kind: 'bool', value: false });
      expect(a.get('hidden')).toEqual({ kind: 'bool', value: true });
      expect(a.get('customData')).toEqual({
        kind: 'dictionary',
        value: new Map<string, SdfValue>([
          ['a', { kind: 'number', type: 'int', value: 1 }],
          [
            'deeper',
            {
              kind: 'dictionary',
              value: new Map<string, SdfValue>([
                ['b', { kind: 'bool', value: true }],
                ['s', { kind: 'stringArray', type: 'string[]', value: ['x', 'y'] }],
              ]),
            },
          ],
        ]),
      });
      expect(a.get('assetInfo')).toEqual({
        kind: 'dictionary',
        value: new Map<string, SdfValue>([
          ['identifier', { kind: 'asset', value: './chair.usd' }],
          ['version', { kind: 'string', value: '1.0' }],
        ]),
      });
      expect(a.get('documentation')).toEqual({ kind: 'string', value: 'Documented' });
      expect(a.get('comment')).toEqual({ kind: 'string', value: 'A comment' });
      expect(a.get('permission')).toEqual({ kind: 'permission', value: 'private' });
      expect(a.get('symmetryFunction')).toEqual({ kind: 'token', value: '' });
      expect(a.get('displayName')).toEqual({ kind: 'string', value: 'Ä name' });
      expect(a.get('payloadAssetDependencies')).toEqual({ kind: 'stringArray', type: 'asset[]', value: ['a.png', 'b.png'] });
      expect(a.get('sceneName')).toEqual({ kind: 'string', value: 'three.js says so' });
      expect(a.get('typeName')).toEqual({ kind: 'token', value: 'Sphere' });
      expect(a.get('prefixSubstitutions')).toEqual({
        kind: 'dictionary',
        value: new Map([
          ['$A', { kind: 'string', value: '/x' }],
          ['$B', { kind: 'string', value: '/y' }],
        ]),
      });
      expect(field(layer, '/B', 'symmetryFunction')).toEqual({ kind: 'token', value: 'mirror' });
      expect(field(layer, '/B', 'permission')).toEqual({ kind: 'permission', value: 'public' });
    },
  );

  it('reads reorder nameChildren / properties as primOrder / propertyOrder, and reorder rootPrims', () => {
    const layer = parse(`
reorder rootPrims = ["B", "A"]
def "A" {
    reorder nameChildren = ["c2", "c1"]
    reorder properties = ["y", "x"]
    float x = 1
    float y = 2
    def "c1" {}
    def "c2" {}
}
def "B" {}
`);
    expect(field(layer, '/', 'primOrder')).toEqual({ kind: 'tokenList', value: ['B', 'A'] });
    expect(field(layer, '/A', 'primOrder')).toEqual({ kind: 'tokenList', value: ['c2', 'c1'] });
    expect(field(layer, '/A', 'propertyOrder')).toEqual({ kind: 'tokenList', value: ['y', 'x'] });
    expect(field(layer, '/A', 'primChildren')).toEqual({ kind: 'tokenList', value: ['c1', 'c2'] });
    expect(field(layer, '/A', 'properties')).toEqual({ kind: 'tokenList', value: ['x', 'y'] });
  });

  it('refuses duplicate prims, bad names and unclosed bodies', () => {
    expect(refusal('def "A" {}\ndef "A" {}').message).toBe('test.usda line 3: duplicate prim /A');
    expect(refusal('def "not valid" {}').message).toBe('test.usda line 2: "not valid" is not a valid prim name');
    expect(refusal('def "A" {\n  def "B" {\n}').message).toBe('test.usda line 4: expected "}" to close /A, found end of file');
    expect(refusal('def "A" (\n  kind = "x"\n').message).toMatch(/^test\.usda line 4: expected "\)" to close the metadata of \/A/);
    expect(refusal('def "A" (kind = "x" active = true) {}').message).toBe(
      'test.usda line 2: expected a new line or ";" between metadata of /A, found "active"',
    );
    expect(refusal('def "A" (prepend references = None) {}').message).toMatch(
      /references to None \(or an empty list\) is only allowed for an explicit list/,
    );
    expect(refusal('def "A" (references = </A.x>) {}').message).toMatch(/must be an absolute prim path/);
    expect(refusal('def "A" (references = <Rel>) {}').message).toMatch(/must be an absolute prim path/);
    expect(refusal('def "A" (inherits = </B{v=x}>) {}').message).toMatch(/cannot contain variant selections/);
    expect(refusal('def "A" (apiSchemas = ["X", "X"]) {}').message).toBe('test.usda line 2: duplicate items in apiSchemas');
    expect(refusal('def "A" (prepend kind = "x") {}').message).toBe('test.usda line 2: "prepend" does not apply to kind');
    expect(refusal('def "A" (specifier = "def") {}').message).toMatch(/"specifier" is a field that cannot be written as metadata/);
  });
});

describe('parseUsda: variant sets', () => {
  it("puts variant sets, variants and what they hold at USD's variant paths", () => {
    const layer = parse(`
def Xform "Prim" (
    variants = {
        string shape = "sphere"
    }
    prepend variantSets = ["shape"]
)
{
    variantSet "shape" = {
        "sphere" (
            doc = "round"
        ) {
            float radius = 2
            rel binding = <../Looks/M>
            def Sphere "Child" {
                color3f c = (1, 0, 0)
                float inputs:x.connect = <.inputs:y>
                def "Grandchild" {}
            }
            variantSet "color" = {
                "red" {
                    token hue = "red"
                }
            }
        }
        "cube" {
            def Cube "Child" {}
        }
    }
}
`);
    expect(field(layer, '/Prim', 'variantSetChildren')).toEqual({ kind: 'tokenList', value: ['shape'] });
    expect(field(layer, '/Prim', 'variantSetNames')).toEqual({ kind: 'stringListOp', value: listOp({ prepended: ['shape'] }) });
    expect(field(layer, '/Prim', 'primChildren')).toBeUndefined(); // prims in variants are not the prim's own children
    expect(spec(layer, '/Prim{shape=}')).toEqual({
      type: 'variantSet',
      fields: new Map([['variantChildren', { kind: 'tokenList', value: ['sphere', 'cube'] }]]),
    });
    const sphere = spec(layer, '/Prim{shape=sphere}');
    expect(sphere.type).toBe('variant');
    expect(sphere.fields.get('documentation')).toEqual({ kind: 'string', value: 'round' });
    expect(sphere.fields.get('primChildren')).toEqual({ kind: 'tokenList', value: ['Child'] });
    expect(sphere.fields.get('properties')).toEqual({ kind: 'tokenList', value: ['radius', 'binding'] });
    expect(sphere.fields.get('variantSetChildren')).toEqual({ kind: 'tokenList', value: ['color'] });
    expect(field(layer, '/Prim{shape=sphere}.radius', 'default')).toEqual({ kind: 'number', type: 'float', value: 2 });
    // Relative paths inside a variant resolve against the prim the variant belongs to.
    expect(field(layer, '/Prim{shape=sphere}.binding', 'targetPaths')).toEqual({
      kind: 'pathListOp',
      value: listOp({ explicit: ['/Looks/M'] }),
    });
    expect(field(layer, '/Prim{shape=sphere}Child', 'typeName')).toEqual({ kind: 'token', value: 'Sphere' });
    expect(field(layer, '/Prim{shape=sphere}Child', 'primChildren')).toEqual({ kind: 'tokenList', value: ['Grandchild'] });
    expect(field(layer, '/Prim{shape=sphere}Child.c', 'default')).toEqual({ kind: 'tuple', type: 'color3f', value: [1, 0, 0] });
    expect(field(layer, '/Prim{shape=sphere}Child.inputs:x', 'connectionPaths')).toEqual({
      kind: 'pathListOp',
      value: listOp({ explicit: ['/Prim/Child.inputs:y'] }),
    });
    expect(spec(layer, '/Prim{shape=sphere}Child/Grandchild').type).toBe('prim');
    expect(spec(layer, '/Prim{shape=sphere}{color=}').fields.get('variantChildren')).toEqual({ kind: 'tokenList', value: ['red'] });
    expect(field(layer, '/Prim{shape=sphere}{color=red}.hue', 'default')).toEqual({ kind: 'token', value: 'red' });
    expect(field(layer, '/Prim{shape=sphere}{color=red}', 'properties')).toEqual({ kind: 'tokenList', value: ['hue'] });
    expect(field(layer, '/Prim{shape=cube}Child', 'typeName')).toEqual({ kind: 'token', value: 'Cube' });
    expect(spec(layer, '/Prim{shape=cube}').fields.get('primChildren')).toEqual({ kind: 'tokenList', value: ['Child'] });
  });

  it('refuses an empty variant set and a duplicate prim inside a variant', () => {
    expect(refusal('def "P" {\n  variantSet "s" = {\n  }\n}').message).toBe('test.usda line 4: variantSet "s" has no variants');
    expect(refusal('def "P" {\n  variantSet "s" = {\n    "a" { def "X" {}\n def "X" {} }\n  }\n}').message).toBe(
      'test.usda line 5: duplicate prim /P{s=a}X',
    );
  });
});

describe('parseUsda: attributes', () => {
  const cases: Array<[string, SdfValue]> = [
    ['double3 xformOp:translate = (1, 2, 3)', { kind: 'tuple', type: 'double3', value: [1, 2, 3] }],
    // Text writes quaternions real part first; the layer holds [x, y, z, w].
    ['quatf xformOp:orient = (1, 0, 0.5, 0)', { kind: 'tuple', type: 'quatf', value: [0, 0.5, 0, 1] }],
    ['quatd q = (0.25, 1, 2, 3)', { kind: 'tuple', type: 'quatd', value: [1, 2, 3, 0.25] }],
    ['quath qh = (0.5, 0, -1, 2)', { kind: 'tuple', type: 'quath', value: [0, -1, 2, 0.5] }],
    [
      'matrix4d xformOp:transform = ( (1,0,0,0), (0,1,0,0), (0,0,1,0), (5,0,0,1) )',
      { kind: 'tuple', type: 'matrix4d', value: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1] },
    ],
    ['matrix2d m2 = ((1, 2), (3, 4))', { kind: 'tuple', type: 'matrix2d', value: [1, 2, 3, 4] }],
    ['matrix3d m3 = ((1, 2, 3), (4, 5, 6), (7, 8, 9))', { kind: 'tuple', type: 'matrix3d', value: [1, 2, 3, 4, 5, 6, 7, 8, 9] }],
    [
      'frame4d f = ((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1))',
      { kind: 'tuple', type: 'frame4d', value: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] },
    ],
    ['asset inputs:file = @tex.png@', { kind: 'asset', value: 'tex.png' }],
    ['asset quotedAsset = "tex.png"', { kind: 'asset', value: 'tex.png' }],
    ['asset tripleAsset = @@@we@ird@@.png@@@', { kind: 'asset', value: 'we@ird@@.png' }],
    [
      'uniform token[] xformOpOrder = ["xformOp:translate", "!invert!xformOp:rotateXYZ"]',
      { kind: 'stringArray', type: 'token[]', value: ['xformOp:translate', '!invert!xformOp:rotateXYZ'] },
    ],
    ['int[] primvars:st:indices = [0, 1, 2, 0]', { kind: 'array', type: 'int[]', size: 1, value: Int32Array.of(0, 1, 2, 0) }],
    ['uniform bool doubleSided = 1', { kind: 'bool', value: true }],
    ['bool other = false', { kind: 'bool', value: false }],
    ['float inputs:opacity = None', { kind: 'none' }],
    ['float f = 0.1', { kind: 'number', type: 'float', value: Math.fround(0.1) }],
    // 0.1 as float16 is 0x2E66 = 1638 / 16384.
    ['half h = 0.1', { kind: 'number', type: 'half', value: 1638 / 16384 }],
    [
      'half[] hs = [0.1, 65504, 65520, -1e-8, 1e-7]',
      { kind: 'array', type: 'half[]', size: 1, value: Float32Array.of(1638 / 16384, 65504, Infinity, -0, 2 ** -23) },
    ],
    ['int64 big = -9007199254740991', { kind: 'number', type: 'int64', value: -9007199254740991 }],
    ['uint64 ubig = 9007199254740991', { kind: 'number', type: 'uint64', value: 9007199254740991 }],
    ['uchar u = 255', { kind: 'number', type: 'uchar', value: 255 }],
    ['uint ui = 4294967295', { kind: 'number', type: 'uint', value: 4294967295 }],
    ['int truncated = -2.7', { kind: 'number', type: 'int', value: -2 }],
    ['double d = -2.5e-3', { kind: 'number', type: 'double', value: -0.0025 }],
    ['double e = 1E+3', { kind: 'number', type: 'double', value: 1000 }],
    ['double dot = .5', { kind: 'number', type: 'double', value: 0.5 }],
    ['double trailingDot = 5.', { kind: 'number', type: 'double', value: 5 }],
    ['double negZero = -0', { kind: 'number', type: 'double', value: -0 }],
    ['double pinf = inf', { kind: 'number', type: 'double', value: Infinity }],
    ['double ninf = -inf', { kind: 'number', type: 'double', value: -Infinity }],
    ['float fnan = nan', { kind: 'number', type: 'float', value: NaN }],
    ['double[] ds = [1, -inf, "nan", 2.5]', { kind: 'array', type: 'double[]', size: 1, value: Float64Array.of(1, -Infinity, NaN, 2.5) }],
    ['timecode tc = 24', { kind: 'number', type: 'timecode', value: 24 }],
    ['string s = "a \\"quoted\\" \\x41\\101 \\u"', { kind: 'string', value: 'a "quoted" AA u' }],
    ["token t = 'single'", { kind: 'token', value: 'single' }],
    ['int2 i2 = (1, -2)', { kind: 'tuple', type: 'int2', value: [1, -2] }],
    ['int3 i3 = (1, 2, 3)', { kind: 'tuple', type: 'int3', value: [1, 2, 3] }],
    ['int4 i4 = (1, 2, 3, 4)', { kind: 'tuple', type: 'int4', value: [1, 2, 3, 4] }],
    ['float2 f2 = (0.5, 1.5)', { kind: 'tuple', type: 'float2', value: [0.5, 1.5] }],
    ['float3 f3 = (0.1, 0.2, 0.3)', { kind: 'tuple', type: 'float3', value: [0.1, 0.2, 0.3].map(Math.fround) }],
    ['float4 f4 = (1, 2, 3, 4,)', { kind: 'tuple', type: 'float4', value: [1, 2, 3, 4] }],
    ['double2 d2 = (0.1, 0.2)', { kind: 'tuple', type: 'double2', value: [0.1, 0.2] }],
    ['double4 d4 = (1, 2, 3, 4)', { kind: 'tuple', type: 'double4', value: [1, 2, 3, 4] }],
    ['half2 h2 = (0.1, 2)', { kind: 'tuple', type: 'half2', value: [1638 / 16384, 2] }],
    ['half3 h3 = (1, 2, 3)', { kind: 'tuple', type: 'half3', value: [1, 2, 3] }],
    ['half4 h4 = (1, 2, 3, 4)', { kind: 'tuple', type: 'half4', value: [1, 2, 3, 4] }],
    ['point3f p3f = (1, 2, 3)', { kind: 'tuple', type: 'point3f', value: [1, 2, 3] }],
    ['point3d p3d = (0.1, 2, 3)', { kind: 'tuple', type: 'point3d', value: [0.1, 2, 3] }],
    ['point3h p3h = (1, 2, 3)', { kind: 'tuple', type: 'point3h', value: [1, 2, 3] }],
    ['normal3f n = (0, 1, 0)', { kind: 'tuple', type: 'normal3f', value: [0, 1, 0] }],
    ['vector3f v = (0, 0, -1)', { kind: 'tuple', type: 'vector3f', value: [0, 0, -1] }],
    ['color3f inputs:diffuseColor = (0.8, 0.2, 0.1)', { kind: 'tuple', type: 'color3f', value: [0.8, 0.2, 0.1].map(Math.fround) }],
    ['color4f c4 = (1, 1, 1, 0.5)', { kind: 'tuple', type: 'color4f', value: [1, 1, 1, 0.5] }],
    ['texCoord2f tc2 = (0.25, 0.75)', { kind: 'tuple', type: 'texCoord2f', value: [0.25, 0.75] }],
    ['texCoord3f tc3 = (0.25, 0.75, 1)', { kind: 'tuple', type: 'texCoord3f', value: [0.25, 0.75, 1] }],
    [
      'point3f[] points = [(0,0,0), (1,0,0), (1, 1, -1e-3)]',
      { kind: 'array', type: 'point3f[]', size: 3, value: Float32Array.of(0, 0, 0, 1, 0, 0, 1, 1, -1e-3) },
    ],
    ['normal3f[] normals = []', { kind: 'array', type: 'normal3f[]', size: 3, value: new Float32Array(0) }],
    [
      'texCoord2f[] primvars:uv = [(0, 1), (0.5, 0.25),]',
      { kind: 'array', type: 'texCoord2f[]', size: 2, value: Float32Array.of(0, 1, 0.5, 0.25) },
    ],
    ['double3[] d3s = [(1, 2, 3)]', { kind: 'array', type: 'double3[]', size: 3, value: Float64Array.of(1, 2, 3) }],
    ['int3[] i3s = [(1, 2, 3), (4, 5, 6)]', { kind: 'array', type: 'int3[]', size: 3, value: Int32Array.of(1, 2, 3, 4, 5, 6) }],
    ['uint[] uis = [1, 4294967295]', { kind: 'array', type: 'uint[]', size: 1, value: Uint32Array.of(1, 4294967295) }],
    ['uchar[] ucs = [0, 255]', { kind: 'array', type: 'uchar[]', size: 1, value: Uint8Array.of(0, 255) }],
    ['bool[] bs = [1, 0, true, False, 2]', { kind: 'array', type: 'bool[]', size: 1, value: Uint8Array.of(1, 0, 1, 0, 1) }],
    ['float[] fs = [1.5, 0.1]', { kind: 'array', type: 'float[]', size: 1, value: Float32Array.of(1.5, 0.1) }],
    ['int64[] i64s = [-1, 9007199254740991]', { kind: 'array', type: 'int64[]', size: 1, value: Float64Array.of(-1, 9007199254740991) }],
    ['color4f[] c4s = [(1, 0, 0, 1)]', { kind: 'array', type: 'color4f[]', size: 4, value: Float32Array.of(1, 0, 0, 1) }],
    [
      'quatf[] qs = [(1, 0, 0, 0), (0.5, 1, 2, 3)]',
      { kind: 'array', type: 'quatf[]', size: 4, value: Float32Array.of(0, 0, 0, 1, 1, 2, 3, 0.5) },
    ],
    [
      'matrix4d[] ms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(1,2,3,1))]',
      { kind: 'array', type: 'matrix4d[]', size: 16, value: Float64Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1) },
    ],
    ['string[] ss = ["a", \'b\', """c"""]', { kind: 'stringArray', type: 'string[]', value: ['a', 'b', 'c'] }],
    ['asset[] as = [@a.png@, "b.png"]', { kind: 'stringArray', type: 'asset[]', value: ['a.png', 'b.png'] }],
  ];

  it.each(cases)('%s', (decl, expected) => {
    const layer = parse(`def "P" {\n    ${decl}\n}\n`);
    const name = /\s([\w:]+)\s*=/.exec(decl)![1]!;
    const s = spec(layer, `/P.${name}`);
    expect(s.type).toBe('attribute');
    expect(s.fields.get('default')).toEqual(expected);
    const typeName = /^(?:uniform )?([\w]+(?:\[\])?)/.exec(decl)![1];
    expect(s.fields.get('typeName')).toEqual({ kind: 'token', value: typeName });
    expect(s.fields.get('variability')).toEqual({ kind: 'variability', value: decl.startsWith('uniform') ? 'uniform' : 'varying' });
    expect(s.fields.get('custom')).toEqual({ kind: 'bool', value: false });
  });

  it('reads declarations, custom, uniform, config, connections in every form, time samples and metadata', () => {
    const layer = parse(`
def Shader "S"
{
    color3f outputs:rgb
    custom uniform double custom:thing = 2 (
        doc = "Custom"
    )
    config int legacy = 1
    color3f inputs:diffuseColor.connect = </M/S.outputs:rgb>
    float inputs:many.connect = [</A.x>, <../B.y>, <Sibling>]
    prepend float inputs:many.connect = </P.z>
    delete float inputs:many.connect = [</Q.z>]
    float inputs:none.connect = None
    float3 xformOp:rotateXYZ.timeSamples = {
        0: (0, 0, 0),
        10: (0, 90, 0),
        -5.5: (1, 2, 3),
        20: None,
    }
    float3 xformOp:rotateXYZ = (1, 1, 1)
    texCoord2f[] primvars:st = [(0, 0)] (
        interpolation = "faceVarying"
        elementSize = 2
        customData = {
            string note = "n"
        }
        doc = "UVs"
        colorSpace = "raw"
        displayName = "St"
        hidden = true
        connectability = "interfaceOnly"
        renderType = "vector"
        allowedTokens = ["a", "b"]
        displayGroup = "Primvars"
        permission = private
        symmetryFunction = flip
        displayUnit = centimeters
        unknownAttrMeta = 3
    )
}
`);
    const s = (name: string) => spec(layer, `/S.${name}`).fields;
    expect(field(layer, '/S', 'properties')).toEqual({
      kind: 'tokenList',
      value: [
        'outputs:rgb',
        'custom:thing',
        'legacy',
        'inputs:diffuseColor',
        'inputs:many',
        'inputs:none',
        'xformOp:rotateXYZ',
        'primvars:st',
      ],
    });
    expect(s('outputs:rgb')).toEqual(
      new Map<string, SdfValue>([
        ['custom', { kind: 'bool', value: false }],
        ['typeName', { kind: 'token', value: 'color3f' }],
        ['variability', { kind: 'variability', value: 'varying' }],
      ]),
    );
    expect(s('custom:thing').get('custom')).toEqual({ kind: 'bool', value: true });
    expect(s('custom:thing').get('variability')).toEqual({ kind: 'variability', value: 'uniform' });
    expect(s('custom:thing').get('documentation')).toEqual({ kind: 'string', value: 'Custom' });
    expect(s('legacy').get('variability')).toEqual({ kind: 'variability', value: 'uniform' });
    expect(s('inputs:diffuseColor').get('connectionPaths')).toEqual({
      kind: 'pathListOp',
      value: listOp({ explicit: ['/M/S.outputs:rgb'] }),
    });
    expect(s('inputs:diffuseColor').has('default')).toBe(false);
    // The explicit list goes when a list-op edit of the same field follows (SdfListOp::SetItems).
    expect(s('inputs:many').get('connectionPaths')).toEqual({
      kind: 'pathListOp',
      value: listOp({ prepended: ['/P.z'], deleted: ['/Q.z'] }),
    });
    expect(s('inputs:none').get('connectionPaths')).toEqual({ kind: 'pathListOp', value: listOp({ explicit: [] }) });
    expect(s('xformOp:rotateXYZ').get('timeSamples')).toEqual({
      kind: 'timeSamples',
      value: new Map<number, SdfValue>([
        [-5.5, { kind: 'tuple', type: 'float3', value: [1, 2, 3] }],
        [0, { kind: 'tuple', type: 'float3', value: [0, 0, 0] }],
        [10, { kind: 'tuple', type: 'float3', value: [0, 90, 0] }],
        [20, { kind: 'none' }],
      ]),
    });
    expect([...(s('xformOp:rotateXYZ').get('timeSamples') as { value: Map<number, SdfValue> }).value.keys()]).toEqual([-5.5, 0, 10, 20]);
    expect(s('xformOp:rotateXYZ').get('default')).toEqual({ kind: 'tuple', type: 'float3', value: [1, 1, 1] });
    const st = s('primvars:st');
    expect(st.get('interpolation')).toEqual({ kind: 'token', value: 'faceVarying' });
    expect(st.get('elementSize')).toEqual({ kind: 'number', type: 'int', value: 2 });
    expect(st.get('customData')).toEqual({ kind: 'dictionary', value: new Map([['note', { kind: 'string', value: 'n' }]]) });
    expect(st.get('documentation')).toEqual({ kind: 'string', value: 'UVs' });
    expect(st.get('colorSpace')).toEqual({ kind: 'token', value: 'raw' });
    expect(st.get('displayName')).toEqual({ kind: 'string', value: 'St' });
    expect(st.get('hidden')).toEqual({ kind: 'bool', value: true });
    expect(st.get('connectability')).toEqual({ kind: 'token', value: 'interfaceOnly' });
    expect(st.get('renderType')).toEqual({ kind: 'token', value: 'vector' });
    expect(st.get('allowedTokens')).toEqual({ kind: 'stringArray', type: 'token[]', value: ['a', 'b'] });
    expect(st.get('displayGroup')).toEqual({ kind: 'string', value: 'Primvars' });
    expect(st.get('permission')).toEqual({ kind: 'permission', value: 'private' });
    expect(st.get('symmetryFunction')).toEqual({ kind: 'token', value: 'flip' });
    expect(st.get('displayUnit')).toEqual({ kind: 'token', value: 'centimeters' });
    expect(st.get('unknownAttrMeta')).toEqual({ kind: 'number', type: 'double', value: 3 });
    expect(st.get('default')).toEqual({ kind: 'array', type: 'texCoord2f[]', size: 2, value: Float32Array.of(0, 0) });
  });

  it('resolves connection paths written relative to the prim they are in', () => {
    const layer = parse(`
def "M" {
    def "S" {
        float a.connect = <.b>
        float c.connect = [<../T.outputs:out>, <Child.x>, <../../Top>, </Abs/Path.p>, <..>]
    }
}
`);
    expect(field(layer, '/M/S.a', 'connectionPaths')).toEqual({ kind: 'pathListOp', value: listOp({ explicit: ['/M/S.b'] }) });
    expect(field(layer, '/M/S.c', 'connectionPaths')).toEqual({
      kind: 'pathListOp',
      value: listOp({ explicit: ['/M/T.outputs:out', '/M/S/Child.x', '/Top', '/Abs/Path.p', '/M'] }),
    });
    expect(refusal('def "A" {\n  float x.connect = <../../..>\n}').message).toMatch(
      /^test\.usda line 3: <\.\.\/\.\.\/\.\.> climbs above the root/,
    );
    expect(refusal('def "A" {\n  float x.connect = </A.rel[/B]>\n}').message).toMatch(/target path/);
  });

  it('refuses malformed attributes with the line and what was expected', () => {
    const cases: Array<[string, RegExp]> = [
      ['float3 a = (1, 2)', /^test\.usda line 3: a float3 value needs 3 components in each tuple, found 2$/],
      ['float3 a = (1, 2, 3, 4)', /needs 3 components in each tuple, found 4/],
      ['float3 a = 1', /^test\.usda line 3: expected "\(" to open a float3 value, found number 1$/],
      ['float a = (1)', /expected a number for float, found "\("/],
      ['float[] a = 1', /expected "\[" to open a float\[\] value, found number 1/],
      ['float a = [1]', /a float value is a single value, not a list/],
      ['matrix4d m = ((1,0,0,0),(0,1,0,0),(0,0,1,0))', /a matrix4d value needs 4 rows in each tuple, found 3/],
      ['token t = bare', /expected a quoted string for token, found "bare"/],
      ['int i = inf', /expected a number for int, found "inf"/],
      ['uchar u = 256', /number 256 does not fit in uchar/],
      ['int i = 2147483648', /does not fit in int/],
      ['uint u = -1', /does not fit in uint/],
      ['foo bar = 1', /unknown attribute type "foo"/],
      ['float a = 1 float b = 2', /expected a new line or ";" after a statement in \/P, found "float"/],
      ['float a.bogus = 1', /expected "connect" or "timeSamples" after "a\.", found "bogus"/],
      ['prepend float a = 1', /"prepend" applies to connections: expected "a\.connect"/],
      ['prepend float a.connect = None', /only allowed for an explicit list/],
      ['float a.timeSamples = { 0: 1 2: 3 }', /expected "}" or "," in time samples, found number 2/],
      ['float a = 1\n    double a = 2', /attribute a already has type float, cannot change to double/],
      ['float a = 1\n    uniform float a.timeSamples = {}', /attribute a already is varying, cannot change to uniform/],
      ['float a = 1\n    rel a', /a is declared both as an attribute and as a relationship/],
      ['string s = "unclosed', /a string is not closed on its line/],
      ['asset a = @unclosed', /an @ asset path is not closed on its line/],
      ['float[] a = [[1], [2]]', /nested lists in a float\[\] value are not supported/],
      ['opaque o = 1', /a value of type opaque cannot be authored/],
      ['float a = 1 (\n        elementSize = 1.5.5\n    )', /expected a new line or ";" between metadata/],
      ['float a = 1 (interpolation = vertex)', /expected a quoted string for token, found "vertex"/],
    ];
    for (const [decl, message] of cases) expect(refusal(`def "P" {\n    ${decl}\n}\n`).message, decl).toMatch(message);
  });
});

describe('parseUsda: relationships', () => {
  it('reads relationships with targets, list ops, None, custom and varying', () => {
    const layer = parse(`
def "World" {
    def Mesh "geom" {
        rel material:binding = </World/material>
        prepend rel material:binding:preview = <../material>
        rel material:binding:collection:preview:subsets = [</World/geom.collection:subsetColl>, </World/material>]
        rel empty
        rel none = None
        custom rel mine = [<Child>, <.points>]
        varying rel vary = []
        custom varying rel both
        append rel listed = [</A>, </B>]
        delete rel listed = </C>
        rel withMeta = </X> (
            doc = "docs"
            bindMaterialAs = "strongerThanDescendants"
            customData = { int n = 1 }
        )
    }
}
`);
    const r = (name: string) => spec(layer, `/World/geom.${name}`);
    expect(r('material:binding')).toEqual({
      type: 'relationship',
      fields: new Map<string, SdfValue>([
        ['variability', { kind: 'variability', value: 'uniform' }],
        ['targetPaths', { kind: 'pathListOp', value: listOp({ explicit: ['/World/material'] }) }],
      ]),
    });
    expect(r('material:binding:preview').fields.get('targetPaths')).toEqual({
      kind: 'pathListOp',
      value: listOp({ prepended: ['/World/material'] }),
    });
    expect(r('material:binding:collection:preview:subsets').fields.get('targetPaths')).toEqual({
      kind: 'pathListOp',
      value: listOp({ explicit: ['/World/geom.collection:subsetColl', '/World/material'] }),
    });
    expect(r('empty').fields.has('targetPaths')).toBe(false);
    expect(r('none').fields.get('targetPaths')).toEqual({ kind: 'pathListOp', value: listOp({ explicit: [] }) });
    expect(r('mine').fields.get('custom')).toEqual({ kind: 'bool', value: true });
    expect(r('mine').fields.get('targetPaths')).toEqual({
      kind: 'pathListOp',
      value: listOp({ explicit: ['/World/geom/Child', '/World/geom.points'] }),
    });
    expect(r('vary').fields.get('variability')).toEqual({ kind: 'variability', value: 'varying' });
    expect(r('vary').fields.get('targetPaths')).toEqual({ kind: 'pathListOp', value: listOp({ explicit: [] }) });
    expect(r('both').fields.get('variability')).toEqual({ kind: 'variability', value: 'varying' });
    expect(r('both').fields.get('custom')).toEqual({ kind: 'bool', value: true });
    expect(r('empty').fields.has('custom')).toBe(false);
    expect(r('listed').fields.get('targetPaths')).toEqual({
      kind: 'pathListOp',
      value: listOp({ appended: ['/A', '/B'], deleted: ['/C'] }),
    });
    expect(r('withMeta').fields.get('documentation')).toEqual({ kind: 'string', value: 'docs' });
    expect(r('withMeta').fields.get('bindMaterialAs')).toEqual({ kind: 'token', value: 'strongerThanDescendants' });
    expect(r('withMeta').fields.get('customData')).toEqual({
      kind: 'dictionary',
      value: new Map([['n', { kind: 'number', type: 'int', value: 1 }]]),
    });
    expect(field(layer, '/World/geom', 'properties')).toEqual({
      kind: 'tokenList',
      value: [
        'material:binding',
        'material:binding:preview',
        'material:binding:collection:preview:subsets',
        'empty',
        'none',
        'mine',
        'vary',
        'both',
        'listed',
        'withMeta',
      ],
    });
  });

  it('refuses bad targets', () => {
    expect(refusal('def "A" {\n  rel r = </>\n}').message).toMatch(/names the root/);
    expect(refusal('def "A" {\n  rel r = "notAPath"\n}').message).toMatch(/expected a <path> for the target, found string "notAPath"/);
    expect(refusal('def "A" {\n  delete rel r = None\n}').message).toMatch(/only allowed for an explicit list/);
    expect(refusal('def "A" {\n  rel r = [</B>, </B>]\n}').message).toMatch(/duplicate items in targetPaths/);
    expect(refusal('def "A" {\n  rel r = <bad name>\n}').message).toMatch(/invalid prim name/);
  });
});

describe('the USDA tokenizer', () => {
  it('reads every kind of token, with lines', () => {
    const text = `#usda 1.0
# a comment
// another
/* a block
   comment */ def "A" 'b' """c
d""" '''e''' @f.png@ @@@g@h@@@ </A/B.c:d> inputs:file a::b -1.5e+3 -inf inf 7 ( ) [ ] { } = , ; : . -
"\\t\\n\\\\\\"\\'\\x41\\101\\xc3\\xa9" ""
`;
    const tokens = tokenizeUsda(text, 't.usda');
    expect(tokens.map((t) => [t.kind, t.text, t.line])).toEqual([
      [USDA_MAGIC, '#usda 1.0', 1],
      [USDA_NAME, 'def', 5],
      [USDA_STRING, 'A', 5],
      [USDA_STRING, 'b', 5],
      [USDA_STRING, 'c\nd', 5],
      [USDA_STRING, 'e', 6],
      [USDA_ASSET, 'f.png', 6],
      [USDA_ASSET, 'g@h', 6],
      [USDA_PATH, '/A/B.c:d', 6],
      [USDA_NAME, 'inputs:file', 6],
      [USDA_NAME, 'a::b', 6],
      [USDA_NUMBER, '-1.5e+3', 6],
      [USDA_NUMBER, '-inf', 6],
      [USDA_NAME, 'inf', 6],
      [USDA_NUMBER, '7', 6],
      ...'()[]{}=,;:.-'.split('').map((c) => [USDA_PUNCT, c, 6]),
      [USDA_STRING, '\t\n\\"\'AAé', 7],
      [USDA_STRING, '', 7],
    ]);
    expect(tokens.filter((t) => t.kind === USDA_NUMBER).map((t) => t.number)).toEqual([-1500, -Infinity, 7]);
  });

  it('reads numbers exactly, on the fast path and off it', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (v) => {
        const written = [String(v), v.toExponential(), v.toFixed(Math.min(20, Math.max(0, 17 - Math.floor(Math.log10(Math.abs(v) || 1)))))];
        for (const s of written) {
          if (!/^-?\d/.test(s)) continue;
          const [token] = tokenizeUsda(`#usda 1.0\n${s}`, 'n.usda').slice(1);
          expect(token!.number, s).toBe(Number(s));
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses what it cannot read, naming the line', () => {
    const fails = (text: string) => {
      try {
        tokenizeUsda(text, 't.usda');
      } catch (e) {
        expect(e).toBeInstanceOf(UsdUnreadableError);
        return (e as Error).message;
      }
      throw new Error(`accepted ${text}`);
    };
    expect(fails('#usda 1.0\n\n  ~')).toBe('t.usda line 3: unexpected character "~"');
    expect(fails('#usda 1.0\n"""never')).toBe('t.usda line 2: a triple-quoted string is never closed');
    expect(fails('#usda 1.0\n/* never')).toBe('t.usda line 2: a /* comment is never closed');
    expect(fails('#usda 1.0\n<a/b')).toBe('t.usda line 2: a path <…> is not closed on its line');
    expect(fails('#usda 1.0\n@a\tb@')).toMatch(/holds a control character/);
    expect(fails('#usda 1.0\nna\u00a0me')).toMatch(/is not a valid identifier/);
  });
});

describe('parseUsda: limits', () => {
  it('refuses nesting deeper than the limit, whatever nests', () => {
    const deep = USDA_MAX_NESTING + 5;
    const prims = `${'def "A" {\n'.repeat(deep)}${'}\n'.repeat(deep)}`;
    expect(refusal(prims).message).toMatch(new RegExp(`nesting deeper than ${USDA_MAX_NESTING} levels is refused`));
    const dicts = `(\n customData = {\n${'dictionary d = {\n'.repeat(deep)}${'}\n'.repeat(deep)}}\n)`;
    expect(refusal(dicts).message).toMatch(/nesting deeper than/);
    const lists = `(\n unknown = ${'['.repeat(100_000)}\n)`;
    expect(refusal(lists).message).toMatch(/nesting deeper than/);
    const fine = `${'def "A" {\n'.repeat(USDA_MAX_NESTING - 1)}${'}\n'.repeat(USDA_MAX_NESTING - 1)}`;
    expect(parse(fine).specs.size).toBe(USDA_MAX_NESTING);
  });
});

// ---- 4. Properties ----

/** A value of one USD type, with how the test writes it and what the layer must hold. */
interface Sample {
  text: string;
  components: number[];
}

const halfValues = fc
  .tuple(fc.boolean(), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 1023 }))
  .map(([negative, exponent, fraction]) => {
    // Built from sign, exponent and fraction bits: exactly representable as a half.
    const magnitude = exponent === 0 ? fraction * 2 ** -24 : (1 + fraction / 1024) * 2 ** (exponent - 15);
    return negative ? -magnitude : magnitude;
  });

/** How the test writes a real number: shortest form, or an exponent form, or the words for the specials. */
function writeReal(v: number, style: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (Object.is(v, -0)) return '-0';
  return style % 3 === 1 ? v.toExponential() : style % 3 === 2 ? v.toExponential().toUpperCase() : String(v);
}

const BASES = {
  bool: fc.boolean().map((b): Sample => ({ text: b ? 'true' : '0', components: [b ? 1 : 0] })),
  uchar: fc.integer({ min: 0, max: 255 }).map((n): Sample => ({ text: String(n), components: [n] })),
  int: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((n): Sample => ({ text: String(n), components: [n] })),
  uint: fc.integer({ min: 0, max: 2 ** 32 - 1 }).map((n): Sample => ({ text: String(n), components: [n] })),
  int64: fc.maxSafeInteger().map((n): Sample => ({ text: String(n), components: [n] })),
  uint64: fc.maxSafeNat().map((n): Sample => ({ text: String(n), components: [n] })),
  half: fc.tuple(halfValues, fc.nat()).map(([v, s]): Sample => ({ text: writeReal(v, s), components: [v] })),
  float: fc.tuple(fc.float(), fc.nat()).map(([v, s]): Sample => ({ text: writeReal(v, s), components: [v] })),
  double: fc.tuple(fc.double(), fc.nat()).map(([v, s]): Sample => ({ text: writeReal(v, s), components: [v] })),
  timecode: fc.tuple(fc.double({ noNaN: true }), fc.nat()).map(([v, s]): Sample => ({ text: writeReal(v, s), components: [v] })),
} as const;

type Base = keyof typeof BASES;
const TUPLES: Array<[string, Base, number[]]> = [
  ...(['int', 'half', 'float', 'double'] as const).flatMap((b) => [2, 3, 4].map((n): [string, Base, number[]] => [`${b}${n}`, b, [n]])),
  ...(['h', 'f', 'd'] as const).flatMap((s) => {
    const base: Base = s === 'h' ? 'half' : s === 'f' ? 'float' : 'double';
    return ['point3', 'vector3', 'normal3', 'color3', 'color4', 'texCoord2', 'texCoord3', 'quat'].map((role): [string, Base, number[]] => [
      `${role}${s}`,
      base,
      [role === 'quat' ? 4 : Number(role.at(-1))],
    ]);
  }),
  ['matrix2d', 'double', [2, 2]],
  ['matrix3d', 'double', [3, 3]],
  ['matrix4d', 'double', [4, 4]],
  ['frame4d', 'double', [4, 4]],
];

/** A tuple of `shape`, written with `( … )` nesting, its components flattened in writing order. */
function tupleOf(base: Base, shape: number[]): fc.Arbitrary<Sample> {
  const inner = shape.length === 1 ? BASES[base] : tupleOf(base, shape.slice(1));
  return fc
    .tuple(fc.array(inner, { minLength: shape[0]!, maxLength: shape[0]! }), fc.constantFrom(', ', ',', ' ,  ', ',\n    '))
    .map(([items, sep]) => ({
      text: `(${items.map((i) => i.text).join(sep)})`,
      components: items.flatMap((i) => i.components),
    }));
}

/** A string written in one of USD's quotings, with escapes where the quoting needs them. */
const quotedString = fc.tuple(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constantFrom('"', "'", '"""', "'''")).map(([s, q]) => {
  let body = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') body += '\\\\';
    else if (ch === q[0]) body += `\\${ch}`;
    else if (ch === '\n') body += q.length === 3 && c === 10 ? '\n' : '\\n';
    else if (ch === '\r') body += '\\r';
    else if (c < 32 || c === 127) body += `\\x${c.toString(16).padStart(2, '0')}`;
    else body += ch;
  }
  return { text: `${q}${body}${q}`, value: s };
});

describe('parseUsda properties', () => {
  it("reads back values of every supported type, scalar and array, as written by a printer of the test's own", () => {
    const numeric = [...Object.keys(BASES).map((b) => [b, b as Base, [] as number[]] as [string, Base, number[]]), ...TUPLES];
    // Floats are generated as float32 values and halves as float16 ones: what is written is what is stored.
    const stored = (_base: Base, v: number) => v;
    const expectedOf = (type: string, base: Base, shape: number[], samples: Sample[], array: boolean): SdfValue => {
      const quaternion = type.startsWith('quat');
      const components = samples.flatMap((s) => {
        const c = s.components.map((v) => stored(base, v));
        return quaternion ? [c[1]!, c[2]!, c[3]!, c[0]!] : c;
      });
      const size = shape.reduce((a, b) => a * b, 1);
      if (array) {
        const Ctor =
          base === 'half' || base === 'float'
            ? Float32Array
            : base === 'int'
              ? Int32Array
              : base === 'uint'
                ? Uint32Array
                : base === 'bool' || base === 'uchar'
                  ? Uint8Array
                  : Float64Array;
        return { kind: 'array', type: `${type}[]`, size, value: Ctor.from(components) };
      }
      if (shape.length > 0) return { kind: 'tuple', type, value: components };
      if (base === 'bool') return { kind: 'bool', value: components[0] === 1 };
      return { kind: 'number', type: base, value: components[0]! };
    };
    const arbitrary = fc.constantFrom(...numeric).chain(([type, base, shape]) => {
      const element = shape.length === 0 ? BASES[base] : tupleOf(base, shape);
      return fc.tuple(
        fc.constant({ type, base, shape }),
        fc.boolean(),
        fc.array(element, { maxLength: 8 }),
        fc.constantFrom(', ', ',\n        ', ','),
      );
    });
    fc.assert(
      fc.property(arbitrary, ([{ type, base, shape }, array, samples, sep]) => {
        if (!array && samples.length === 0) return;
        const used = array ? samples : samples.slice(0, 1);
        const text = array ? `[${used.map((s) => s.text).join(sep)}${sep === ',' && used.length > 0 ? ',' : ''}]` : used[0]!.text;
        const layer = parse(`def "P"\n{\n    ${type}${array ? '[]' : ''} a = ${text}\n}\n`);
        expect(field(layer, '/P.a', 'default')).toEqual(expectedOf(type, base, shape, used, array));
      }),
      { numRuns: 1500 },
    );
  });

  it('reads back strings, tokens and asset paths in every quoting', () => {
    const assetText = fc
      .string({ unit: fc.constantFrom(...'abcXYZ019 ._-/:éü@'.split('')), maxLength: 20 })
      .filter((s) => !s.includes('@@') && !s.endsWith('@') && !s.startsWith('@'));
    fc.assert(
      fc.property(fc.array(quotedString, { maxLength: 5 }), quotedString, assetText, (list, one, asset) => {
        const assetWritten = asset.includes('@') ? `@@@${asset}@@@` : `@${asset}@`;
        const layer = parse(`def "P" {
    string s = ${one.text}
    token t = ${one.text}
    string[] ss = [${list.map((l) => l.text).join(', ')}]
    token[] ts = [${list.map((l) => l.text).join(',\n')}]
    asset a = ${assetWritten}
    asset[] as = [${assetWritten}, ${one.text.includes('\\') ? '@x@' : assetWritten}]
}
`);
        expect(field(layer, '/P.s', 'default')).toEqual({ kind: 'string', value: one.value });
        expect(field(layer, '/P.t', 'default')).toEqual({ kind: 'token', value: one.value });
        expect(field(layer, '/P.ss', 'default')).toEqual({ kind: 'stringArray', type: 'string[]', value: list.map((l) => l.value) });
        expect(field(layer, '/P.ts', 'default')).toEqual({ kind: 'stringArray', type: 'token[]', value: list.map((l) => l.value) });
        expect(field(layer, '/P.a', 'default')).toEqual({ kind: 'asset', value: asset });
      }),
      { numRuns: 600 },
    );
  });

  const hostileBases = (): Array<[string, string]> => {
    const small = TEXT_LAYERS.filter((l) => l.data.length < 20_000).map((l): [string, string] => [
      l.name,
      Buffer.from(l.data).toString('utf8'),
    ]);
    const usd = describeLayer(
      richScene(
        new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
        new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]),
        new Float32Array([0, 0, 1, 0, 0, 1]),
      ),
    );
    const ours = Buffer.from(concat([...renderUsda(usd)])).toString('utf8');
    const kitchenSink = `#usda 1.0
(
    subLayers = [@a.usda@ (offset = 1; scale = 2), @b.usdc@]
    customLayerData = { dictionary d = { double3 v = (1, 2, 3) } }
)
def Xform "P" (
    prepend references = [@a.usda@</R> (offset = 2), </Internal>]
    variants = { string shape = "sphere" }
    prepend variantSets = "shape"
    inherits = <../C>
) {
    quatf q = (1, 0, 0, 0)
    float3 r.timeSamples = { 0: (0, 0, 0), 10: (0, 90, 0) }
    rel b = [</M>, <../N.x>]
    color3f c.connect = </M/S.outputs:rgb>
    variantSet "shape" = {
        "sphere" ( doc = """x""" ) { def "S" { int[] i = [1, 2] } }
        "cube" { float f = -inf }
    }
}
`;
    return [...small, ['our writer', ours], ['kitchen sink', kitchenSink]];
  };

  it(
    'on hostile text (cut, with braces, quotes, @ and random characters inserted ' +
      'or removed) either parses or throws UsdUnreadableError naming a line',
    () => {
      const bases = hostileBases();
      const pieces = [
        '{',
        '}',
        '[',
        ']',
        '(',
        ')',
        '"',
        "'",
        '"""',
        '@',
        '@@@',
        '<',
        '>',
        '=',
        ',',
        ';',
        ':',
        '.',
        '\n',
        '#',
        '/*',
        '-',
        'inf',
        'None',
        'def "X" {',
        '\\',
        '\u0000',
        '\uFFFF',
        'é',
      ];
      const mutation = fc.oneof(
        fc.record({ kind: fc.constant('cut' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
        fc.record({
          kind: fc.constant('insert' as const),
          at: fc.double({ min: 0, max: 1, noNaN: true }),
          text: fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 4 })),
        }),
        fc.record({
          kind: fc.constant('remove' as const),
          at: fc.double({ min: 0, max: 1, noNaN: true }),
          length: fc.integer({ min: 1, max: 12 }),
        }),
      );
      let accepted = 0,
        refused = 0;
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: bases.length - 1 }),
          fc.array(mutation, { minLength: 1, maxLength: 4 }),
          (which, mutations) => {
            const [name, base] = bases[which]!;
            let text = base;
            for (const m of mutations) {
              const at = Math.floor(m.at * text.length);
              if (m.kind === 'cut') text = text.slice(0, at);
              else if (m.kind === 'insert') text = text.slice(0, at) + m.text + text.slice(at);
              else text = text.slice(0, at) + text.slice(at + m.length);
            }
            try {
              const layer = parseUsda(text, name);
              expect(layer.specs.get('/')?.type).toBe('pseudoRoot');
              accepted++;
            } catch (e) {
              if (!(e instanceof UsdUnreadableError)) throw e;
              expect(e.message.startsWith(`${name} line `), e.message).toBe(true);
              refused++;
            }
          },
        ),
        { numRuns: 1500 },
      );
      expect(refused).toBeGreaterThan(100);
      expect(accepted).toBeGreaterThan(10);
    },
  );

  it('on random bytes written into real layers either parses or throws UsdUnreadableError naming a line', () => {
    const bases = hostileBases().map(([name, text]) => [name, new TextEncoder().encode(text)] as const);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: bases.length - 1 }),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        (which, edits) => {
          const [name, base] = bases[which]!;
          const bytes = base.slice();
          for (const [at, byte] of edits) bytes[Math.floor(at * (bytes.length - 1))] = byte;
          try {
            parseUsda(bytes, name);
          } catch (e) {
            if (!(e instanceof UsdUnreadableError)) throw e;
            expect(e.message.startsWith(`${name} line `), e.message).toBe(true);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
