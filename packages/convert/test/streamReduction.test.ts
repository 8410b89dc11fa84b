import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModelTooLargeError, readIfc, readUsdz, sceneBounds } from '../src/index.js';
import type { Vec3 } from '@arsession/geometry';
import { boxProxy, partsLevel, type Rgba, type SharedGeometry, StreamReduction } from '../src/budget/index.js';
import { SIMPLIFICATION_POLICY_DEFAULTS } from '../src/budget/SimplificationPolicy.js';
import { linearBounds } from '../src/scene/growBounds.js';
import { runConversion } from '../src/worker/runConversion.js';
import { corpusBytes, corpusFiles } from '../../../test/support/corpus.js';
import { farAwayIfcOpenHouse, repeatedColumnsIfc } from '../../../test/support/movedIfc.js';

describe('StreamReduction: the AR budget before an IFC is placed', () => {
  it(
    'a model far over the budget has its shared geometry simplified once, ' +
      'weighted by its draws; the full count, frame, bounds and door index stay',
    async () => {
      const full = await readIfc(corpusBytes('ifc', 'ISSUE_021_Mini_Project.ifc'));
      const reduction = new StreamReduction({ triangles: 40_000, startTriangles: 100_000 });
      const reduced = await readIfc(corpusBytes('ifc', 'ISSUE_021_Mini_Project.ifc'), { reduction });
      expect(reduced.streamReduced).toMatchObject({ sourceTriangles: full.stats.triangles });
      expect(reduced.streamReduced!.reducedGeometries).toBeGreaterThan(0);
      expect(reduced.stats.triangles).toBeLessThanOrEqual(40_000);
      expect(reduced.streamReduced!.maxDeviation).toBeGreaterThan(0);
      expect(reduced.streamReduced!.maxDeviation).toBeLessThan(0.25);
      expect(reduced.offset).toEqual(full.offset);
      expect(reduced.bounds).toEqual(full.bounds);
      expect(reduced.doorOpenings.length).toBe(full.doorOpenings.length);
      // Storeys and products as read in full; then a node per placement of repeated geometry, under its product.
      const products = reduced.nodes.slice(0, full.nodes.length);
      expect(products.map((n) => n.metadata.globalId)).toEqual(full.nodes.map((n) => n.metadata.globalId));
      const placements = reduced.nodes.slice(full.nodes.length);
      expect(placements.length).toBeGreaterThan(0);
      for (const p of placements) expect(p.metadata).toBe(reduced.nodes[p.parent]!.metadata);
      // Repeated geometry is shared, not copied: one mesh drawn at several placements.
      const draws = new Map<number, number>();
      for (const p of placements) for (const m of p.meshes) draws.set(m, (draws.get(m) ?? 0) + 1);
      expect(Math.max(...draws.values())).toBeGreaterThan(1);
      // Drawn through their placements, they lie where the full model does.
      const drawn = sceneBounds(reduced);
      for (let k = 0; k < 3; k++) {
        expect(drawn.min[k]).toBeGreaterThanOrEqual(full.bounds.min[k]! - 1e-3);
        expect(drawn.max[k]).toBeLessThanOrEqual(full.bounds.max[k]! + 1e-3);
      }
    },
  );

  it(
    'under its start every corpus IFC is placed exactly as without it, array ' +
      'for array (one geometry id web-ifc cuts differently per product included)',
    async () => {
      // IfcOpenHouse's walls share a body that web-ifc cuts by each wall's own openings.
      for (const name of corpusFiles('ifc')) {
        const full = await readIfc(corpusBytes('ifc', name));
        const read = await readIfc(corpusBytes('ifc', name), { reduction: new StreamReduction({ startTriangles: 1_000_000 }) });
        expect(read.streamReduced).toBeUndefined();
        expect(read.stats).toEqual(full.stats);
        expect(read.bounds).toEqual(full.bounds);
        read.meshes.forEach((m, i) => {
          expect(
            Buffer.from(m.positions.buffer, m.positions.byteOffset, m.positions.byteLength).equals(
              Buffer.from(full.meshes[i]!.positions.buffer, full.meshes[i]!.positions.byteOffset, full.meshes[i]!.positions.byteLength),
            ),
          ).toBe(true);
          expect(Array.from(m.indices)).toEqual(Array.from(full.meshes[i]!.indices));
        });
      }
    },
  );

  it(
    'a model over the budget is reduced as it is read: each repeated ' +
      'geometry simplified once, the source counted in full, within 2 cm',
    async () => {
      const result = await runConversion({
        bytes: corpusBytes('ifc', 'ISSUE_021_Mini_Project.ifc'),
        fileName: 'mini.ifc',
        outputs: ['usdz'],
      });
      const full = await readIfc(corpusBytes('ifc', 'ISSUE_021_Mini_Project.ifc'));
      const budget = result.budget!;
      expect(budget.source).toMatchObject({ triangles: full.stats.triangles, meshPrims: full.stats.meshNodes });
      expect(budget.withinBudget).toBe(true);
      expect(budget.delivered.triangles).toBeLessThanOrEqual(100_000);
      // Nearly all the room the rounds left under the budget (11 k triangles here) is spent on geometry delivered as read.
      expect(budget.delivered.triangles).toBeGreaterThan(100_000 - 1_200);
      expect(budget.maxDeviation).toBeGreaterThan(0);
      expect(budget.maxDeviation).toBeLessThanOrEqual(0.02);
      expect(result.warnings.find((w) => w.code === 'budget_simplified')!.message).toMatch(/geometries already as they streamed in/);
      expect(result.offset).toEqual(full.offset);
      expect(result.bounds).toEqual(full.bounds);
      expect(result.stats.elements).toBe(full.stats.meshNodes);
    },
  );

  it('gives each wall, slab and roof its own level: one that lies far keeps no other from giving', async () => {
    // ISSUE_021 is a steel frame: its beams and members are the envelope's detail, 1,916 of them.
    // At 4,000 triangles its slabs and walls must give for the beams to stand in rather than go.
    const reduction = new StreamReduction({ triangles: 4000, startTriangles: 0 });
    const reduced = await readIfc(corpusBytes('ifc', 'ISSUE_021_Mini_Project.ifc'), { reduction });
    expect(reduced.stats.triangles).toBeLessThanOrEqual(4000);
    const envelope = reduction.categories.find((c) => c.category === 'envelope')!;
    const leftOut = envelope.leftOut.reduce((n, l) => n + l.elements, 0);
    // Taken as one unit, the shape gave only where every wall and slab lay near at once: 171
    // beams stood in, 1,972 elements were left out and a part of the model 6.1 m from any kept.
    expect(envelope.proxiedElements).toBeGreaterThan(400);
    expect(leftOut).toBeLessThan(1700);
    expect(envelope.maxUncovered).toBeLessThan(1);
  });

  it('with perEnvelopeTriangle, keeps walls, slabs and roofs within millimetres whatever its target: the rest gives', async () => {
    // The duplex draws 12,510 envelope triangles and 14,264 of furniture; a target of 1,000 alone
    // takes the envelope apart (left out, or metres off).
    const read = async (perEnvelopeTriangle: number) => {
      const reduction = new StreamReduction({ triangles: 1000, startTriangles: 0, perEnvelopeTriangle });
      const scene = await readIfc(corpusBytes('ifc', 'duplex.ifc'), { reduction });
      const of = (category: string) => reduction.categories.find((c) => c.category === category)!;
      return { scene, envelope: of('envelope'), furniture: of('furniture') };
    };
    const kept = await read(1.25);
    expect(kept.envelope.leftOut).toEqual([]);
    expect(kept.envelope.proxiedElements).toBe(0);
    expect(Math.max(kept.envelope.maxDeviation, kept.envelope.maxUncovered)).toBeLessThan(0.005);
    expect(kept.furniture.deliveredTriangles).toBeLessThan(kept.furniture.sourceTriangles);
    expect(kept.scene.stats.triangles).toBeLessThanOrEqual(1.25 * kept.envelope.sourceTriangles);
    // The parts' level: a full read's million triangles, or ten budgets, and the envelope kept so.
    expect(partsLevel(100_000)).toEqual({ triangles: 1_000_000, startTriangles: 1_000_000, perEnvelopeTriangle: 1.25 });
    expect(partsLevel(250_000)).toMatchObject({ triangles: 2_500_000, perEnvelopeTriangle: 1.25 });
    const target = await read(0);
    expect(target.scene.stats.triangles).toBeLessThanOrEqual(1000);
    expect(target.envelope.leftOut.length + target.envelope.proxiedElements).toBeGreaterThan(0);
    expect(Math.max(target.envelope.maxDeviation, target.envelope.maxUncovered)).toBeGreaterThan(0.5);
  });

  it("draws a window frame's stand-in across its opening see-through, in the frame's own colour", async () => {
    const bytes = () => corpusBytes('ifc', 'duplex.ifc');
    const full = await readIfc(bytes());
    const reduced = await readIfc(bytes(), { reduction: new StreamReduction({ triangles: 4000, startTriangles: 0 }) });
    const seeThrough = new Set(
      reduced.materials.flatMap((m, i) => (m.opacity === SIMPLIFICATION_POLICY_DEFAULTS.openSheetOpacity ? [i] : [])),
    );
    expect(full.materials.some((m) => m.opacity === SIMPLIFICATION_POLICY_DEFAULTS.openSheetOpacity)).toBe(false);
    expect(seeThrough.size).toBeGreaterThan(0);
    const colours = new Set(full.materials.map((m) => m.baseColor.join(' ')));
    for (const m of seeThrough) expect(colours.has(reduced.materials[m]!.baseColor.join(' '))).toBe(true);
    // Drawn so are stand-ins only: each a sheet's 4 triangles or a box's 12 for each part.
    const drawnSeeThrough = reduced.meshes.filter((mesh) => seeThrough.has(mesh.material));
    expect(drawnSeeThrough.length).toBeGreaterThan(0);
    for (const mesh of drawnSeeThrough) expect((mesh.indices.length / 3) % 4).toBe(0);
  });

  it("a georeferenced model reduced hard as it is read keeps the full model's frame: the same offset, bounds and door index", async () => {
    const bytes = farAwayIfcOpenHouse();
    const full = await readIfc(bytes);
    expect(full.offset.some((v) => v !== 0)).toBe(true);
    const reduced = await readIfc(bytes, { reduction: new StreamReduction({ triangles: 200, startTriangles: 0 }) });
    expect(reduced.streamReduced!.reducedGeometries).toBeGreaterThan(0);
    expect(reduced.offset).toEqual(full.offset);
    expect(reduced.bounds).toEqual(full.bounds);
    expect(reduced.doorOpenings.map((d) => d.door.globalId)).toEqual(full.doorOpenings.map((d) => d.door.globalId));
    expect(reduced.streamReduced!.sourceElements).toBe(full.stats.meshNodes);
  });

  it(
    'repeated geometry stays shared through the merge, delivered once ' + 'and instanced, when that makes the package markedly smaller',
    async () => {
      const result = await runConversion({
        bytes: repeatedColumnsIfc(20),
        fileName: 'columns.ifc',
        outputs: ['usdz'],
        budget: { triangles: 10_000, meshPrims: 25 },
      });
      expect(result.warnings.find((w) => w.code === 'budget_merged')!.message).toMatch(/1 repeated mesh kept as instances/);
      expect((await readUsdz(result.usdz!)).stats.triangles).toBe(result.stats.triangles);
      // ISSUE_021's repeated fittings would save 4 % of its triangles for two dozen prims: merged.
      const mini = await runConversion({
        bytes: corpusBytes('ifc', 'ISSUE_021_Mini_Project.ifc'),
        fileName: 'mini.ifc',
        outputs: ['usdz'],
      });
      expect(mini.warnings.find((w) => w.code === 'budget_merged')!.message).not.toMatch(/kept as instances/);
      expect(mini.stats.drawCalls).toBeLessThanOrEqual(50);
    },
  );

  it(
    'with a budget, a model whose placed geometry is over the memory bound ' +
      'but whose shared geometry fits is delivered; without one it is refused',
    async () => {
      const bytes = () => corpusBytes('ifc', 'ISSUE_021_Mini_Project.ifc');
      // Placed, its 261k triangles take ~15 MB; its 59k shared ones a quarter of that.
      const bound = 8 * 2 ** 20;
      const result = await runConversion({ bytes: bytes(), fileName: 'big.ifc', outputs: ['usdz'], maxGeometryBytes: bound });
      expect(result.budget!.withinBudget).toBe(true);
      expect(result.budget!.source.triangles).toBe(261_069);
      expect(result.budget!.steps).toContain('simplified');
      expect(result.budget!.maxDeviation).toBeGreaterThan(0);
      expect((await readUsdz(result.usdz!)).stats.triangles).toBe(result.stats.triangles);
      await expect(
        runConversion({ bytes: bytes(), fileName: 'big.ifc', outputs: ['usdz'], maxGeometryBytes: bound, budget: false }),
      ).rejects.toBeInstanceOf(ModelTooLargeError);
    },
  );
});

