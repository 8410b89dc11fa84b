import { inflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeLayer, ModelUnreadableError, readGlb, readIfc, writeUsdcLayer, type SceneData, type UsdPrim } from '../src/index.js';
import { readCrate } from '../src/usdz/crate/readCrate.js';
import { decompressFramed } from '../src/usdz/crate/decompressLz4.js';
import { decodeIntegers, encodeIntegers } from '../src/usdz/crate/integerCoding.js';
import type { SdfLayer, SdfValue } from '../src/usdz/sdf/SdfLayer.js';
import { readZipDirectory } from '../src/zip/readZipDirectory.js';
import { corpusBytes, corpusFiles } from '../../../test/support/corpus.js';
import { tinyusdzModule } from '../../../test/support/tinyusdzModule.js';
import { Bytes, CrateBuilder } from './support/crateBuilder.js';

const field = (layer: SdfLayer, path: string, name: string) => layer.specs.get(path)?.fields.get(name);
const crateOf = (scene: SceneData) => new Uint8Array(Buffer.concat(writeUsdcLayer(scene)));

/** Every `.usdc` (and crate `.usd`) entry of the corpus packages, inflated when stored deflated. */
function corpusCrates(): Array<{ pkg: string; name: string; data: Uint8Array }> {
  const out: Array<{ pkg: string; name: string; data: Uint8Array }> = [];
  for (const pkg of corpusFiles('usdz')) {
    const bytes = corpusBytes('usdz', pkg);
    for (const e of readZipDirectory(bytes)) {
      const raw = bytes.subarray(e.dataOffset, e.dataOffset + e.compressedSize);
      const data = e.method === 8 ? new Uint8Array(inflateRawSync(raw)) : raw;
      if (String.fromCharCode(...data.subarray(0, 8)) === 'PXR-USDC') out.push({ pkg, name: e.name, data });
    }
  }
  return out;
}

describe('readCrate on our own writer\'s crates', () => {
  it.each([['glb', 'BoxTextured.glb'], ['glb', 'CesiumMan.glb'], ['ifc', 'IfcOpenHouse_IFC4.ifc']] as const)('%s/%s: every prim, property and value written comes back', async (kind, name) => {
    const scene = kind === 'glb' ? await readGlb(corpusBytes(kind, name)) : await readIfc(corpusBytes(kind, name));
    const described = describeLayer(scene);
    const layer = readCrate(crateOf(scene), 'model.usdc');
    expect(field(layer, '/', 'defaultPrim')).toEqual({ kind: 'token', value: described.root.name });
    expect(field(layer, '/', 'upAxis')).toEqual({ kind: 'token', value: 'Y' });
    expect(field(layer, '/', 'metersPerUnit')).toMatchObject({ kind: 'number', value: 1 });
    let compared = 0;
    const visit = (prim: UsdPrim, path: string) => {
      expect(field(layer, path, 'typeName'), path).toEqual({ kind: 'token', value: prim.typeName });
      expect(field(layer, path, 'primChildren')?.kind === 'tokenList' ? (field(layer, path, 'primChildren') as { value: string[] }).value : []).toEqual(prim.children.map((c) => c.name));
      for (const p of prim.properties) {
        const at = `${path}.${p.name}`;
        if (p.kind === 'relationship') {
          expect(field(layer, at, 'targetPaths'), at).toMatchObject({ kind: 'pathListOp', value: { explicit: [p.target] } });
          continue;
        }
        if (p.connect) expect(field(layer, at, 'connectionPaths'), at).toMatchObject({ kind: 'pathListOp', value: { explicit: [p.connect] } });
        if (p.value) {
          const read = field(layer, at, 'default')!;
          expect(numbersOf(read), at).toEqual(numbersOf(toSdf(p.value)));
          compared++;
        }
      }
      for (const c of prim.children) visit(c, `${path}/${c.name}`);
    };
    visit(described.root, `/${described.root.name}`);
    expect(compared).toBeGreaterThan(10);
  });
});

