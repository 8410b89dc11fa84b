import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partScene, readIfc, sceneBounds, splitIntoParts, type SceneData, type SceneLevel } from '../src/index.js';
import { newIdentityMatrix } from '../src/scene/identityMatrix.js';
import { corpusBytes } from '../../../test/support/corpus.js';

/** A scene of `count` boxes (12 triangles each, or `big` of them for elements marked so), laid out where fast-check says, under storeys. */
function boxScene(
  elements: Array<{ x: number; z: number; storey: number; wall: boolean; big: boolean }>,
  storeys: number,
): SceneData & { levels: SceneLevel[] } {
  const nodes: SceneData['nodes'] = [];
  const levels: SceneLevel[] = [];
  for (let s = 0; s < storeys; s++) {
    levels.push({
      node: nodes.length,
      storey: { name: `S${s}`, globalId: `g${s}`, ifcClass: 'IfcBuildingStorey', elevation: 3 * (storeys - s) },
    });
    nodes.push({ name: `S${s}`, parent: -1, matrix: newIdentityMatrix(), meshes: [], metadata: {} });
  }
  const meshes: SceneData['meshes'] = [];
  for (const [i, e] of elements.entries()) {
    const triangles = e.big ? 120 : 12;
    const positions = new Float32Array(3 * 3 * triangles);
    for (let v = 0; v < positions.length; v += 3) {
      positions[v] = e.x + (v % 2);
      positions[v + 1] = (v / 3) % 3;
      positions[v + 2] = e.z + ((v / 3) % 2);
    }
    const indices = Uint32Array.from({ length: 3 * triangles }, (_, k) => k);
    meshes.push({ name: `m${i}`, positions, indices, material: 0 });
    nodes.push({
      name: `e${i}`,
      parent: e.storey < storeys ? levels[e.storey]!.node : -1,
      matrix: newIdentityMatrix(),
      meshes: [meshes.length - 1],
      metadata: { ifcClass: e.wall ? 'IfcWall' : 'IfcFurnishingElement', globalId: `e${i}` },
    });
  }
  const scene = {
    source: { format: 'glb' as const },
    nodes,
    meshes,
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
    textures: [],
    offset: [0, 0, 0] as [number, number, number],
    bounds: { min: [0, 0, 0] as [number, number, number], max: [0, 0, 0] as [number, number, number] },
    stats: { nodes: 0, meshNodes: 0, meshes: 0, triangles: 0, vertices: 0, materials: 1, textures: 0 },
    warnings: [],
    levels,
  };
  return scene;
}

const elementsArb = fc.array(
  fc.record({
    x: fc.integer({ min: -50, max: 50 }),
    z: fc.integer({ min: -50, max: 50 }),
    storey: fc.integer({ min: 0, max: 3 }),
    wall: fc.boolean(),
    big: fc.boolean(),
  }),
  { minLength: 1, maxLength: 80 },
);

