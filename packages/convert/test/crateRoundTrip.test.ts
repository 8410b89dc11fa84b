// Our writer's crates, the corpus's crates against TinyUSDZ, and hostile or large crates of ours, read by
// @arsession/usd's crate reader (its own tests cover crates written as other tools write them).
import { inflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCrate, readZipDirectory, UsdUnreadableError, type SdfLayer, type SdfValue } from '@arsession/usd';
import { describeLayer, readGlb, readIfc, writeUsdcLayer, type SceneData, type UsdPrim } from '../src/index.js';
import { corpusBytes, corpusFiles } from '../../../test/support/corpus.js';
import { tinyusdzModule } from '../../../test/support/tinyusdzModule.js';

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

describe("readCrate on our own writer's crates", () => {
  it.each([
    ['glb', 'BoxTextured.glb'],
    ['glb', 'CesiumMan.glb'],
    ['ifc', 'IfcOpenHouse_IFC4.ifc'],
  ] as const)('%s/%s: every prim, property and value written comes back', async (kind, name) => {
    const scene = kind === 'glb' ? await readGlb(corpusBytes(kind, name)) : await readIfc(corpusBytes(kind, name));
    const described = describeLayer(scene);
    const layer = readCrate(crateOf(scene), 'model.usdc');
    expect(field(layer, '/', 'defaultPrim')).toEqual({ kind: 'token', value: described.root.name });
    expect(field(layer, '/', 'upAxis')).toEqual({ kind: 'token', value: 'Y' });
    expect(field(layer, '/', 'metersPerUnit')).toMatchObject({ kind: 'number', value: 1 });
    let compared = 0;
    const visit = (prim: UsdPrim, path: string) => {
      expect(field(layer, path, 'typeName'), path).toEqual({ kind: 'token', value: prim.typeName });
      expect(
        field(layer, path, 'primChildren')?.kind === 'tokenList' ? (field(layer, path, 'primChildren') as { value: string[] }).value : [],
      ).toEqual(prim.children.map((c) => c.name));
      for (const p of prim.properties) {
        const at = `${path}.${p.name}`;
        if (p.kind === 'relationship') {
          expect(field(layer, at, 'targetPaths'), at).toMatchObject({ kind: 'pathListOp', value: { explicit: [p.target] } });
          continue;
        }
        if (p.connect)
          expect(field(layer, at, 'connectionPaths'), at).toMatchObject({ kind: 'pathListOp', value: { explicit: [p.connect] } });
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
  it.each(corpusCrates().map((c) => [`${c.pkg}:${c.name}`, c] as const))(
    '%s: the same prims, types, shader ids and asset paths',
    async (_, c) => {
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
        const ours = [...layer.specs]
          .filter(([, s]) => s.type === 'prim')
          .map(([p, s]) => `${p} ${(s.fields.get('typeName') as { value?: string } | undefined)?.value ?? ''}`);
        expect(ours.sort()).toEqual(theirs.sort());
        for (const [, id] of text.matchAll(/info:id = "(\w+)"/g))
          expect(
            [...layer.specs.values()].some((s) => (s.fields.get('default') as { value?: unknown } | undefined)?.value === id),
            id,
          ).toBe(true);
        for (const [, file] of text.matchAll(/asset inputs:file = @([^@]+)@/g))
          expect(
            [...layer.specs.values()].some((s) => (s.fields.get('default') as { value?: unknown } | undefined)?.value === file),
            file,
          ).toBe(true);
        const up = /upAxis = "(\w)"/.exec(text)?.[1];
        if (up) expect(field(layer, '/', 'upAxis')).toEqual({ kind: 'token', value: up });
      } finally {
        loader.delete();
      }
    },
  );
});

describe('readCrate on hostile and large crates of ours', () => {
  it('corrupt crates (bytes changed or cut anywhere, header and sections included) are read or refused with UsdUnreadableError', () => {
    const sources = [...corpusCrates().map((c) => c.data), crateOf(SMALL_SCENE)];
    fc.assert(
      fc.property(
        fc.nat(sources.length - 1),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
        fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
        (which, edits, cut) => {
          let bytes = sources[which]!.slice();
          for (const [at, byte] of edits) bytes[Math.floor(at * (bytes.length - 1))] = byte;
          if (cut !== null) bytes = bytes.subarray(0, Math.floor(cut * bytes.length));
          try {
            readCrate(bytes, 'corrupt.usdc');
          } catch (err) {
            if (!(err instanceof UsdUnreadableError)) throw err;
            expect(err.message).toMatch(/^corrupt\.usdc: not a readable USD crate file \(/);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('a mesh of tens of thousands of triangles in our own crate reads back whole', () => {
    const layer = readCrate(crateOf(sceneOfTriangles(60_000)), 'regular.usdc');
    const counts = [...layer.specs.values()]
      .map((spec) => spec.fields.get('default'))
      .find((v) => v?.kind === 'array' && v.type === 'int[]' && v.value.length === 60_000);
    expect(counts && Array.from((counts as { value: Int32Array }).value).every((k) => k === 3)).toBe(true);
  });

  it('refuses a layer whose values would decode past its allowance, by name and before allocating them', () => {
    const crate = crateOf(sceneOfTriangles(50_000));
    expect(() => readCrate(crate, 'big.usdc', { budget: { minDecodedBytes: 0, decodedPerFileByte: 1, maxDecodedBytes: 2 ** 31 } })).toThrow(
      /big\.usdc: not a readable USD crate file \(.* would decode to \d+ bytes, past the layer's \d+-byte allowance/,
    );
    expect(() => readCrate(crate, 'big.usdc', { budget: { maxDecodedBytes: 100_000 } })).toThrow(/past the layer's 100000-byte allowance/);
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
  nodes: [
    {
      name: 'n',
      parent: -1,
      matrix: new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1]),
      meshes: [0],
      metadata: { name: 'x' },
    },
  ],
  meshes: [{ name: 'm', positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]), material: 0 }],
  materials: [{ name: 'mat', baseColor: [1, 0, 0], opacity: 1, metallic: 0, roughness: 0.5, emissive: [0, 0, 0], doubleSided: false }],
  textures: [],
  offset: [0, 0, 0],
  bounds: { min: [0, 0, 0], max: [1, 1, 0] },
  stats: { nodes: 1, meshNodes: 1, meshes: 1, triangles: 1, vertices: 3, materials: 1, textures: 0 },
  warnings: [],
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
  if ('value' in v && (ArrayBuffer.isView(v.value) || Array.isArray(v.value)))
    return Array.from(v.value as ArrayLike<unknown>).map((x) => (typeof x === 'number' ? Math.fround(x) : x));
  if ('value' in v && typeof v.value === 'number') return Math.fround(v.value);
  return 'value' in v ? v.value : v.kind;
}

/** Our writer's value as the reader models it (for comparison only: kind and payload). */
function toSdf(v: { type: string; value: unknown }): { kind: 'raw'; value: unknown } {
  if (v.type === 'matrix4d') return { kind: 'raw', value: Array.from(v.value as ArrayLike<number>) };
  return { kind: 'raw', value: v.value };
}