describe('readCrate on every crate in the corpus, against TinyUSDZ', () => {
  it.each(corpusCrates().map((c) => [`${c.pkg}:${c.name}`, c] as const))('%s: the same prims, types, shader ids and asset paths', async (_, c) => {
    const layer = readCrate(c.data, c.name);
    const mod = await tinyusdzModule();
    const loader = new mod.TinyUSDZLoaderNative();
    try {
      expect(loader.loadAsLayerFromBinary(c.data, c.name.replace(/\.usd$/, '.usdc'))).toBe(true);
      const text = loader.layerToString();
      // TinyUSDZ's USDA: prim lines, indented by depth.
      const theirs: string[] = [];
      const stack: string[] = [];
      for (const line of text.split('\n')) {
        const m = /^(\s*)(?:def|over|class)\s+(?:(\w+)\s+)?"([^"]+)"/.exec(line);
        if (!m) continue;
        const depth = m[1]!.length / 4;
        stack.length = depth;
        stack.push(m[3]!);
        theirs.push(`/${stack.join('/')} ${m[2] ?? ''}`);
      }
      const ours = [...layer.specs].filter(([, s]) => s.type === 'prim').map(([p, s]) => `${p} ${(s.fields.get('typeName') as { value?: string } | undefined)?.value ?? ''}`);
      expect(ours.sort()).toEqual(theirs.sort());
      for (const [, id] of text.matchAll(/info:id = "(\w+)"/g)) expect([...layer.specs.values()].some((s) => (s.fields.get('default') as { value?: unknown } | undefined)?.value === id), id).toBe(true);
      for (const [, file] of text.matchAll(/asset inputs:file = @([^@]+)@/g)) expect([...layer.specs.values()].some((s) => (s.fields.get('default') as { value?: unknown } | undefined)?.value === file), file).toBe(true);
      const up = /upAxis = "(\w)"/.exec(text)?.[1];
      if (up) expect(field(layer, '/', 'upAxis')).toEqual({ kind: 'token', value: up });
    } finally {
      loader.delete();
    }
  });
});

