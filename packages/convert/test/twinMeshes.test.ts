import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { TwinMeshes } from '../src/budget/TwinMeshes.js';
import { fitArBudget, sceneBounds, sceneStats, type SceneData, type SceneMesh, type SceneNode } from '../src/index.js';
import { measureDeviation } from '../src/budget/index.js';

/** A UV sphere with a bump, so no turn maps it onto itself but the identity: curved furniture, finely tessellated. */
function lumpyBall(segments: number): SceneMesh {
  const rings = segments / 2,
    positions: number[] = [],
    indices: number[] = [];
  for (let r = 0; r <= rings; r++) {
    for (let s = 0; s <= segments; s++) {
      const theta = (r / rings) * Math.PI,
        phi = (s / segments) * 2 * Math.PI;
      const radius = 0.4 + 0.1 * Math.sin(theta) ** 4 * Math.max(0, Math.cos(phi)) ** 4;
      positions.push(radius * Math.sin(theta) * Math.cos(phi), radius * Math.cos(theta), radius * Math.sin(theta) * Math.sin(phi));
    }
  }
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s < segments; s++) {
      const a = r * (segments + 1) + s,
        b = a + segments + 1;
      indices.push(a, a + 1, b, a + 1, b + 1, b);
    }
  }
  return { name: 'chair', positions: new Float32Array(positions), indices: new Uint32Array(indices), material: 0 };
}

/** The mesh turned by the unit quaternion (x, y, z, w) and then moved by `shift`, baked into its positions. */
function moved(mesh: SceneMesh, q: readonly [number, number, number, number], shift: readonly [number, number, number]): SceneMesh {
  const [x, y, z, w] = q;
  const m = [
    1 - 2 * (y * y + z * z),
    2 * (x * y - z * w),
    2 * (x * z + y * w),
    2 * (x * y + z * w),
    1 - 2 * (x * x + z * z),
    2 * (y * z - x * w),
    2 * (x * z - y * w),
    2 * (y * z + x * w),
    1 - 2 * (x * x + y * y),
  ];
  const p = mesh.positions,
    out = new Float32Array(p.length);
  for (let i = 0; i < p.length; i += 3) {
    for (let r = 0; r < 3; r++) out[i + r] = m[r * 3]! * p[i]! + m[r * 3 + 1]! * p[i + 1]! + m[r * 3 + 2]! * p[i + 2]! + shift[r]!;
  }
  return { ...mesh, positions: out };
}

/** Each vertex's distance from the first, in whole millimetres: what the twins' key rounds. */
function millimetresFromFirst({ positions: p }: SceneMesh): number[] {
  const out: number[] = [];
  for (let i = 3; i + 2 < p.length; i += 3) out.push(Math.round(Math.hypot(p[i]! - p[0]!, p[i + 1]! - p[1]!, p[i + 2]! - p[2]!) * 1000));
  return out;
}

const quaternion = fc
  .tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
  )
  .filter((q) => Math.hypot(...q) > 0.1)
  .map((q) => q.map((v) => v / Math.hypot(...q)) as [number, number, number, number]);
const shift = fc.tuple(
  fc.double({ min: -100, max: 100, noNaN: true }),
  fc.double({ min: -100, max: 100, noNaN: true }),
  fc.double({ min: -100, max: 100, noNaN: true }),
);

