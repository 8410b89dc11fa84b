// The crate reader on crates written as other tools write them (built byte by byte, CrateBuilder),
// and its decoders' properties: what @arsession/usd reads, without any writer of ours.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCrate } from '../src/crate/readCrate.js';
import { decompressFramed } from '../src/crate/decompressLz4.js';
import { decodeIntegers, encodeIntegers } from '../src/crate/integerCoding.js';
import type { SdfLayer } from '../src/sdf/SdfLayer.js';
import { Bytes, CrateBuilder } from './support/crateBuilder.js';

const field = (layer: SdfLayer, path: string, name: string) => layer.specs.get(path)?.fields.get(name);

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
    b.spec('/A', 6, [
      ['specifier', b.inline(42, 0)],
      [
        'properties',
        b.stored(41, new Bytes().u64(5).u32(b.token('f')).u32(b.token('g')).u32(b.token('h')).u32(b.token('l')).u32(b.token('v')).bytes()),
      ],
    ]);
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
    expect(field(layer, '/A', 'payload')).toEqual({
      kind: 'payload',
      value: { assetPath: 'geo.usdc', primPath: '/', layerOffset: { offset: 0, scale: 1 } },
    });
  });

  it('time samples, dictionaries, variant selections, reference list ops and variant paths', () => {
    const b = new CrateBuilder([0, 8, 0]);
    // Time samples: an offset to the times' rep, that rep, an offset to the values, their count and reps.
    const times = b.stored(48, new Bytes().u64(2).f64(0).f64(10).bytes());
    const at = b.end;
    const ts = new Bytes().i64(8);
    const repOf = (r: { type: number; flags: number; payload: number }) =>
      new Bytes()
        .u32(r.payload)
        .u32((r.flags | (r.type << 16)) >>> 0)
        .bytes();
    ts.raw(repOf(times))
      .i64(8)
      .u64(2)
      .raw(repOf(b.inline(8, new Uint32Array(new Float32Array([1]).buffer)[0]!)))
      .raw(repOf(b.inline(8, new Uint32Array(new Float32Array([3]).buffer)[0]!)));
    const samples = b.stored(46, ts.bytes());
    expect(samples.payload).toBe(at);
    const dict = b.stored(
      31,
      new Bytes()
        .u64(1)
        .u32(b.string('note'))
        .i64(8)
        .raw(repOf(b.inline(10, b.string('hello'))))
        .bytes(),
    );
    const selection = b.stored(45, new Bytes().u64(1).u32(b.string('shape')).u32(b.string('ball')).bytes());
    const refs = b.stored(35, new Bytes().u8(0b0100000).u64(1).u32(b.string('chair.usda')).u32(0xffffffff).f64(2).f64(1).u64(0).bytes());
    b.spec('/', 7, [['primChildren', b.stored(41, new Bytes().u64(1).u32(b.token('A')).bytes())]]);
    b.spec('/A', 6, [
      ['specifier', b.inline(42, 0)],
      ['customData', dict],
      ['variantSelection', selection],
      ['references', refs],
      ['variantSetNames', b.stored(33, new Bytes().u8(0b100000).u64(1).u32(b.string('shape')).bytes())],
    ]);
    b.spec('/A.v', 1, [['timeSamples', samples]]);
    b.spec('/A{shape=}', 11, [['variantChildren', b.stored(41, new Bytes().u64(1).u32(b.token('ball')).bytes())]]);
    b.spec('/A{shape=ball}', 10, [['primChildren', b.stored(41, new Bytes().u64(1).u32(b.token('Ball')).bytes())]]);
    b.spec('/A{shape=ball}Ball', 6, [
      ['specifier', b.inline(42, 0)],
      ['typeName', b.inline(11, b.token('Sphere'))],
    ]);
    const layer = readCrate(b.build(), 'composed.usdc');
    expect(field(layer, '/A.v', 'timeSamples')).toEqual({
      kind: 'timeSamples',
      value: new Map([
        [0, { kind: 'number', type: 'float', value: 1 }],
        [10, { kind: 'number', type: 'float', value: 3 }],
      ]),
    });
    expect(field(layer, '/A', 'customData')).toEqual({
      kind: 'dictionary',
      value: new Map([['note', { kind: 'string', value: 'hello' }]]),
    });
    expect(field(layer, '/A', 'variantSelection')).toEqual({ kind: 'variantSelection', value: new Map([['shape', 'ball']]) });
    expect(field(layer, '/A', 'references')).toMatchObject({
      kind: 'referenceListOp',
      value: { prepended: [{ assetPath: 'chair.usda', primPath: '', layerOffset: { offset: 2, scale: 1 } }] },
    });
    expect(layer.specs.get('/A{shape=ball}Ball')?.type).toBe('prim');
    expect(layer.specs.get('/A{shape=}')?.type).toBe('variantSet');
  });
});