describe('readCrate reads every coding other tools write', () => {
  it('compressed float arrays (as integers and through a lookup table), 64-bit ints, halves and inlined vectors', () => {
    const b = new CrateBuilder([0, 8, 0]);
    const floatsAsInts = Array.from({ length: 40 }, (_, i) => i * 3 - 20);
    const table = [0.25, -1.5, 1e-3];
    const lookups = Array.from({ length: 33 }, (_, i) => table[(i * 7) % 3]!);
    const int64s = Array.from({ length: 20 }, (_, i) => (i % 2 ? -1 : 1) * (2 ** 40 + i * 70000));
    const i = new Bytes().u64(floatsAsInts.length).u8('i'.charCodeAt(0)).ints(floatsAsInts).bytes();
    const t = new Bytes().u64(lookups.length).u8('t'.charCodeAt(0)).u32(table.length);
    for (const v of table) t.f32(v);
    t.ints(lookups.map((v) => table.indexOf(v)));
    const halves = new Bytes().u64(2).raw([0x00, 0x3c, 0x00, 0xc0]).bytes(); // 1, −2
    b.spec('/', 7, [['primChildren', b.stored(41, new Bytes().u64(1).u32(b.token('A')).bytes())]]);
    b.spec('/A', 6, [['specifier', b.inline(42, 0)], ['properties', b.stored(41, new Bytes().u64(5).u32(b.token('f')).u32(b.token('g')).u32(b.token('h')).u32(b.token('l')).u32(b.token('v')).bytes())]]);
    b.spec('/A.f', 1, [['default', b.stored(8, i, 0xa0000000)]]);
    b.spec('/A.g', 1, [['default', b.stored(8, t.bytes(), 0xa0000000)]]);
    b.spec('/A.h', 1, [['default', b.stored(7, halves, 0x80000000)]]);
    b.spec('/A.l', 1, [['default', b.stored(5, new Bytes().u64(int64s.length).ints64(int64s).bytes(), 0xa0000000)]]);
    b.spec('/A.v', 1, [['default', b.inline(24, (2 & 0xff) | ((-3 & 0xff) << 8) | (127 << 16))]]);
    const layer = readCrate(b.build(), 'codings.usdc');
    expect(Array.from((field(layer, '/A.f', 'default') as { value: Float32Array }).value)).toEqual(floatsAsInts);
    expect(Array.from((field(layer, '/A.g', 'default') as { value: Float32Array }).value)).toEqual(lookups.map(Math.fround));
    expect(Array.from((field(layer, '/A.h', 'default') as { value: Float32Array }).value)).toEqual([1, -2]);
    expect(Array.from((field(layer, '/A.l', 'default') as { value: Float64Array }).value)).toEqual(int64s);
    expect(field(layer, '/A.v', 'default')).toEqual({ kind: 'tuple', type: 'float3', value: [2, -3, 127] });
  });

  it('0.6 files with 32-bit array sizes, and payloads without layer offsets before 0.8', () => {
    const b = new CrateBuilder([0, 6, 0]);
    const points = new Bytes().u32(2);
    for (const v of [0, 1, 2, 3, 4, 5]) points.f32(v);
    b.spec('/', 7, [['primChildren', b.stored(41, new Bytes().u64(1).u32(b.token('A')).bytes())]]);
    b.spec('/A', 6, [
      ['specifier', b.inline(42, 0)],
      ['payload', b.stored(47, new Bytes().u32(b.string('geo.usdc')).u32(0).bytes())],
      ['properties', b.stored(41, new Bytes().u64(1).u32(b.token('points')).bytes())],
    ]);
    b.spec('/A.points', 1, [['default', b.stored(24, points.bytes(), 0x80000000)]]);
    const layer = readCrate(b.build(), 'old.usdc');
    expect(Array.from((field(layer, '/A.points', 'default') as { value: Float32Array }).value)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(field(layer, '/A', 'payload')).toEqual({ kind: 'payload', value: { assetPath: 'geo.usdc', primPath: '/', layerOffset: { offset: 0, scale: 1 } } });
  });

  it('time samples, dictionaries, variant selections, reference list ops and variant paths', () => {
    const b = new CrateBuilder([0, 8, 0]);
    // Time samples: an offset to the times' rep, that rep, an offset to the values, their count and reps.
    const times = b.stored(48, new Bytes().u64(2).f64(0).f64(10).bytes());
    const at = b.end;
    const ts = new Bytes().i64(8);
    const repOf = (r: { type: number; flags: number; payload: number }) => new Bytes().u32(r.payload).u32((r.flags | (r.type << 16)) >>> 0).bytes();
    ts.raw(repOf(times)).i64(8).u64(2).raw(repOf(b.inline(8, new Uint32Array(new Float32Array([1]).buffer)[0]!))).raw(repOf(b.inline(8, new Uint32Array(new Float32Array([3]).buffer)[0]!)));
    const samples = b.stored(46, ts.bytes());
    expect(samples.payload).toBe(at);
    const dict = b.stored(31, new Bytes().u64(1).u32(b.string('note')).i64(8).raw(repOf(b.inline(10, b.string('hello')))).bytes());
    const selection = b.stored(45, new Bytes().u64(1).u32(b.string('shape')).u32(b.string('ball')).bytes());
    const refs = b.stored(35, new Bytes().u8(0b0100000).u64(1).u32(b.string('chair.usda')).u32(0xffffffff).f64(2).f64(1).u64(0).bytes());
    b.spec('/', 7, [['primChildren', b.stored(41, new Bytes().u64(1).u32(b.token('A')).bytes())]]);
    b.spec('/A', 6, [['specifier', b.inline(42, 0)], ['customData', dict], ['variantSelection', selection], ['references', refs], ['variantSetNames', b.stored(33, new Bytes().u8(0b100000).u64(1).u32(b.string('shape')).bytes())]]);
    b.spec('/A.v', 1, [['timeSamples', samples]]);
    b.spec('/A{shape=}', 11, [['variantChildren', b.stored(41, new Bytes().u64(1).u32(b.token('ball')).bytes())]]);
    b.spec('/A{shape=ball}', 10, [['primChildren', b.stored(41, new Bytes().u64(1).u32(b.token('Ball')).bytes())]]);
    b.spec('/A{shape=ball}Ball', 6, [['specifier', b.inline(42, 0)], ['typeName', b.inline(11, b.token('Sphere'))]]);
    const layer = readCrate(b.build(), 'composed.usdc');
    expect(field(layer, '/A.v', 'timeSamples')).toEqual({ kind: 'timeSamples', value: new Map([[0, { kind: 'number', type: 'float', value: 1 }], [10, { kind: 'number', type: 'float', value: 3 }]]) });
    expect(field(layer, '/A', 'customData')).toEqual({ kind: 'dictionary', value: new Map([['note', { kind: 'string', value: 'hello' }]]) });
    expect(field(layer, '/A', 'variantSelection')).toEqual({ kind: 'variantSelection', value: new Map([['shape', 'ball']]) });
    expect(field(layer, '/A', 'references')).toMatchObject({ kind: 'referenceListOp', value: { prepended: [{ assetPath: 'chair.usda', primPath: '', layerOffset: { offset: 2, scale: 1 } }] } });
    expect(layer.specs.get('/A{shape=ball}Ball')?.type).toBe('prim');
    expect(layer.specs.get('/A{shape=}')?.type).toBe('variantSet');
  });
});

describe('readCrate properties', () => {
  it('LZ4 decompression inverts a real compressor (literals and overlapping matches)', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 3000 }), fc.nat(200), (symbols, seed) => {
      // Few symbols and repeated runs: a greedy compressor finds many matches, overlapping ones included.
      const input = Uint8Array.from(symbols, (s, i) => (s === 3 ? (i * seed) & 0xff : s));
      const framed = Uint8Array.from([0, ...compressLz4(input)]);
      expect(Array.from(decompressFramed(framed, input.length))).toEqual(Array.from(input));
    }), { numRuns: 300 });
  });

  it('integer decoding inverts the coding, extremes included', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.integer(), fc.constantFrom(-(2 ** 31), 2 ** 31 - 1, 0, -1)), { maxLength: 400 }), (values) => {
      expect(Array.from(decodeIntegers(encodeIntegers(values), values.length))).toEqual(values.map((v) => v | 0));
    }), { numRuns: 500 });
  });

  it('corrupt crates (bytes changed or cut anywhere, header and sections included) are read or refused with ModelUnreadableError', () => {
    const sources = [...corpusCrates().map((c) => c.data), crateOf(SMALL_SCENE)];
    fc.assert(fc.property(fc.nat(sources.length - 1), fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), fc.option(fc.double({ min: 0, max: 1, noNaN: true })), (which, edits, cut) => {
      let bytes = sources[which]!.slice();
      for (const [at, byte] of edits) bytes[Math.floor(at * (bytes.length - 1))] = byte;
      if (cut !== null) bytes = bytes.subarray(0, Math.floor(cut * bytes.length));
      try {
        readCrate(bytes, 'corrupt.usdc');
      } catch (err) {
        if (!(err instanceof ModelUnreadableError)) throw err;
        expect(err.message).toMatch(/^corrupt\.usdc: not a readable USD crate file \(/);
      }
    }), { numRuns: 3000 });
  });

  it('regular data that integer coding and LZ4 shrink thousands of times reads (uniform face counts, runs of equal deltas)', () => {
    fc.assert(fc.property(fc.integer({ min: 16, max: 400_000 }), fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -5, max: 5 }), (n, first, step) => {
      // As USD writes such an array: the differences coded (one common value, two bits each),
      // then framed LZ4, which turns the run of zero bits into a single long match.
      const values = Array.from({ length: n }, (_, i) => first + i * step);
      const coded = encodeIntegers(values);
      const framed = Uint8Array.from([0, ...compressLz4(coded)]);
      const b = new CrateBuilder();
      b.spec('/', 1, [['counts', b.stored(3 /* Int */, new Bytes().u64(n).u64(framed.length).raw(framed).bytes(), 0x80000000 | 0x20000000)]]);
      const value = field(readCrate(b.build(), 'regular.usdc'), '/', 'counts');
      expect(value).toMatchObject({ kind: 'array', type: 'int[]' });
      const read = (value as { value: Int32Array }).value;
      expect(read.length).toBe(n);
      expect(read[n - 1]).toBe(first + (n - 1) * step);
      if (n > 5000) expect(n * 4 / framed.length, 'an expansion no ratio guard allows').toBeGreaterThan(1024);
    }), { numRuns: 40 });
  });

  it('a mesh of tens of thousands of triangles in our own crate reads back whole', () => {
    const layer = readCrate(crateOf(sceneOfTriangles(60_000)), 'regular.usdc');
    const counts = [...layer.specs.values()].map((spec) => spec.fields.get('default')).find((v) => v?.kind === 'array' && v.type === 'int[]' && v.value.length === 60_000);
    expect(counts && Array.from((counts as { value: Int32Array }).value).every((k) => k === 3)).toBe(true);
  });

  it('refuses a layer whose values would decode past its allowance, by name and before allocating them', () => {
    const crate = crateOf(sceneOfTriangles(50_000));
    expect(() => readCrate(crate, 'big.usdc', { budget: { minDecodedBytes: 0, decodedPerFileByte: 1, maxDecodedBytes: 2 ** 31 } }))
      .toThrow(/big\.usdc: not a readable USD crate file \(.* would decode to \d+ bytes, past the layer's \d+-byte allowance/);
    expect(() => readCrate(crate, 'big.usdc', { budget: { maxDecodedBytes: 100_000 } })).toThrow(/past the layer's 100000-byte allowance/);
  });

  it('an integer array that claims 2^31 elements from a few compressed bytes is refused without allocating them', () => {
    const b = new CrateBuilder();
    const coded = Uint8Array.from([0, 0, 0, 0, 0]);
    const body = new Bytes().u64(2 ** 31).u64(coded.length).raw(coded).bytes();
    b.spec('/', 1, [['liar', b.stored(3 /* Int */, body, 0x80000000 | 0x20000000)]]);
    expect(() => readCrate(b.build(), 'liar.usdc')).toThrow(/liar\.usdc: not a readable USD crate file \(an array of 2147483648 int would decode to 8589934592 bytes/);
  });

  it('refuses a file that claims 2^40 tokens in a kilobyte without trying to hold them', () => {
    const bytes = crateOf(SMALL_SCENE);
    const toc = Number(new DataView(bytes.buffer).getBigUint64(16, true));
    const tokensAt = Number(new DataView(bytes.buffer).getBigUint64(toc + 8 + 16, true));
    new DataView(bytes.buffer).setBigUint64(tokensAt, 2n ** 40n, true);
    expect(() => readCrate(bytes, 'liar.usdc')).toThrow(/liar\.usdc: not a readable USD crate file \(TOKENS claims 1099511627776 tokens/);
  });
});

const SMALL_SCENE: SceneData = {
  source: { format: 'glb' },
  nodes: [{ name: 'n', parent: -1, matrix: new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1]), meshes: [0], metadata: { name: 'x' } }],
  meshes: [{ name: 'm', positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]), material: 0 }],
  materials: [{ name: 'mat', baseColor: [1, 0, 0], opacity: 1, metallic: 0, roughness: 0.5, emissive: [0, 0, 0], doubleSided: false }],
  textures: [], offset: [0, 0, 0], bounds: { min: [0, 0, 0], max: [1, 1, 0] },
  stats: { nodes: 1, meshNodes: 1, meshes: 1, triangles: 1, vertices: 3, materials: 1, textures: 0 }, warnings: [],
};

