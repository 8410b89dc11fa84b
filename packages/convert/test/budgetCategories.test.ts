import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  categoryOfIfcClass,
  fitArBudget,
  readIfc,
  sceneBounds,
  sceneStats,
  worldMatrices,
  type SceneData,
  type SceneMesh,
  type SceneNode,
} from '../src/index.js';
import { BOX_PROXY_TRIANGLES, boxProxy, TOP_PROXY_TRIANGLES, topProxy, categoryOfShape, StreamReduction } from '../src/budget/index.js';
import { runConversion } from '../src/worker/runConversion.js';
import { corpusBytes } from '../../../test/support/corpus.js';

const at = (x: number, y: number, z: number) => new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]);

/** An axis-aligned box from `min` to `max`, 12 triangles facing out. */
function box(min: [number, number, number], max: [number, number, number], material = 0): SceneMesh {
  const unit = boxProxy({ name: '', positions: new Float32Array([0, 0, 0, 1, 1, 1]), indices: new Uint32Array(0), material });
  const positions = unit.positions.map((v, i) => (v === 0 ? min[i % 3]! : max[i % 3]!));
  return { ...unit, name: 'box', positions };
}

/** A UV sphere of `radius` with `segments` × `segments / 2` quads: a finely tessellated chair, as web-ifc draws curved furniture. */
function ball(radius: number, segments: number): SceneMesh {
  const rings = segments / 2,
    positions: number[] = [],
    normals: number[] = [],
    indices: number[] = [];
  for (let r = 0; r <= rings; r++) {
    for (let s = 0; s <= segments; s++) {
      const theta = (r / rings) * Math.PI,
        phi = (s / segments) * 2 * Math.PI;
      const n = [Math.sin(theta) * Math.cos(phi), Math.cos(theta), Math.sin(theta) * Math.sin(phi)];
      normals.push(...n);
      positions.push(...n.map((v) => v * radius));
    }
  }
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s < segments; s++) {
      const a = r * (segments + 1) + s,
        b = a + segments + 1;
      indices.push(a, a + 1, b, a + 1, b + 1, b);
    }
  }
  return {
    name: 'chair',
    positions: new Float32Array(positions),
    normals: new Float32Array(normals),
    indices: new Uint32Array(indices),
    material: 1,
  };
}

/**
 * A one-room building as an IFC reader gives it: four walls, a slab, two windows (envelope, 12
 * triangles each) and `chairs` chairs of 2,304 triangles each (furniture, one mesh drawn at each
 * chair's place), so nearly every triangle is furniture.
 */
function furnishedRoom(chairs: number, chair = ball(0.4, 48)): SceneData {
  const material = (i: number) => ({
    name: `m${i}`,
    baseColor: [0.5, 0.5, 0.5] as [number, number, number],
    opacity: 1,
    metallic: 0,
    roughness: 0.8,
    emissive: [0, 0, 0] as [number, number, number],
    doubleSided: true,
  });
  const envelope: Array<[string, SceneMesh]> = [
    ['IfcWallStandardCase', box([0, 0, 0], [10, 3, 0.2])],
    ['IfcWallStandardCase', box([0, 0, 9.8], [10, 3, 10])],
    ['IfcWall', box([0, 0, 0], [0.2, 3, 10])],
    ['IfcWall', box([9.8, 0, 0], [10, 3, 10])],
    ['IfcSlab', box([0, -0.3, 0], [10, 0, 10])],
    ['IfcWindow', box([2, 1, -0.05], [3.2, 2.2, 0.25])],
    ['IfcWindow', box([6, 1, -0.05], [7.2, 2.2, 0.25])],
  ];
  const meshes = [...envelope.map(([, mesh]) => mesh), chair];
  const nodes: SceneNode[] = [
    {
      name: 'Ground floor',
      parent: -1,
      matrix: at(0, 0, 0),
      meshes: [],
      metadata: { ifcClass: 'IfcBuildingStorey', name: 'Ground floor' },
    },
  ];
  envelope.forEach(([ifcClass], i) =>
    nodes.push({
      name: `${ifcClass} ${i}`,
      parent: 0,
      matrix: at(0, 0, 0),
      meshes: [i],
      metadata: { ifcClass, globalId: `E${i}`, storey: 'Ground floor' },
    }),
  );
  for (let c = 0; c < chairs; c++) {
    nodes.push({
      name: `chair ${c}`,
      parent: 0,
      matrix: at(1 + (c % 8), 0.4, 1 + Math.floor(c / 8)),
      meshes: [meshes.length - 1],
      metadata: { ifcClass: 'IfcFurnishingElement', globalId: `F${c}`, storey: 'Ground floor' },
    });
  }
  const base = { nodes, meshes, materials: [material(0), material(1)], textures: [] };
  return { source: { format: 'ifc' }, ...base, offset: [0, 0, 0], bounds: sceneBounds(base), stats: sceneStats(base), warnings: [] };
}

