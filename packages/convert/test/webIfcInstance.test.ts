import { describe, expect, it } from 'vitest';
import { readIfc } from '../src/index.js';
import { RELEASE_WEB_IFC_FROM_BYTES, webIfcApi } from '../src/ifc/webIfcApi.js';
import { corpusBytes } from '../../../test/support/corpus.js';

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
});