/** One mesh of `n` triangles over distinct vertices: its index and count arrays are as regular as arrays get. */
function sceneOfTriangles(n: number): SceneData {
  const positions = new Float32Array(n * 9);
  for (let i = 0; i < n * 3; i++) positions.set([i % 97, Math.floor(i / 97) % 89, (i % 3) * 0.5], i * 3);
  const mesh = { name: 'm', positions, indices: Uint32Array.from({ length: n * 3 }, (_, i) => i), material: 0 };
  return { ...SMALL_SCENE, meshes: [mesh], stats: { ...SMALL_SCENE.stats, triangles: n, vertices: n * 3 } };
}

/** The numbers of a value, flattened, for comparing what we wrote with what we read. */
function numbersOf(v: SdfValue | { kind: 'raw'; value: unknown }): unknown {
  if ('value' in v && (ArrayBuffer.isView(v.value) || Array.isArray(v.value))) return Array.from(v.value as ArrayLike<unknown>).map((x) => (typeof x === 'number' ? Math.fround(x) : x));
  if ('value' in v && typeof v.value === 'number') return Math.fround(v.value);
  return 'value' in v ? v.value : v.kind;
}

/** Our writer's value as the reader models it (for comparison only: kind and payload). */
function toSdf(v: { type: string; value: unknown }): { kind: 'raw'; value: unknown } {
  if (v.type === 'matrix4d') return { kind: 'raw', value: Array.from(v.value as ArrayLike<number>) };
  return { kind: 'raw', value: v.value };
}

