import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compressIntegers, encodeIntegers, fastCompress } from '@arsession/usd';
import { readGlb, writeUsdcLayer, writeUsdz, zipStored, type SceneData } from '../src/index.js';
import { newIdentityMatrix } from '../src/scene/identityMatrix.js';
import { corpusBytes } from '../../../test/support/corpus.js';
import { readUsdzBack, tinyusdz } from '../../../test/support/usdReader.js';

const concat = (parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/** One mesh, one plain material, under one node with the given matrix and metadata. */
function sceneOf(
  mesh: { positions: Float32Array; indices: Uint32Array; normals?: Float32Array; elements?: SceneData['meshes'][number]['elements'] },
  matrix = newIdentityMatrix(),
  metadata: Record<string, string> = {},
): SceneData {
  return {
    source: { format: 'glb' },
    nodes: [{ name: 'node', parent: -1, matrix, meshes: [0], metadata }],
    meshes: [{ name: 'mesh', material: 0, ...mesh }],
    materials: [{ name: 'm', baseColor: [0.5, 0.25, 1], opacity: 1, metallic: 0, roughness: 0.5, emissive: [0, 0, 0], doubleSided: false }],
    textures: [],
    offset: [0, 0, 0],
    bounds: { min: [0, 0, 0], max: [0, 0, 0] },
    stats: {
      nodes: 1,
      meshNodes: 1,
      meshes: 1,
      triangles: mesh.indices.length / 3,
      vertices: mesh.positions.length / 3,
      materials: 1,
      textures: 0,
    },
    warnings: [],
  };
}

/** TinyUSDZ's reading of a lone crate layer: its meshes and its text. */
async function readCrate(
  layer: Uint8Array[],
): Promise<{ text: string; meshes: Array<{ points: Float32Array; indices: Uint32Array; counts: Uint32Array; normals?: Float32Array }> }> {
  const mod = await tinyusdz();
  const loader = new mod.TinyUSDZLoaderNative();
  try {
    if (!loader.loadAsLayerFromBinary(concat(layer), 'model.usdc')) throw new Error(`TinyUSDZ: ${loader.error()}`);
    const text = loader.layerToString();
    if (!loader.layerToRenderScene()) throw new Error(`TinyUSDZ render scene: ${loader.error()}`);
    const meshes = [];
    for (let i = 0; i < loader.numMeshes(); i++) {
      const m = loader.getMesh(i);
      meshes.push({
        points: m.points.slice(),
        indices: m.faceVertexIndices.slice(),
        counts: m.faceVertexCounts.slice(),
        ...(m.normals && { normals: m.normals.slice() }),
      });
    }
    return { text, meshes };
  } finally {
    loader.delete();
  }
}

describe('crate framing and integer coding', () => {
  it('frames bytes as one LZ4 block of literals, with the LZ4 length extension from 15 bytes on', () => {
    for (const n of [0, 1, 14, 15, 16, 269, 270, 271, 600]) {
      const input = Uint8Array.from({ length: n }, (_, i) => (i * 7) & 0xff);
      const out = fastCompress(input);
      expect(out[0], 'one chunk').toBe(0);
      expect(out[1]! & 0x0f, 'no match').toBe(0);
      expect(out[1]! >> 4).toBe(Math.min(n, 15));
      let at = 2,
        length = out[1]! >> 4;
      if (length === 15) {
        for (let b = 255; b === 255; at++) {
          b = out[at]!;
          length += b;
        }
      }
      expect(length).toBe(n);
      expect([...out.subarray(at)]).toEqual([...input]);
    }
  });

  it('codes integers as USD documents it (its own worked example)', () => {
    // integerCoding.cpp: [123, 124, 125, 100125, 100125, 100126, 100126] → differences
    // [123, 1, 1, 100000, 0, 1, 0]; common 1; codes 01 00 00 11 | 01 00 01; then 123, 100000, 0, 0.
    const coded = encodeIntegers([123, 124, 125, 100125, 100125, 100126, 100126]);
    expect([...coded]).toEqual([1, 0, 0, 0, 0b11000001, 0b00010001, 123, 0xa0, 0x86, 0x01, 0x00, 0, 0]);
    expect(encodeIntegers([])).toHaveLength(0);
    expect([...compressIntegers([3, 3, 3, 3])]).toEqual([0, 0x60, 0, 0, 0, 0, 0b00000001, 3]);
  });

  it('hands every caller a coding of its own: a later call leaves earlier ones intact', () => {
    // The coder works in one reused buffer; a crate keeps many codings (as parts) until it is written.
    const first = Uint32Array.from({ length: 5000 }, (_, i) => (i * 7919) % 5003);
    const second = Uint32Array.from({ length: 9000 }, (_, i) => 9000 - i);
    const coded = encodeIntegers(first),
      framed = compressIntegers(first);
    const codedCopy = coded.slice(),
      framedCopy = framed.slice();
    encodeIntegers(second);
    compressIntegers(second);
    expect(coded).toEqual(codedCopy);
    expect(framed).toEqual(framedCopy);
    expect(coded.buffer).not.toBe(framed.buffer);
  });

  it('codes any integers so that USD decodes them back, with the most common difference and the narrowest widths', () => {
    // USD's decoder, written from integerCoding.cpp's description.
    const decode = (coded: Uint8Array, n: number) => {
      const view = new DataView(coded.buffer, coded.byteOffset, coded.byteLength);
      const common = view.getInt32(0, true);
      let at = 4 + ((n * 2 + 7) >> 3),
        previous = 0;
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const code = (coded[4 + (i >> 2)]! >> ((i & 3) * 2)) & 3;
        const d = code === 0 ? common : code === 1 ? view.getInt8(at) : code === 2 ? view.getInt16(at, true) : view.getInt32(at, true);
        at += [0, 1, 2, 4][code]!;
        previous = (previous + d) | 0;
        out.push(previous);
      }
      return { common, out, end: at };
    };
    const differences = (values: number[]) => values.map((v, i) => (v - (i === 0 ? 0 : values[i - 1]!)) | 0);
    const mostCommon = (ds: number[]) => {
      const counts = new Map<number, number>();
      for (const d of ds) if (Math.abs(d) <= 1024) counts.set(d, (counts.get(d) ?? 0) + 1);
      let best = 0,
        bestCount = 0;
      for (const [d, c] of counts)
        if (c > bestCount || (c === bestCount && d > best)) {
          best = d;
          bestCount = c;
        }
      return best;
    };
    const int32 = fc.oneof(
      fc.integer({ min: -3, max: 3 }),
      fc.integer({ min: -200, max: 200 }),
      fc.integer({ min: -40000, max: 40000 }),
      fc.integer(),
    );
    fc.assert(
      fc.property(fc.array(int32, { maxLength: 300 }), (values) => {
        const coded = encodeIntegers(values);
        if (values.length === 0) return coded.length === 0;
        const ds = differences(values);
        const common = mostCommon(ds);
        const width = (d: number) => (d === common ? 0 : d >= -128 && d <= 127 ? 1 : d >= -32768 && d <= 32767 ? 2 : 4);
        const { common: written, out, end } = decode(coded, values.length);
        expect(written).toBe(common);
        expect(out).toEqual(values.map((v) => v | 0));
        expect(end).toBe(coded.length);
        expect(coded.length).toBe(4 + ((values.length * 2 + 7) >> 3) + ds.reduce((n, d) => n + width(d), 0));
      }),
      {
        numRuns: 300,
        // Differences exactly at each width's edges (both signs) and at int32's ends, where a mask
        // could be off by one; random values reach them only by chance.
        examples: [
          [[-129, -128, 127, 128, -32769, -32768, 32767, 32768, 2 ** 31 - 1, -(2 ** 31)].flatMap((d) => [0, d])],
          [[2 ** 31 - 1, -(2 ** 31), 5, 5, 5]],
        ],
      },
    );
    // Unsigned indices at or past 2³¹ are coded as the int32 USD stores.
    const unsigned = new Uint32Array([0, 2 ** 32 - 1, 2 ** 31, 7]);
    expect(decode(encodeIntegers(unsigned), 4).out).toEqual([0, -1, -(2 ** 31), 7]);
  });
});

