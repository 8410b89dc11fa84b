import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { IfcElementCounter, readGlb, readGlbJson, unzipIfc, zipStored } from '@arsession/convert';
import { estimateElements } from '../src/session/estimateElements.js';
import { corpusBytes, corpusPath } from '../../../test/support/corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'estimate-elements-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fileOf = (name: string, bytes: Uint8Array | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
const counted = (bytes: Uint8Array) => {
  const counter = new IfcElementCounter();
  counter.feed(bytes);
  return counter.elements();
};

/** A zip of one deflated entry, as most `.ifczip` exporters write it (no data descriptor). */
function deflatedZip(name: string, data: Uint8Array): Uint8Array {
  const packed = deflateRawSync(data);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(8, 8);
  header.writeUInt32LE(packed.length, 18);
  header.writeUInt32LE(data.length, 22);
  header.writeUInt16LE(Buffer.byteLength(name), 26);
  return new Uint8Array(Buffer.concat([header, Buffer.from(name), packed]));
}

describe('estimateElements', () => {
  it("counts an IFC's elements from its text, whole or scaled from a prefix", async () => {
    const duplex = corpusBytes('ifc', 'duplex.ifc');
    expect(await estimateElements(corpusPath('ifc', 'duplex.ifc'))).toBe(counted(duplex));
    expect(counted(duplex)).toBe(215);
    // Read only halfway: the half's count, doubled.
    const half = Math.floor(duplex.length / 2);
    const scaled = await estimateElements(corpusPath('ifc', 'duplex.ifc'), { scanBytes: half });
    expect(scaled).toBe(Math.round((counted(duplex.subarray(0, half)) * duplex.length) / half));
  });

  it("counts an .ifczip's IFC, deflated or stored, as it inflates", async () => {
    const nested = corpusBytes('ifc', 'Ifc4WithNestedLists.ifczip');
    expect(await estimateElements(corpusPath('ifc', 'Ifc4WithNestedLists.ifczip'))).toBe(counted(unzipIfc(nested)));
    const ifc = corpusBytes('ifc', 'duplex.ifc');
    expect(await estimateElements(fileOf('deflated.ifczip', deflatedZip('model/duplex.ifc', ifc)))).toBe(215);
    const stored = Buffer.concat(zipStored([{ name: 'duplex.ifc', data: ifc }]));
    expect(await estimateElements(fileOf('stored.ifczip', stored))).toBe(215);
  });

  it("counts a GLB's nodes that draw a mesh, each GPU instance one", async () => {
    const json = readGlbJson(corpusBytes('glb', 'Box.glb')) as { nodes: Array<{ mesh?: number }> };
    expect(await estimateElements(corpusPath('glb', 'Box.glb'))).toBe(json.nodes.filter((n) => n.mesh !== undefined).length);
    // One node drawn 125 times with EXT_mesh_gpu_instancing: the reader makes 125 elements of it.
    const instanced = await readGlb(corpusBytes('glb', 'SimpleInstancing.glb'));
    expect(await estimateElements(corpusPath('glb', 'SimpleInstancing.glb'))).toBe(instanced.stats.meshNodes);
    expect(instanced.stats.meshNodes).toBe(125);
  });

  it('leaves a GLB with a JSON chunk past its bound uncounted, unread', async () => {
    // A GLB of one node, its JSON padded with blanks to 9 MB: 8 MB is the default bound.
    const json = Buffer.from(`{"asset":{"version":"2.0"},"nodes":[{"mesh":0}],"meshes":[{"primitives":[]}]}`.padEnd(9 * 2 ** 20, ' '));
    const header = Buffer.alloc(20);
    header.writeUInt32LE(0x46546c67, 0);
    header.writeUInt32LE(2, 4);
    header.writeUInt32LE(20 + json.length, 8);
    header.writeUInt32LE(json.length, 12);
    header.writeUInt32LE(0x4e4f534a, 16);
    const path = fileOf('large-json.glb', Buffer.concat([header, json]));
    expect(await estimateElements(path)).toBeUndefined();
    expect(await estimateElements(path, { maxGlbJsonBytes: 16 * 2 ** 20 })).toBe(1);
  });

  it('knows nothing of a USDZ, a file it cannot read, or a broken zip', async () => {
    expect(await estimateElements(corpusPath('usdz', 'bad_alembic.usdz'))).toBeUndefined();
    expect(await estimateElements(fileOf('text.ifc', Buffer.from('not a model')))).toBeUndefined();
    expect(await estimateElements(join(dir, 'missing.ifc'))).toBeUndefined();
    const broken = deflatedZip('a.ifc', corpusBytes('ifc', 'duplex.ifc'));
    broken.fill(0xff, 200, 400);
    expect(await estimateElements(fileOf('broken.ifczip', broken))).toBeUndefined();
  });
});