/**
 * Each element's triangles in world space, by GlobalId, each written as its corners (to 0.1 mm)
 * from its smallest one on, keeping the winding: the same set means the same surface, drawn the
 * same way round, however meshes were merged.
 */
function trianglesByElement(scene: SceneData): Map<string, string[]> {
  const world = worldMatrices(scene.nodes);
  const out = new Map<string, string[]>();
  scene.nodes.forEach((node, n) => {
    const w = world[n]!;
    for (const m of node.meshes) {
      const mesh = scene.meshes[m]!;
      const runs = mesh.elements ?? [{ firstTriangle: 0, triangleCount: mesh.indices.length / 3, metadata: node.metadata }];
      for (const run of runs) {
        const id = run.metadata.globalId!;
        const list = out.get(id) ?? [];
        for (let t = run.firstTriangle; t < run.firstTriangle + run.triangleCount; t++) {
          const corners = [0, 1, 2].map((k) => {
            const v = mesh.indices[t * 3 + k]! * 3,
              [x, y, z] = [mesh.positions[v]!, mesh.positions[v + 1]!, mesh.positions[v + 2]!];
            return [0, 1, 2].map((r) => (w[r]! * x + w[4 + r]! * y + w[8 + r]! * z + w[12 + r]!).toFixed(4)).join(' ');
          });
          const first = corners.indexOf([...corners].sort()[0]!);
          list.push([0, 1, 2].map((k) => corners[(first + k) % 3]).join(' | '));
        }
        out.set(id, list);
      }
    }
  });
  for (const list of out.values()) list.sort();
  return out;
}

