import { describe, expect, it } from 'vitest';
import { mergeByMaterial, readGlb, readIfc, sceneBounds, sceneStats, writeUsdz, type SceneData } from '../src/index.js';
import { corpusBytes } from '../../../test/support/corpus.js';
import { readUsdzBack } from '../../../test/support/usdReader.js';
import { at, plainScene, triangleMesh } from './support/plainScene.js';

const drawCalls = (s: { nodes: Array<{ meshes: number[] }> }) => s.nodes.reduce((n, x) => n + x.meshes.length, 0);

describe('mergeByMaterial', () => {
  it('Office_A: 1461 draws become one per storey and colour; every element stays identifiable', async () => {
    const scene = await readIfc(corpusBytes('ifc', 'Office_A_20110811.ifc'));
    expect(drawCalls(scene)).toBeGreaterThan(1000);
    const merged = mergeByMaterial(scene);
    const storeys = new Set(scene.nodes.map((n) => n.metadata.storey ?? ''));
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
        ids.push(`${e.metadata.globalId}|${m.material}`);
      }
      expect(next).toBe(m.indices.length / 3);
    }
    const expected = scene.nodes.flatMap((n) => [...new Set(n.meshes.map((m) => `${n.metadata.globalId}|${scene.meshes[m]!.material}`))]);
    expect(ids.sort()).toEqual(expected.sort());
  });

  it('the merged USDZ reads back with the same triangles and carries element ids', async () => {
    const merged = mergeByMaterial(await readIfc(corpusBytes('ifc', 'duplex.ifc')), { minDrawCalls: 0 });
    const bytes = new Uint8Array(Buffer.concat(writeUsdz(merged)));
    const back = await readUsdzBack(bytes);
    expect(back.meshes.reduce((s, m) => s + m.triangles, 0)).toBe(merged.stats.triangles);
    // Read from the binary layer by TinyUSDZ: every element's GlobalId, in the mesh's customData.
    const ids = [...back.text.matchAll(/string\[\] elementGlobalIds = \[([^\]]*)\]/g)].flatMap((m) =>
      m[1]!.split(', ').map((q) => JSON.parse(q) as string),
    );
    expect(ids.length).toBe(merged.meshes.reduce((n, m) => n + (m.elements?.length ?? 0), 0));
    expect(ids.every((id) => /^[0-9A-Za-z_$]{22}$/.test(id))).toBe(true);
    expect(back.text).toContain('"IfcDoor"');
  });

  it("merges per storey, not per space: a space's elements lie in its storey, named with its elevation", async () => {
    const scene = await readIfc(corpusBytes('ifc', 'duplex.ifc'));
    // Duplex contains its furniture in spaces (A101, B203, …), each in a storey.
    expect(scene.levels.some((l) => l.storey.name !== scene.nodes[l.node]!.metadata.name)).toBe(true);
    const merged = mergeByMaterial(scene, { minDrawCalls: 0 });
    const groups = merged.nodes.filter((n) => n.parent < 0);
    const storeys = scene.levels.filter((l) => /^IfcBuildingStorey$/i.test(l.storey.ifcClass)).map((l) => l.storey);
    expect(groups.map((n) => n.metadata.storey).sort()).toEqual([...new Set(storeys.map((s) => s.name))].sort());
    for (const group of groups) {
      const storey = storeys.find((s) => s.name === group.metadata.storey)!;
      expect(group.metadata.storeyClass).toBe('IfcBuildingStorey');
      expect(Number(group.metadata.elevation)).toBeCloseTo(storey.elevation!, 3);
    }
  });

  it("keeps a repeated mesh under its storey's node, so hiding the storey hides it", () => {
    // A storey holding a slab and a column drawn at two places from one mesh (a mapped item).
    const element = (name: string, x: number, meshes: number[]) => ({
      name,
      parent: 0,
      matrix: at(x),
      meshes,
      metadata: { ifcClass: 'IfcColumn', globalId: name, name, storey: 'Level 1' },
    });
    const storeyNode = {
      name: 'Level 1',
      parent: -1,
      matrix: at(0),
      meshes: [],
      metadata: { ifcClass: 'IfcBuildingStorey', name: 'Level 1' },
    };
    const scene = plainScene(
      [storeyNode, element('slab', 0, [0]), element('column A', 2, [1]), element('column B', 4, [1])],
      [triangleMesh('slab'), triangleMesh('column')],
    );
    const merged = mergeByMaterial(scene, { minDrawCalls: 0, keep: new Set([1]) });
    const storey = merged.nodes.findIndex((n) => n.metadata.storey === 'Level 1' && n.parent < 0);
    expect(merged.nodes[storey]!.matrix).toEqual(at(0));
    const kept = merged.nodes.filter((n) => n.meshes.includes(1) || n.name.startsWith('column'));
    expect(kept.map((n) => [n.name, n.parent, n.matrix[12]])).toEqual([
      ['column A', storey, 2],
      ['column B', storey, 4],
    ]);
  });

  it('5000 mesh nodes of one material become one draw call', async () => {
    const scene = await readGlb(corpusBytes('glb', 'Synthetic_5000MeshNodes_shared.glb'));
    const merged = mergeByMaterial(scene);
    expect(drawCalls(merged)).toBe(1);
    expect(merged.stats.triangles).toBe(scene.stats.triangles);
  });

  it('keeps faces the right way out when it bakes a mirrored node, and moves no index otherwise', () => {
    // One triangle facing +z (counter-clockwise), drawn at a plain node and at a node mirrored in x.
    const triangle = {
      name: 't',
      positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
      normals: new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]),
      indices: new Uint32Array([0, 1, 2]),
      material: 0,
    };
    const node = (name: string, sx: number) => ({
      name,
      parent: -1,
      matrix: new Float64Array([sx, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1]),
      meshes: [0],
      metadata: {},
    });
    const base = {
      nodes: [node('plain', 1), node('mirrored', -1)],
      meshes: [triangle],
      textures: [],
      materials: [
        {
          name: 'm',
          baseColor: [1, 1, 1] as [number, number, number],
          opacity: 1,
          metallic: 0,
          roughness: 1,
          emissive: [0, 0, 0] as [number, number, number],
          doubleSided: false,
        },
      ],
    };
    const scene: SceneData = {
      source: { format: 'glb' },
      ...base,
      offset: [0, 0, 0],
      bounds: sceneBounds(base),
      stats: sceneStats(base),
      warnings: [],
    };
    const merged = mergeByMaterial(scene, { minDrawCalls: 1 });
    expect(merged.meshes).toHaveLength(1);
    const { positions: p, normals, indices } = merged.meshes[0]!;
    expect([...indices]).toEqual([0, 1, 2, 3, 5, 4]);
    for (let t = 0; t < 2; t++) {
      const [a, b, c] = [indices[t * 3]!, indices[t * 3 + 1]!, indices[t * 3 + 2]!].map((i) => [p[i * 3]!, p[i * 3 + 1]!, p[i * 3 + 2]!]);
      const faceZ = (b![0]! - a![0]!) * (c![1]! - a![1]!) - (b![1]! - a![1]!) * (c![0]! - a![0]!);
      expect(faceZ * normals![indices[t * 3]! * 3 + 2]!).toBeGreaterThan(0);
    }
  });

  it('leaves small scenes alone', async () => {
    const scene = await readGlb(corpusBytes('glb', 'DamagedHelmet.glb'));
    expect(mergeByMaterial(scene)).toBe(scene);
  });
});
