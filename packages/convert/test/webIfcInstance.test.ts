import { describe, expect, it, vi } from 'vitest';
import { readIfc } from '../src/index.js';
import { RELEASE_WEB_IFC_FROM_BYTES, returnWebIfcHeap, webIfcApi } from '../src/ifc/webIfcApi.js';
import { StreamReduction } from '../src/budget/StreamReduction.js';
import type { SharedGeometry } from '../src/budget/StreamReduction.js';
import { corpusBytes } from '../../../test/support/corpus.js';

/** Whether the thread's web-ifc instance had let its model go, at each reading of element records. */
const recordsReadDisposed: boolean[] = [];
vi.mock('../src/elements/readElementRecords.js', async (original) => {
  const actual = await original<typeof import('../src/elements/readElementRecords.js')>();
  return {
    ...actual,
    readElementRecords: (...args: Parameters<typeof actual.readElementRecords>) => {
      recordsReadDisposed.push(disposing?.wasmModule === undefined);
      return actual.readElementRecords(...args);
    },
  };
});
let disposing: { wasmModule?: unknown } | undefined;

/**
 * AC20-FZK-Haus made larger than {@link RELEASE_WEB_IFC_FROM_BYTES} by points no element uses, as
 * an exporter's unused geometry would: the same model, read the same, from a large file.
 */
function paddedAc20(): Uint8Array {
  const text = new TextDecoder('latin1').decode(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'));
  const end = text.lastIndexOf('ENDSEC;');
  const lines: string[] = [];
  let bytes = 0;
  for (let id = 9_000_000; bytes < RELEASE_WEB_IFC_FROM_BYTES; id++) {
    const line = `#${id}=IFCCARTESIANPOINT((${id}.,0.,0.));\n`;
    lines.push(line);
    bytes += line.length;
  }
  return new TextEncoder().encode(text.slice(0, end) + lines.join('') + text.slice(end));
}

describe("a thread's web-ifc instance", () => {
  it('is kept between reads of ordinary files', async () => {
    await readIfc(corpusBytes('ifc', 'IfcOpenHouse_IFC4.ifc'));
    const before = await webIfcApi();
    await readIfc(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'));
    expect(await webIfcApi()).toBe(before);
  });

  it('is let go after a large file, its WASM memory dropped; the next read starts a fresh one and reads alike', async () => {
    const small = await readIfc(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'));
    const before = await webIfcApi();
    const large = await readIfc(paddedAc20());
    expect(large.stats.triangles).toBe(small.stats.triangles);
    expect(before.wasmModule).toBeUndefined();
    const after = await webIfcApi();
    expect(after).not.toBe(before);
    expect((await readIfc(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'))).stats).toEqual(small.stats);
  });

  it('is not let go while another read in the thread still uses it, but once that one ends', async () => {
    const smallBytes = corpusBytes('ifc', 'Office_A_20110811.ifc');
    const expected = await readIfc(smallBytes);
    const shared = await webIfcApi();
    // Both start on one instance; the large one ends while the other is still reading.
    const [large, small] = await Promise.all([readIfc(paddedAc20()), readIfc(smallBytes)]);
    expect(large.stats.triangles).toBeGreaterThan(0);
    expect(small.stats).toEqual(expected.stats);
    expect(shared.wasmModule).toBeUndefined();
    expect(await webIfcApi()).not.toBe(shared);
  });

  it('has let a large file go, and V8 return its heap, before the reduction starts', async () => {
    const instance = await webIfcApi();
    const collected = moduleCollected(instance.wasmModule);
    const atReduction: boolean[] = [];
    class Watching extends StreamReduction {
      override async reduce(geometries: SharedGeometry[]): Promise<void> {
        // Finalizers run as tasks: a turn later, ours has heard of a collection made before this call.
        await new Promise((resolve) => setTimeout(resolve, 50));
        atReduction.push(collected());
        await super.reduce(geometries);
      }
    }
    // The padded file leaves web-ifc a heap of ~140 MB, over `RETURN_WEB_IFC_HEAP_DEFAULTS.fromBytes`.
    const scene = await readIfc(paddedAc20(), { reduction: new Watching() });
    expect(scene.stats.triangles).toBeGreaterThan(0);
    expect(instance.wasmModule).toBeUndefined();
    expect(atReduction).toEqual([true]);
  });

  it("reads a large file's element records once web-ifc has let the model and its instance go, as a small file's", async () => {
    // Loaded again, with the records' reader watched (the test set-up loaded the package before the mock).
    vi.resetModules();
    const fresh = { ...(await import('../src/index.js')), ...(await import('../src/ifc/webIfcApi.js')) };
    const small = await fresh.readIfc(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'), { elementRecords: true });
    disposing = await fresh.webIfcApi();
    recordsReadDisposed.length = 0;
    const large = await fresh.readIfc(paddedAc20(), { elementRecords: true });
    expect(recordsReadDisposed).toEqual([true]);
    expect(large.elementRecords).toEqual(small.elementRecords);
    expect(large.elementRecords!.filter((r) => r.type !== null).length).toBeGreaterThan(0);
  });

  it('returns a smaller disposed heap only when asked, and once', async () => {
    const instance = await webIfcApi();
    const collected = moduleCollected(instance.wasmModule);
    await readIfc(paddedAc20());
    const returned = await returnWebIfcHeap({ fromBytes: 0 });
    // Returned by the read itself (over the default size) or now: gone either way, and only once.
    expect(returned === 0 || returned >= 64 * 1024 * 1024).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(collected()).toBe(true);
    expect(await returnWebIfcHeap({ fromBytes: 0 })).toBe(0);
  });
});

/** Whether V8 has collected `module` (read in a later task than the collection's). */
function moduleCollected(module: object): () => boolean {
  let collected = false;
  // Held by the closure: a registry collected itself calls nothing back.
  const registry = new FinalizationRegistry(() => {
    collected = true;
  });
  registry.register(module, 'module');
  return () => registry !== undefined && collected;
}