describe('writeUsdcLayer: binary USD that an independent reader reads back exactly', () => {
  it('starts with the crate bootstrap (version 0.8.0) and ends with a table of its six sections', () => {
    const layer = concat(
      writeUsdcLayer(sceneOf({ positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]) })),
    );
    const view = new DataView(layer.buffer);
    expect(new TextDecoder().decode(layer.subarray(0, 8))).toBe('PXR-USDC');
    expect([...layer.subarray(8, 16)]).toEqual([0, 8, 0, 0, 0, 0, 0, 0]);
    const toc = Number(view.getBigUint64(16, true));
    expect(Number(view.getBigUint64(toc, true))).toBe(6);
    let end = 0;
    const names = [];
    for (let i = 0; i < 6; i++) {
      const at = toc + 8 + 32 * i;
      names.push(new TextDecoder().decode(layer.subarray(at, at + 16)).replace(/\0+$/, ''));
      const start = Number(view.getBigUint64(at + 16, true)),
        size = Number(view.getBigUint64(at + 24, true));
      if (i > 0) expect(start, 'sections follow each other').toBe(end);
      end = start + size;
    }
    expect(names).toEqual(['TOKENS', 'STRINGS', 'FIELDS', 'FIELDSETS', 'PATHS', 'SPECS']);
    expect(end).toBe(toc);
    expect(toc + 8 + 6 * 32).toBe(layer.length);
  });

  it('points, normals and indices come back bit for bit, whatever the values (property)', async () => {
    const mesh = fc.integer({ min: 1, max: 60 }).chain((vertices) =>
      fc.record({
        positions: fc.float32Array({ minLength: vertices * 3, maxLength: vertices * 3, noNaN: true, noDefaultInfinity: true }),
        normals: fc.float32Array({ minLength: vertices * 3, maxLength: vertices * 3, noNaN: true, noDefaultInfinity: true }),
        // Indices in any order (large jumps exercise every width of the integer coding).
        indices: fc
          .array(fc.nat({ max: vertices - 1 }), { minLength: 3, maxLength: 90 })
          .map((a) => Uint32Array.from(a.slice(0, a.length - (a.length % 3)))),
      }),
    );
    await fc.assert(
      fc.asyncProperty(mesh, async (m) => {
        const back = await readCrate(
          writeUsdcLayer(sceneOf({ positions: new Float32Array(m.positions), normals: new Float32Array(m.normals), indices: m.indices })),
        );
        expect(back.meshes).toHaveLength(1);
        const got = back.meshes[0]!;
        expect(
          Buffer.from(got.points.buffer, got.points.byteOffset, got.points.byteLength).equals(
            Buffer.from(new Float32Array(m.positions).buffer),
          ),
        ).toBe(true);
        expect([...got.indices]).toEqual([...m.indices]);
        expect([...got.counts]).toEqual(new Array(m.indices.length / 3).fill(3));
      }),
      { numRuns: 40 },
    );
  });

  it('keeps transforms in float64 and customData strings and arrays, also beyond the write buffer', async () => {
    const matrix = new Float64Array([0.1, 0.2, 0.3, 0, -0.3, 0.1 / 3, 1e-12, 0, 7, 8, 9, 0, 500000.123456789, -2.5, 1 / 3, 1]);
    // 5000 elements with large gaps: their triangle arrays code to 20 kB, nested in a dictionary.
    const elements = Array.from({ length: 5000 }, (_, i) => ({
      firstTriangle: i * 70_001,
      triangleCount: 70_001 + (i % 3),
      metadata: { ifcClass: 'IfcWall', globalId: `g${i}`, name: `wall ${i}` },
    }));
    const scene = sceneOf(
      { positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]), elements },
      matrix,
      { globalId: '1pPHnf7cXCpPsNEnQf8_6B', name: 'Wand "Süd"' },
    );
    const { text } = await readCrate(writeUsdcLayer(scene));
    const numbers = /matrix4d xformOp:transform = \((.*)\)\s*$/m
      .exec(text)![1]!
      .match(/-?[\d.]+(?:e-?\d+)?/g)!
      .map(Number);
    expect(numbers).toEqual([...matrix]);
    expect(text).toContain('string globalId = "1pPHnf7cXCpPsNEnQf8_6B"');
    expect(text).toMatch(/string name = .Wand "Süd"./); // TinyUSDZ quotes it with ' as it holds "
    const ints = (key: string) =>
      /int\[\] (\w+) = \[([^\]]*)\]/g
        .exec(text.slice(text.indexOf(`int[] ${key}`)))![2]!
        .split(', ')
        .map(Number);
    expect(ints('elementFirstTriangles')).toEqual(elements.map((e) => e.firstTriangle));
    expect(ints('elementTriangleCounts')).toEqual(elements.map((e) => e.triangleCount));
    const names = /string\[\] elementNames = \[([^\]]*)\]/
      .exec(text)![1]!
      .split(', ')
      .map((q) => JSON.parse(q) as string);
    expect(names).toEqual(elements.map((e) => e.metadata.name));
  });

  it('is what the package carries by default; the text layer stays available and reads back the same', async () => {
    const scene = await readGlb(corpusBytes('glb', 'DamagedHelmet.glb'));
    const binary = await readUsdzBack(concat(writeUsdz(scene)));
    const text = await readUsdzBack(concat(writeUsdz(scene, { layerFormat: 'usda' })));
    expect(binary.meshes.map((m) => [m.path, m.points, m.triangles])).toEqual(text.meshes.map((m) => [m.path, m.points, m.triangles]));
    expect(binary.prims).toEqual(text.prims);
    // Binary floats take 4 bytes where text takes ~10: the package is smaller.
    expect(concat(writeUsdz(scene)).length).toBeLessThan(concat(writeUsdz(scene, { layerFormat: 'usda' })).length);
    // A package may also be assembled from the layer's parts directly.
    const parts = zipStored([{ name: 'a.usdc', data: writeUsdcLayer(scene) }]);
    expect((await readUsdzBack(concat(parts))).meshes).toHaveLength(binary.meshes.length);
  });

  it('writes a mesh drawn by many nodes once, and every instance still reads back whole', async () => {
    const scene = await readGlb(corpusBytes('glb', 'SimpleInstancing.glb'));
    const drawn = scene.nodes.reduce((n, node) => n + node.meshes.length, 0);
    expect(scene.meshes).toHaveLength(1);
    expect(drawn).toBeGreaterThan(100);
    const layer = concat(writeUsdcLayer(scene));
    // Points alone would be drawn × 12 bytes per vertex if each instance carried its own.
    expect(layer.length).toBeLessThan(scene.meshes[0]!.positions.byteLength * 2 + drawn * 1024);
    const back = await readCrate(writeUsdcLayer(scene));
    expect(back.meshes).toHaveLength(drawn);
    for (const m of back.meshes) {
      expect([...m.indices]).toEqual([...scene.meshes[0]!.indices]);
      expect(
        Buffer.from(m.points.buffer, m.points.byteOffset, m.points.byteLength).equals(
          Buffer.from(scene.meshes[0]!.positions.buffer, scene.meshes[0]!.positions.byteOffset, scene.meshes[0]!.positions.byteLength),
        ),
      ).toBe(true);
    }
  });
});
