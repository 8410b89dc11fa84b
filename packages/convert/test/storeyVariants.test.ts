import { describe, expect, it } from 'vitest';
import { readGlb, readGlbJson, readIfc, storeyVariants, writeGlb, mergeByMaterial } from '../src/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';

describe('storeyVariants', () => {
  it('AC20: a variant per storey, each hiding every primitive of the others, and the model drawn whole without one', async () => {
    const glb = await writeGlb(mergeByMaterial(await readIfc(corpusBytes('ifc', 'AC20-FZK-Haus.ifc')), { minDrawCalls: 0 }));
    const out = new Uint8Array(Buffer.concat(storeyVariants(glb)));
    const json = readGlbJson(out) as any;
    expect(json.extensions.KHR_materials_variants.variants.map((v: { name: string }) => v.name)).toEqual([
      'Erdgeschoss',
      'Dachgeschoss',
      'Gelaende',
    ]);
    const hidden = json.materials.findIndex((m: { name?: string }) => m.name === 'hidden_storey');
    expect(json.materials[hidden]).toMatchObject({ alphaMode: 'MASK', pbrMetallicRoughness: { baseColorFactor: [0, 0, 0, 0] } });
    json.scenes[0].nodes.forEach((root: number, v: number) => {
      for (const child of [root, ...(json.nodes[root].children ?? [])]) {
        const mesh = json.nodes[child].mesh;
        if (mesh === undefined) continue;
        for (const p of json.meshes[mesh].primitives)
          expect(p.extensions.KHR_materials_variants.mappings).toEqual([{ material: hidden, variants: [0, 1, 2].filter((o) => o !== v) }]);
      }
    });
    // Without a variant chosen, the same scene as before.
    const [before, after] = [await readGlb(glb), await readGlb(out)];
    expect(after.stats).toEqual(before.stats);
  });

  it('a GLB without storeys comes back as it came', async () => {
    const box = corpusBytes('glb', 'Box.glb');
    const parts = storeyVariants(box);
    expect(parts).toHaveLength(1);
    expect(parts[0]).toBe(box);
  });
});