/** A greedy LZ4 block compressor (hash of 4 bytes, offsets up to 65535), written for this test. */
function compressLz4(input: Uint8Array): Uint8Array {
  const out: number[] = [];
  const table = new Map<number, number>();
  let anchor = 0, i = 0;
  const length = (n: number) => { for (; n >= 255; n -= 255) out.push(255); out.push(n); };
  const emit = (literalEnd: number, matchLength: number, offset: number) => {
    const literals = literalEnd - anchor;
    out.push((Math.min(literals, 15) << 4) | (matchLength ? Math.min(matchLength - 4, 15) : 0));
    if (literals >= 15) length(literals - 15);
    for (let k = anchor; k < literalEnd; k++) out.push(input[k]!);
    if (!matchLength) return;
    out.push(offset & 0xff, offset >> 8);
    if (matchLength - 4 >= 15) length(matchLength - 4 - 15);
  };
  while (i + 4 <= input.length - 5) {
    const key = input[i]! | (input[i + 1]! << 8) | (input[i + 2]! << 16) | (input[i + 3]! << 24);
    const candidate = table.get(key);
    table.set(key, i);
    if (candidate !== undefined && i - candidate < 65536) {
      let n = 4;
      while (i + n < input.length - 5 && input[candidate + n] === input[i + n]) n++;
      emit(i, n, i - candidate);
      i += n;
      anchor = i;
    } else i++;
  }
  emit(input.length, 0, 0);
  return Uint8Array.from(out);
}