describe('readCrate properties', () => {
  it('LZ4 decompression inverts a real compressor (literals and overlapping matches)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 3000 }), fc.nat(200), (symbols, seed) => {
        // Few symbols and repeated runs: a greedy compressor finds many matches, overlapping ones included.
        const input = Uint8Array.from(symbols, (s, i) => (s === 3 ? (i * seed) & 0xff : s));
        const framed = Uint8Array.from([0, ...compressLz4(input)]);
        expect(Array.from(decompressFramed(framed, input.length))).toEqual(Array.from(input));
      }),
      { numRuns: 300 },
    );
  });

  it('integer decoding inverts the coding, extremes included', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer(), fc.constantFrom(-(2 ** 31), 2 ** 31 - 1, 0, -1)), { maxLength: 400 }), (values) => {
        expect(Array.from(decodeIntegers(encodeIntegers(values), values.length))).toEqual(values.map((v) => v | 0));
      }),
      { numRuns: 500 },
    );
  });

  it('regular data that integer coding and LZ4 shrink thousands of times reads (uniform face counts, runs of equal deltas)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 16, max: 400_000 }),
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: -5, max: 5 }),
        (n, first, step) => {
          // As USD writes such an array: the differences coded (one common value, two bits each),
          // then framed LZ4, which turns the run of zero bits into a single long match.
          const values = Array.from({ length: n }, (_, i) => first + i * step);
          const coded = encodeIntegers(values);
          const framed = Uint8Array.from([0, ...compressLz4(coded)]);
          const b = new CrateBuilder();
          b.spec('/', 1, [
            ['counts', b.stored(3 /* Int */, new Bytes().u64(n).u64(framed.length).raw(framed).bytes(), 0x80000000 | 0x20000000)],
          ]);
          const value = field(readCrate(b.build(), 'regular.usdc'), '/', 'counts');
          expect(value).toMatchObject({ kind: 'array', type: 'int[]' });
          const read = (value as { value: Int32Array }).value;
          expect(read.length).toBe(n);
          expect(read[n - 1]).toBe(first + (n - 1) * step);
          // LZ4 spends a byte per 255 of a run, plus a fixed few: past ~50k values the expansion passes 1024×.
          if (n > 50_000) expect((n * 4) / framed.length, 'an expansion no ratio guard allows').toBeGreaterThan(1024);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('an integer array that claims 2^31 elements from a few compressed bytes is refused without allocating them', () => {
    const b = new CrateBuilder();
    const coded = Uint8Array.from([0, 0, 0, 0, 0]);
    const body = new Bytes()
      .u64(2 ** 31)
      .u64(coded.length)
      .raw(coded)
      .bytes();
    b.spec('/', 1, [['liar', b.stored(3 /* Int */, body, 0x80000000 | 0x20000000)]]);
    expect(() => readCrate(b.build(), 'liar.usdc')).toThrow(
      /liar\.usdc: not a readable USD crate file \(an array of 2147483648 int would decode to 8589934592 bytes/,
    );
  });
});

/** A greedy LZ4 block compressor (hash of 4 bytes, offsets up to 65535), written for this test. */
function compressLz4(input: Uint8Array): Uint8Array {
  const out: number[] = [];
  const table = new Map<number, number>();
  let anchor = 0,
    i = 0;
  const length = (n: number) => {
    for (; n >= 255; n -= 255) out.push(255);
    out.push(n);
  };
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