describe('TwinMeshes, one shape at several places measured once', () => {
  it('finds a turned and moved copy (source and delivery moved alike), with a drift of float rounding only', () => {
    const source = lumpyBall(16),
      delivered = { ...source, indices: source.indices.slice(0, source.indices.length / 2) };
    fc.assert(
      fc.property(quaternion, shift, (q, s) => {
        const twins = new TwinMeshes<string>(1e-4);
        twins.add({ source, delivered }, 'measured');
        const match = twins.find({ source: moved(source, q, s), delivered: moved(delivered, q, s) });
        // Missed only where the move's float rounding carries a vertex's distance across a
        // millimetre (the key rounds there): a measurement more, never a wrong figure.
        if (!match) expect(millimetresFromFirst(moved(source, q, s))).not.toEqual(millimetresFromFirst(source));
        else {
          expect(match.measured).toBe('measured');
          expect(match.drift).toBeLessThan(1e-4);
        }
      }),
      { numRuns: 100 },
    );
    // A half turn 100 m away (seed -1072170392): one distance rounds the other way, and the copy is measured again.
    const [q, s] = [
      [0.00004291534225850668, -0.9999999990791366, 0, 0],
      [99.87416753162707, 0, 0],
    ] as const;
    const twins = new TwinMeshes<string>(1e-4);
    twins.add({ source, delivered }, 'measured');
    expect(twins.find({ source: moved(source, q, s), delivered: moved(delivered, q, s) })).toBeUndefined();
    expect(millimetresFromFirst(moved(source, q, s))).not.toEqual(millimetresFromFirst(source));
    // Found at the same turn nearer the origin, where float rounding is finer.
    expect(twins.find({ source: moved(source, q, [1, 0, 0]), delivered: moved(delivered, q, [1, 0, 0]) })?.measured).toBe('measured');
  });

  it('takes no mesh of another size, another delivery, or a delivery moved apart from its source as a twin', () => {
    const source = lumpyBall(16),
      delivered = { ...source, indices: source.indices.slice(0, source.indices.length / 2) };
    const twins = new TwinMeshes<string>(1e-4);
    twins.add({ source, delivered }, 'measured');
    const larger = { ...source, positions: source.positions.map((v) => v * 1.01) };
    expect(twins.find({ source: larger, delivered: { ...larger, indices: delivered.indices } })).toBeUndefined();
    expect(
      twins.find({ source, delivered: { ...source, indices: source.indices.slice(6, source.indices.length / 2 + 6) } }),
    ).toBeUndefined();
    expect(twins.find({ source, delivered: moved(delivered, [0, 0, 0, 1], [0.01, 0, 0]) })).toBeUndefined();
    expect(twins.find({ source, delivered })?.drift).toBeLessThan(1e-9);
  });

  it('in a delivery, a twin measured once is still bounded: no sample of it lies farther than the report says', async () => {
    const chair = lumpyBall(64);
    // Each chair its own geometry, alike, placed by its node (as an IFC export writes a type's copies).
    const meshes = [chair, { ...chair, positions: chair.positions.slice(), indices: chair.indices.slice() }];
    const nodes: SceneNode[] = meshes.map((_, i) => ({
      name: `chair ${i}`,
      parent: -1,
      matrix: new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5 * i, 0, 3 * i, 1]),
      meshes: [i],
      metadata: { ifcClass: 'IfcFurnishingElement', globalId: `F${i}` },
    }));
    const material = {
      name: 'm',
      baseColor: [0.5, 0.5, 0.5] as [number, number, number],
      opacity: 1,
      metallic: 0,
      roughness: 1,
      emissive: [0, 0, 0] as [number, number, number],
      doubleSided: true,
    };
    const base = { nodes, meshes, materials: [material], textures: [] };
    const scene: SceneData = {
      source: { format: 'ifc' },
      ...base,
      offset: [0, 0, 0],
      bounds: sceneBounds(base),
      stats: sceneStats(base),
      warnings: [],
    };
    const find = vi.spyOn(TwinMeshes.prototype, 'find');
    try {
      const { scene: delivered, report } = await fitArBudget(scene, { triangles: 3_000 });
      // The second chair was taken as the first one's twin, not measured again.
      expect(find.mock.results.filter((r) => r.value !== undefined)).toHaveLength(1);
      const furniture = report.categories.find((c) => c.category === 'furniture')!;
      expect(furniture.deliveredTriangles).toBeLessThan(furniture.sourceTriangles);
      // Each chair as delivered, sampled densely against its own full surface: within the reported figures.
      const twin = delivered.nodes.find((n) => n.name === 'chair 1')!;
      const sampled = measureDeviation(meshes[1]!, delivered.meshes[twin.meshes[0]!]!, { samples: 100_000 });
      expect(sampled.simplifiedToFull).toBeLessThanOrEqual(furniture.maxDeviation);
      expect(sampled.fullToSimplified).toBeLessThanOrEqual(furniture.maxUncovered);
    } finally {
      find.mockRestore();
    }
  });
});
