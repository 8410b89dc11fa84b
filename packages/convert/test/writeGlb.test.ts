import { describe, expect, it } from 'vitest';
import { checkGlbLayout, countMeshNodes, readGlb, readGlbJson, readIfc, writeGlb } from '../src/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';

describe('writeGlb', () => {
  it.each([
    ['glb', 'DamagedHelmet.glb'],
    ['glb', 'SimpleInstancing.glb'],
    ['glb', 'CesiumMan.glb'],
  ] as const)('%s/%s round-trips through readGlb with the same geometry', async (kind, name) => {
    const scene = await readGlb(corpusBytes(kind, name));
    const glb = await writeGlb(scene);
    const json = readGlbJson(glb);
    checkGlbLayout(glb, json);
    expect(countMeshNodes(json)).toBe(scene.stats.meshNodes);
    const back = await readGlb(glb);
    expect(back.stats.triangles).toBe(scene.stats.triangles);
    expect(back.stats.meshNodes).toBe(scene.stats.meshNodes);
    for (let k = 0; k < 3; k++) {
      expect(back.bounds.min[k]).toBeCloseTo(scene.bounds.min[k]!, 5);
      expect(back.bounds.max[k]).toBeCloseTo(scene.bounds.max[k]!, 5);
    }
    back.textures.forEach((t, i) => expect(Buffer.from(t.data).equals(Buffer.from(scene.textures[i]!.data))).toBe(true));
  });

  it('an IFC scene as GLB keeps element identity in node extras', async () => {
    const scene = await readIfc(corpusBytes('ifc', 'IfcOpenHouse_IFC4.ifc'));
    const json = readGlbJson(await writeGlb(scene)) as { nodes: Array<{ extras?: Record<string, string> }> };
    expect(json.nodes.filter((n) => n.extras?.ifcClass === 'IfcDoor')).toHaveLength(1);
  });
});