describe('the AR budget takes triangles from what a person misses least', () => {
  it('a building whose triangles are mostly finely tessellated furniture keeps its walls, slab and windows exactly as read', async () => {
    const room = furnishedRoom(40);
    expect(room.stats.triangles).toBeGreaterThan(90_000);
    const { scene: delivered, report } = await fitArBudget(room, { triangles: 20_000 });
    expect(report.withinBudget).toBe(true);
    expect(delivered.stats.triangles).toBeLessThanOrEqual(20_000);
    const read = trianglesByElement(room),
      kept = trianglesByElement(delivered);
    for (let i = 0; i < 7; i++) expect(kept.get(`E${i}`), `envelope element E${i}`).toEqual(read.get(`E${i}`));
    // Every chair is still there, coarser: none left out while coarsening them was enough.
    for (let c = 0; c < 40; c++) {
      expect(kept.get(`F${c}`)!.length).toBeGreaterThan(0);
      expect(kept.get(`F${c}`)!.length).toBeLessThan(read.get(`F${c}`)!.length);
    }
    const [envelope, furniture] = report.categories;
    expect(envelope).toEqual({
      category: 'envelope',
      sourceTriangles: 84,
      deliveredTriangles: 84,
      maxDeviation: 0,
      maxUncovered: 0,
      proxiedElements: 0,
      leftOut: [],
    });
    expect(furniture).toMatchObject({ category: 'furniture', sourceTriangles: room.stats.triangles - 84, proxiedElements: 0, leftOut: [] });
    expect(furniture!.deliveredTriangles).toBe(delivered.stats.triangles - 84);
    // Coarsened by a share of its own size (a 0.8 m chair): centimetres, not the room's metres.
    expect(furniture!.maxDeviation).toBeGreaterThan(0);
    expect(furniture!.maxDeviation).toBeLessThan(0.1);
    expect(delivered.warnings.find((w) => w.code === 'budget_simplified')!.message).toMatch(
      /envelope 84 → 84 triangles \(as read\), furniture \d+ → \d+ triangles \(within \d/,
    );
  });

  it(
    'when coarsening is not enough, furniture stands as boxes, then as ' +
      'their top faces, then is left out and named; the envelope still as read',
    async () => {
      const room = furnishedRoom(40);
      const boxed = await fitArBudget(room, { triangles: 1_000 });
      expect(boxed.report.withinBudget).toBe(true);
      const read = trianglesByElement(room);
      for (let i = 0; i < 7; i++) expect(trianglesByElement(boxed.scene).get(`E${i}`)).toEqual(read.get(`E${i}`));
      // One mesh drawn at 40 places: its box is drawn at each.
      expect(boxed.report.categories[1]).toMatchObject({
        category: 'furniture',
        deliveredTriangles: 40 * BOX_PROXY_TRIANGLES,
        proxiedElements: 40,
        leftOut: [],
      });
      expect(boxed.scene.warnings.find((w) => w.code === 'budget_proxied')!.message).toMatch(
        /^40 elements drawn as the box around them .*furniture 40/,
      );

      // 40 boxes are too many for 200: each chair is the top face of its box, facing up.
      const tops = await fitArBudget(room, { triangles: 200 });
      expect(tops.report.withinBudget).toBe(true);
      for (let i = 0; i < 7; i++) expect(trianglesByElement(tops.scene).get(`E${i}`)).toEqual(read.get(`E${i}`));
      expect(tops.report.categories[1]).toMatchObject({
        category: 'furniture',
        deliveredTriangles: 40 * TOP_PROXY_TRIANGLES,
        proxiedElements: 40,
        leftOut: [],
      });
      const chairTop = trianglesByElement(tops.scene)
        .get('F0')!
        .map((t) => t.split(' | ').map((c) => Number(c.split(' ')[1])));
      // At the chair's top (0.4 m above its centre, placed 0.4 m up), level.
      for (const corners of chairTop) for (const y of corners) expect(y).toBeCloseTo(0.8, 3);

      const bare = await fitArBudget(room, { triangles: 100 });
      expect(bare.report.withinBudget).toBe(true);
      for (let i = 0; i < 7; i++) expect(trianglesByElement(bare.scene).get(`E${i}`)).toEqual(read.get(`E${i}`));
      expect(bare.report.categories[1]).toMatchObject({
        category: 'furniture',
        deliveredTriangles: 0,
        leftOut: [{ ifcClass: 'IfcFurnishingElement', elements: 40 }],
      });
      // Left out whole: each counts its own size, the chair's 0.8 m diagonal.
      expect(bare.report.categories[1]!.maxUncovered).toBeCloseTo(Math.hypot(0.8, 0.8, 0.8), 2);
      expect(bare.scene.warnings.find((w) => w.code === 'budget_left_out')!.message).toBe(
        '40 elements left out to fit the AR budget: IfcFurnishingElement ×40',
      );
    },
  );

  it('furniture made of pieces far apart stands as a box round each, not one box across the gap between', async () => {
    // Two balls 1.2 m apart in one mesh, as a track's fastening is the clips at both rails.
    const one = ball(0.2, 48);
    const count = one.positions.length / 3;
    const pair: SceneMesh = {
      ...one,
      positions: Float32Array.from([...one.positions].concat([...one.positions].map((v, i) => (i % 3 === 0 ? v + 1.6 : v)))),
      normals: Float32Array.from([...one.normals!, ...one.normals!]),
      indices: Uint32Array.from([...one.indices, ...[...one.indices].map((v) => v + count)]),
    };
    const room = furnishedRoom(40, pair);
    const boxed = await fitArBudget(room, { triangles: 2_000 });
    expect(boxed.report.withinBudget).toBe(true);
    expect(boxed.report.categories[1]).toMatchObject({
      category: 'furniture',
      deliveredTriangles: 40 * 2 * BOX_PROXY_TRIANGLES,
      proxiedElements: 40,
    });
    // Chair 0 stands at x = 1: its balls span x 0.8–1.2 and 2.4–2.8; nothing is drawn between.
    const xs = trianglesByElement(boxed.scene)
      .get('F0')!
      .flatMap((t) => t.split(' | ').map((c) => Number(c.split(' ')[0])));
    expect(xs.length).toBe(2 * BOX_PROXY_TRIANGLES * 3);
    for (const x of xs) expect(x <= 1.2 + 1e-4 || x >= 2.4 - 1e-4).toBe(true);
    expect(Math.min(...xs)).toBeCloseTo(0.8, 3);
    expect(Math.max(...xs)).toBeCloseTo(2.8, 3);
    // Each box is within its face's diagonal of its ball, not of the pair's box.
    expect(boxed.report.categories[1]!.maxDeviation).toBeCloseTo(Math.hypot(0.4, 0.4), 3);

    // Too many boxes for 300: each chair the top faces of its two boxes, 2 triangles each, at the balls' tops.
    const tops = await fitArBudget(room, { triangles: 300 });
    expect(tops.report.withinBudget).toBe(true);
    expect(tops.report.categories[1]).toMatchObject({ deliveredTriangles: 40 * 2 * TOP_PROXY_TRIANGLES, proxiedElements: 40 });
    const corners = trianglesByElement(tops.scene)
      .get('F0')!
      .flatMap((t) => t.split(' | ').map((c) => c.split(' ').map(Number)));
    for (const [x, y] of corners) {
      expect(x! <= 1.2 + 1e-4 || x! >= 2.4 - 1e-4).toBe(true);
      expect(y).toBeCloseTo(0.6, 3);
    }
  });

  it('only once all clutter is gone does the envelope give up triangles', async () => {
    const room = furnishedRoom(3);
    const { report } = await fitArBudget(room, { triangles: 60 });
    expect(report.withinBudget).toBe(true);
    expect(report.categories[1]).toMatchObject({ category: 'furniture', deliveredTriangles: 0 });
    expect(report.categories[0]!.deliveredTriangles).toBeLessThanOrEqual(60);
  });

  it("IFC over the budget: the report's categories add up to the source and delivered triangles", async () => {
    const result = await runConversion({
      bytes: corpusBytes('ifc', 'ISSUE_021_Mini_Project.ifc'),
      fileName: 'mini.ifc',
      outputs: ['usdz'],
    });
    const budget = result.budget!;
    expect(budget.categories.map((c) => c.category)).toContain('envelope');
    expect(budget.categories.reduce((n, c) => n + c.sourceTriangles, 0)).toBe(budget.source.triangles);
    expect(budget.categories.reduce((n, c) => n + c.deliveredTriangles, 0)).toBe(budget.delivered.triangles);
    for (const c of budget.categories) expect(c.maxDeviation).toBeLessThanOrEqual(budget.maxDeviation);
    // Read with the reduction, each placement knows its product's class.
    const reduction = new StreamReduction({ triangles: 40_000 });
    await readIfc(corpusBytes('ifc', 'ISSUE_021_Mini_Project.ifc'), { reduction });
    expect(reduction.categories.find((c) => c.category === 'envelope')!.sourceTriangles).toBeGreaterThan(0);
  });
});

describe('categoryOfIfcClass', () => {
  it("puts the building's own elements in the envelope, in any case and subtype, and the rest where it belongs", () => {
    for (const c of [
      'IfcWall',
      'IFCWALLSTANDARDCASE',
      'IfcSlabElementedCase',
      'IfcRoof',
      'IfcCurtainWall',
      'IfcWindow',
      'IfcDoorStandardCase',
      'IfcColumn',
      'IfcBeam',
      'IfcStairFlight',
      'IfcRailing',
      'IfcPlate',
      'IfcMember',
    ]) {
      expect(categoryOfIfcClass(c), c).toBe('envelope');
    }
    expect(categoryOfIfcClass('IfcFurnishingElement')).toBe('furniture');
    expect(categoryOfIfcClass('IFCFURNITURE')).toBe('furniture');
    for (const c of [
      'IfcFlowTerminal',
      'IfcPipeSegment',
      'IfcDuctFitting',
      'IfcLightFixture',
      'IfcSanitaryTerminal',
      'IfcDistributionControlElement',
    ])
      expect(categoryOfIfcClass(c), c).toBe('mep');
    for (const c of ['IfcBuildingElementProxy', 'IfcFastener', undefined, '']) expect(categoryOfIfcClass(c), String(c)).toBe('other');
  });
});

describe('categoryOfShape', () => {
  it(
    'a flat-faced mesh at least 2 m across is envelope, however it ' + 'is turned about the vertical; a round one or a small one is not',
    () => {
      fc.assert(
        fc.property(
          fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
          fc.double({ min: 2.5, max: 40, noNaN: true }),
          (angle, length) => {
            const wall = box([0, 0, 0], [length, 3, 0.2]);
            const c = Math.cos(angle),
              s = Math.sin(angle);
            const turned = wall.positions.map((v, i, p) => (i % 3 === 0 ? c * v - s * p[i + 2]! : i % 3 === 2 ? s * p[i - 2]! + c * v : v));
            expect(categoryOfShape({ positions: turned, indices: wall.indices }, 1)).toBe('envelope');
          },
        ),
      );
      expect(categoryOfShape(box([0, 0, 0], [1, 0.5, 0.5]), 1)).toBe('other');
      expect(categoryOfShape(box([0, 0, 0], [1, 0.5, 0.5]), 10)).toBe('envelope');
      expect(categoryOfShape(ball(2, 48), 1)).toBe('other');
    },
  );
});

describe('topProxy', () => {
  it('is the top face of the box along the axis named up, two triangles facing that way', () => {
    const mesh = box([1, 2, 3], [4, 5, 7]);
    for (const axis of [0, 1, 2] as const) {
      for (const side of [0, 1] as const) {
        const top = topProxy(mesh, { axis, side });
        expect(top.indices.length / 3).toBe(TOP_PROXY_TRIANGLES);
        const level = side ? [4, 5, 7][axis]! : [1, 2, 3][axis]!;
        for (let v = 0; v < top.positions.length / 3; v++) {
          expect(top.positions[v * 3 + axis]).toBe(level);
          expect(top.normals![v * 3 + axis]).toBe(side ? 1 : -1);
        }
      }
    }
  });
});

describe('boxProxy', () => {
  it('is 12 outward triangles holding every point of the mesh, touching its box on every side', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.float({ min: -50, max: 50, noNaN: true }),
            fc.float({ min: -50, max: 50, noNaN: true }),
            fc.float({ min: -50, max: 50, noNaN: true }),
          ),
          { minLength: 3, maxLength: 40 },
        ),
        (points) => {
          const mesh: SceneMesh = {
            name: 'm',
            positions: new Float32Array(points.flat()),
            indices: new Uint32Array([0, 1, 2]),
            material: 3,
          };
          const proxy = boxProxy(mesh);
          expect(proxy.indices.length / 3).toBe(BOX_PROXY_TRIANGLES);
          expect(proxy.material).toBe(3);
          const p = proxy.positions;
          const min = [0, 1, 2].map((k) => Math.min(...points.map((q) => q[k]!))),
            max = [0, 1, 2].map((k) => Math.max(...points.map((q) => q[k]!)));
          for (let k = 0; k < 3; k++) {
            const values = Array.from(p).filter((_, i) => i % 3 === k);
            expect(Math.min(...values)).toBe(min[k]! + 0);
            expect(Math.max(...values)).toBe(max[k]! + 0);
          }
          const centre = [0, 1, 2].map((k) => (min[k]! + max[k]!) / 2);
          for (let t = 0; t < 12; t++) {
            const [a, b, c] = [0, 1, 2].map((k) => proxy.indices[t * 3 + k]! * 3);
            const u = [0, 1, 2].map((k) => p[b! + k]! - p[a! + k]!),
              v = [0, 1, 2].map((k) => p[c! + k]! - p[a! + k]!);
            const n = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
            // Facing away from the centre, the way its vertex normal says.
            const out = [0, 1, 2].reduce((s, k) => s + n[k]! * (p[a! + k]! - centre[k]!), 0);
            expect(out).toBeGreaterThanOrEqual(0);
            expect([0, 1, 2].reduce((s, k) => s + n[k]! * proxy.normals![a! + k]!, 0)).toBeGreaterThanOrEqual(0);
          }
        },
      ),
    );
  });
});