describe('StreamReduction: geometries with the same bytes', () => {
  /** A box of 12 triangles (as web-ifc streams one: xyz and normal per vertex), `size` across, tessellated `n` times. */
  function plate(seed: number, n: number): { vertices: Float32Array; indices: Uint32Array } {
    const vertices: number[] = [];
    const indices: number[] = [];
    for (let i = 0; i <= n; i++)
      for (let j = 0; j <= n; j++) vertices.push(i / n, j / n, Math.sin(i * 0.7 + j * 1.3 + seed) * 0.05, 0, 0, 1);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const a = i * (n + 1) + j;
        indices.push(a, a + n + 1, a + 1, a + 1, a + n + 1, a + n + 2);
      }
    return { vertices: new Float32Array(vertices), indices: new Uint32Array(indices) };
  }
  const at = (x: number) => new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 0, 0, 1]);

  it("keep each its own colour when their shared mesh is drawn see-through: a frame's sheet across its opening", async () => {
    /** Boxes (12 triangles each, as `boxProxy` draws them) as web-ifc streams geometry: xyz and a normal per vertex. */
    const boxes = (...extents: Array<[Vec3, Vec3]>) => {
      const { positions, normals, indices } = boxProxy(
        { name: '', positions: new Float32Array(0), indices: new Uint32Array(0), material: 0 },
        extents.map(([min, max]) => ({ min, max })),
      );
      const vertices = new Float32Array(positions.length * 2);
      for (let v = 0; v < positions.length / 3; v++) {
        vertices.set(positions.subarray(v * 3, v * 3 + 3), v * 6);
        vertices.set(normals!.subarray(v * 3, v * 3 + 3), v * 6 + 3);
      }
      return { vertices, indices };
    };
    // A window frame: four 10 cm bars round a 1 × 1 m opening, 10 cm deep.
    const frame = () =>
      boxes(
        [
          [0, 0, 0],
          [0.1, 1.2, 0.1],
        ],
        [
          [1.1, 0, 0],
          [1.2, 1.2, 0.1],
        ],
        [
          [0.1, 0, 0],
          [1.1, 0.1, 0.1],
        ],
        [
          [0.1, 1.1, 0],
          [1.1, 1.2, 0.1],
        ],
      );
    const wood: Rgba = [0.6, 0.4, 0.2, 1];
    const paint: Rgba = [0.9, 0.9, 0.9, 1];
    const geometries: SharedGeometry[] = [
      {
        ...boxes([
          [-1, 0, -0.2],
          [10, 3, 0],
        ]),
        transforms: [at(0)],
        owners: [{ product: 1, ifcClass: 'IfcWall' }],
        color: paint,
      },
      { ...frame(), transforms: [at(1)], owners: [{ product: 2, ifcClass: 'IfcWindow' }], color: wood },
      { ...frame(), transforms: [at(4)], owners: [{ product: 3, ifcClass: 'IfcWindow' }], color: paint },
    ];
    // The wall's 12 triangles and a sheet (4) for each frame: no room for a rim (16) or the frame (48).
    const reduction = new StreamReduction({ triangles: 20, startTriangles: 0 });
    await reduction.reduce(geometries);
    const [wall, first, second] = geometries;
    expect(first!.indices.length / 3).toBe(4);
    expect(second!.indices.length / 3).toBe(4);
    const opacity = SIMPLIFICATION_POLICY_DEFAULTS.openSheetOpacity;
    expect(first!.drawnColor).toEqual([0.6, 0.4, 0.2, opacity]);
    expect(second!.drawnColor).toEqual([0.9, 0.9, 0.9, opacity]);
    expect(wall!.drawnColor).toBeUndefined();
  });

  it('are simplified once and the same way: copies of one geometry under other ids get the same triangles', async () => {
    const shape = plate(1, 40);
    const copy = () => ({ vertices: shape.vertices.slice(), indices: shape.indices.slice() });
    const other = plate(2, 40);
    const geometries = [
      { ...copy(), transforms: [at(0)], owners: [{ product: 1, ifcClass: 'IfcFurnishingElement' }] },
      { ...copy(), transforms: [at(100)], owners: [{ product: 2, ifcClass: 'IfcFurnishingElement' }] },
      { ...other, transforms: [at(200)], owners: [{ product: 3, ifcClass: 'IfcFurnishingElement' }] },
    ];
    const reduction = new StreamReduction({ triangles: 2_000, startTriangles: 1 });
    await reduction.reduce(geometries);
    const [a, b, c] = geometries;
    expect(reduction.reduced).toBe(3);
    expect(a!.indices.length).toBeLessThan(shape.indices.length);
    // The copies: one simplification, shared.
    expect(b!.vertices).toBe(a!.vertices);
    expect(b!.indices).toBe(a!.indices);
    // Another geometry: its own.
    expect(c!.vertices).not.toBe(a!.vertices);
  });

  it('are told apart by every word: a copy changed anywhere is a geometry of its own', async () => {
    const shape = plate(1, 12);
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: shape.vertices.length - 1 }), fc.float({ noNaN: true, min: -1, max: 1 }), async (word, delta) => {
        const changed = shape.vertices.slice();
        changed[word] = changed[word]! + (delta === 0 ? 0.5 : delta);
        fc.pre(changed[word] !== shape.vertices[word]);
        const geometries = [
          { vertices: shape.vertices.slice(), indices: shape.indices.slice(), transforms: [at(0)] },
          { vertices: changed, indices: shape.indices.slice(), transforms: [at(100)] },
        ];
        const reduction = new StreamReduction({ triangles: 200, startTriangles: 1 });
        await reduction.reduce(geometries);
        expect(reduction.reduced).toBe(2);
        expect(geometries[1]!.vertices).not.toBe(geometries[0]!.vertices);
      }),
      { numRuns: 15 },
    );
  });

  it("keep the full model's bounds to the bit whatever their placements turn them by, -0 apart from 0", async () => {
    // A flat plate: its z is 0 everywhere, so a placement's signed zeros decide the sign of its bounds' zeros.
    const { vertices, indices } = plate(3, 6);
    for (let v = 2; v < vertices.length; v += 6) vertices[v] = 0;
    // Axis flips with their zeros signed either way: each a linear part of its own.
    const zero = fc.constantFrom(0, -0);
    const placement = fc
      .tuple(
        fc.tuple(zero, zero, zero, zero, zero, zero),
        fc.tuple(fc.constantFrom(1, -1), fc.constantFrom(1, -1), fc.constantFrom(1, -1)),
        zero,
      )
      .map(([off, diagonal, shift]) => {
        const m = at(shift);
        [m[1], m[2], m[4], m[6], m[8], m[9]] = off;
        [m[0], m[5], m[10]] = diagonal;
        [m[13], m[14]] = [shift, shift];
        return m;
      });
    await fc.assert(
      fc.asyncProperty(fc.array(placement, { minLength: 1, maxLength: 12 }), async (transforms) => {
        const reduction = new StreamReduction({ triangles: 20, startTriangles: 1 });
        await reduction.reduce([{ vertices: vertices.slice(), indices: indices.slice(), transforms }]);
        const min = [Infinity, Infinity, Infinity],
          max = [-Infinity, -Infinity, -Infinity];
        for (const t of transforms) {
          const box = linearBounds(vertices, 6, t);
          for (let k = 0; k < 3; k++) {
            min[k] = Math.min(min[k]!, box[k]! + t[12 + k]!);
            max[k] = Math.max(max[k]!, box[3 + k]! + t[12 + k]!);
          }
        }
        expect(reduction.fullBounds!.min.every((v, k) => Object.is(v, min[k]))).toBe(true);
        expect(reduction.fullBounds!.max.every((v, k) => Object.is(v, max[k]))).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});