describe('splitIntoParts', () => {
  it('puts every element in exactly one part, of its own storey, each part within the limit or one element', () => {
    fc.assert(
      fc.property(elementsArb, fc.integer({ min: 1, max: 3 }), fc.integer({ min: 12, max: 600 }), (elements, storeys, triangles) => {
        const scene = boxScene(elements, storeys);
        const parts = splitIntoParts(scene, scene.levels, { triangles, clutterWeight: 1 / 4 });
        const seen = parts.flatMap((p) => p.nodes).sort((a, b) => a - b);
        const elementNodes = scene.nodes.flatMap((n, i) => (n.meshes.length > 0 ? [i] : []));
        expect(seen).toEqual(elementNodes);
        for (const part of parts) {
          const weight = part.nodes.reduce((w, n) => {
            const drawn = scene.meshes[scene.nodes[n]!.meshes[0]!]!.indices.length / 3;
            return w + (scene.nodes[n]!.metadata.ifcClass === 'IfcWall' ? drawn : drawn / 4);
          }, 0);
          expect(weight <= triangles || part.nodes.length === 1).toBe(true);
          // One storey a part, named after it; its cells numbered.
          for (const n of part.nodes) {
            const parent = scene.nodes[n]!.parent;
            expect(part.storey?.name ?? null).toBe(parent < 0 ? null : scene.nodes[parent]!.name);
          }
          if (part.cell) expect(part.name).toBe(`${part.storey?.name ?? 'Unplaced'} · ${part.cell[0] + 1}/${part.cell[1]}`);
          // Its bounds are those of what it draws.
          const drawn = sceneBounds(partScene(scene, part));
          expect(drawn).toEqual(part.bounds);
        }
        // Bottom up: storeys by elevation, the unplaced last.
        const elevations = parts.map((p) => p.storey?.elevation ?? Number.POSITIVE_INFINITY);
        expect(elevations).toEqual([...elevations].sort((a, b) => a - b));
      }),
      { numRuns: 200 },
    );
  });

  it('a part scene keeps only what its elements draw, under their storey, in the whole frame', () => {
    const scene = boxScene(
      [
        { x: 0, z: 0, storey: 0, wall: true, big: false },
        { x: 40, z: 0, storey: 0, wall: true, big: false },
        { x: 0, z: 0, storey: 1, wall: false, big: true },
      ],
      2,
    );
    const [top, bottom] = splitIntoParts(scene, scene.levels);
    const lower = partScene(scene, top!);
    expect(top!.storey?.name).toBe('S1');
    expect(lower.nodes.map((n) => n.name)).toEqual(['S1', 'e2']);
    expect(lower.nodes[1]!.parent).toBe(0);
    expect(lower.meshes).toHaveLength(1);
    expect(lower.meshes[0]!.positions).toBe(scene.meshes[2]!.positions);
    expect(lower.stats.triangles).toBe(120);
    expect(lower.offset).toBe(scene.offset);
    expect(partScene(scene, bottom!).stats.triangles).toBe(24);
  });

  it('storeys of the same name in several buildings are told apart by number', () => {
    const scene = boxScene(
      [
        { x: 0, z: 0, storey: 0, wall: true, big: false },
        { x: 90, z: 0, storey: 1, wall: true, big: false },
      ],
      2,
    );
    const levels = scene.levels.map((l) => ({ ...l, storey: { ...l.storey, name: 'Level 1', elevation: 0 } }));
    expect(splitIntoParts(scene, levels).map((p) => p.name)).toEqual(['Level 1', 'Level 1 (2)']);
  });

  it('duplex: one part per storey bottom up, with the elevations the file states', async () => {
    const scene = await readIfc(corpusBytes('ifc', 'duplex.ifc'));
    const parts = splitIntoParts(scene, scene.levels, { triangles: 20_000 });
    expect(parts.map((p) => [p.name, p.storey?.ifcClass, p.storey?.elevation && Math.round(p.storey.elevation * 100) / 100])).toEqual([
      ['T/FDN', 'IfcBuildingStorey', -1.25],
      ['Level 1', 'IfcBuildingStorey', 0],
      ['Level 2', 'IfcBuildingStorey', 3.1],
      ['Roof', 'IfcBuildingStorey', 6],
    ]);
    expect(parts.reduce((n, p) => n + p.triangles, 0)).toBe(scene.stats.triangles);
    for (const p of parts) expect(p.storey!.globalId).toMatch(/^[0-9A-Za-z_$]{22}$/);
  });

  it('Office_A at a small budget: a storey over it is cut into neighbouring cells', async () => {
    const scene = await readIfc(corpusBytes('ifc', 'Office_A_20110811.ifc'));
    const parts = splitIntoParts(scene, scene.levels, { triangles: 10_000 });
    const level1 = parts.filter((p) => p.storey?.name === 'Level 1');
    expect(level1.length).toBeGreaterThan(1);
    expect(level1.map((p) => p.cell)).toEqual(level1.map((_, k) => [k, level1.length]));
    // Cells cut across one axis do not overlap much: no two cells share the same centre.
    const centres = level1.map((p) => `${Math.round(p.bounds.min[0] + p.bounds.max[0])},${Math.round(p.bounds.min[2] + p.bounds.max[2])}`);
    expect(new Set(centres).size).toBe(level1.length);
  });
});
