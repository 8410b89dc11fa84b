import { describe, expect, it } from 'vitest';
import {
  deliveredStoreys,
  describeLayer,
  mergeByMaterial,
  readGlb,
  readIfc,
  rootPrimPaths,
  sceneBounds,
  sceneStats,
} from '../src/index.js';
import type { SceneData, SceneNode } from '../src/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';

/** A scene of empty storey groups, named as given. */
function storeyGroups(names: string[]): SceneData {
  const nodes: SceneNode[] = names.map((name, i) => ({
    name,
    parent: -1,
    matrix: new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
    meshes: [],
    metadata: { storey: name, storeyClass: 'IfcBuildingStorey', elevation: String(3 * (names.length - i)) },
  }));
  const base = { nodes, meshes: [], materials: [], textures: [] };
  return { source: { format: 'ifc' }, ...base, offset: [0, 0, 0], bounds: sceneBounds(base), stats: sceneStats(base), warnings: [] };
}

describe('deliveredStoreys', () => {
  it('AC20 merged: bottom up, each at the path of the Xform the layer writes for it', async () => {
    const merged = mergeByMaterial(await readIfc(corpusBytes('ifc', 'AC20-FZK-Haus.ifc')), { minDrawCalls: 0 });
    const storeys = deliveredStoreys(merged);
    expect(storeys.map((s) => [s.name, s.ifcClass, s.elevation])).toEqual([
      ['Erdgeschoss', 'IfcBuildingStorey', 0],
      ['Dachgeschoss', 'IfcBuildingStorey', 2.7],
      ['Gelaende', 'IfcSite', null],
    ]);
    const written = describeLayer(merged).root.children.map((c) => `/Model/${c.name}`);
    for (const s of storeys) expect(written).toContain(s.prim);
  });

  it("unmerged: the reader's storey nodes, not its spaces", async () => {
    const scene = await readIfc(corpusBytes('ifc', 'wall_door_columnt_rgb4x3.ifc'));
    expect(deliveredStoreys(scene).map((s) => [s.name, s.prim])).toEqual([['L1', '/Model/L1']]);
  });

  it("names clash as the layer's do: a storey called Materials, or Prototypes when instancing", () => {
    const scene = storeyGroups(['Materials', 'Prototypes', 'Level 1', 'Level-1']);
    const paths = (instanceable: boolean) => deliveredStoreys(scene, { instanceable }).map((s) => s.prim);
    expect(paths(false)).toEqual(['/Model/Level_1_1', '/Model/Level_1', '/Model/Prototypes', '/Model/Materials_1']);
    expect(paths(true)).toEqual(['/Model/Level_1_1', '/Model/Level_1', '/Model/Prototypes_1', '/Model/Materials_1']);
    for (const instanceable of [false, true]) {
      const layer = describeLayer(scene, { instanceable });
      const xforms = layer.root.children.filter((c) => c.typeName === 'Xform').map((c) => `/Model/${c.name}`);
      expect([...rootPrimPaths(scene, { instanceable }).values()]).toEqual(xforms);
    }
  });

  it('a GLB has none', async () => {
    expect(deliveredStoreys(await readGlb(corpusBytes('glb', 'Box.glb')))).toEqual([]);
  });
});
