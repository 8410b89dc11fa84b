import { describe, expect, it } from 'vitest';
import { mergeByMaterial, readGlb, readIfc, writeUsdz } from '../src/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';
import { readUsdzBack } from '../../../test/support/usdReader.js';

const drawCalls = (s: { nodes: Array<{ meshes: number[] }> }) => s.nodes.reduce((n, x) => n + x.meshes.length, 0);

describe('mergeByMaterial', () => {
  it('Office_A: 1461 draws become one per storey and colour; every element stays identifiable', async () => {
    const scene = await readIfc(corpusBytes('ifc', 'Office_A_20110811.ifc'));
    expect(drawCalls(scene)).toBeGreaterThan(1000);
    const merged = mergeByMaterial(scene);
    const storeys = new Set(scene.nodes.map((n) => n.metadata['storey'] ?? ''));
    expect(drawCalls(merged)).toBeLessThanOrEqual(storeys.size * scene.materials.length);
    expect(drawCalls(merged)).toBeLessThan(100);
    expect(merged.stats.triangles).toBe(scene.stats.triangles);
    for (let k = 0; k < 3; k++) {
      expect(merged.bounds.min[k]).toBeCloseTo(scene.bounds.min[k]!, 4);
      expect(merged.bounds.max[k]).toBeCloseTo(scene.bounds.max[k]!, 4);
    }
    // Element ranges tile each merged mesh and name every source element exactly once.
    const ids: string[] = [];
    for (const m of merged.meshes) {
      let next = 0;
      for (const e of m.elements!) {
        expect(e.firstTriangle).toBe(next);
        next += e.triangleCount;
        ids.push(`${e.metadata['globalId']}|${m.material}`);
      }
      expect(next).toBe(m.indices.length / 3);
    }
    const expected = scene.nodes.flatMap((n) => [...new Set(n.meshes.map((m) => `${n.metadata['globalId']}|${scene.meshes[m]!.material}`))]);
    expect(ids.sort()).toEqual(expected.sort());
  });

  it('the merged USDZ reads back with the same triangles and carries element ids', async () => {
    const merged = mergeByMaterial(await readIfc(corpusBytes('ifc', 'duplex.ifc')), { minDrawCalls: 0 });
    const bytes = new Uint8Array(Buffer.concat(writeUsdz(merged)));
    const back = await readUsdzBack(bytes);
    expect(back.meshes.reduce((s, m) => s + m.triangles, 0)).toBe(merged.stats.triangles);
    // Read from the binary layer by TinyUSDZ: every element's GlobalId, in the mesh's customData.
    const ids = [...back.text.matchAll(/string\[\] elementGlobalIds = \[([^\]]*)\]/g)].flatMap((m) => m[1]!.split(', ').map((q) => JSON.parse(q) as string));
    expect(ids.length).toBe(merged.meshes.reduce((n, m) => n + (m.elements?.length ?? 0), 0));
    expect(ids.every((id) => /^[0-9A-Za-z_$]{22}$/.test(id))).toBe(true);
    expect(back.text).toContain('"IfcDoor"');
  });

  it('5000 mesh nodes of one material become one draw call', async () => {
    const scene = await readGlb(corpusBytes('glb', 'Synthetic_5000MeshNodes_shared.glb'));
    const merged = mergeByMaterial(scene);
    expect(drawCalls(merged)).toBe(1);
    expect(merged.stats.triangles).toBe(scene.stats.triangles);
  });

  it('leaves small scenes alone', async () => {
    const scene = await readGlb(corpusBytes('glb', 'DamagedHelmet.glb'));
    expect(mergeByMaterial(scene)).toBe(scene);
  });
});
