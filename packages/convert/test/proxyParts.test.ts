import fc from 'fast-check';
import { MeshoptSimplifier } from 'meshoptimizer';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SceneMesh } from '../src/index.js';
import { boxProxy, PROXY_PARTS_DEFAULTS, proxyParts } from '../src/budget/index.js';
import { pointBounds } from '../src/scene/pointBounds.js';

type Vec3 = [number, number, number];

/** Cubes as one mesh: each its own 24 corners (4 a face) and 12 triangles, one piece once positions are welded. */
function cubes(list: ReadonlyArray<{ min: Vec3; max: Vec3 }>): SceneMesh {
  const unit = boxProxy({ name: '', positions: new Float32Array([0, 0, 0, 1, 1, 1]), indices: new Uint32Array(0), material: 0 });
  const positions: number[] = [],
    indices: number[] = [];
  for (const { min, max } of list) {
    const first = positions.length / 3;
    positions.push(...[...unit.positions].map((v, i) => (v === 0 ? min[i % 3]! : max[i % 3]!)));
    indices.push(...[...unit.indices].map((v) => v + first));
  }
  return { name: 'pieces', positions: new Float32Array(positions), indices: new Uint32Array(indices), material: 0 };
}

const cube = (x: number, y: number, z: number, side = 0.2) => ({ min: [x, y, z] as Vec3, max: [x + side, y + side, z + side] as Vec3 });

beforeAll(async () => {
  await MeshoptSimplifier.ready;
});

describe('proxyParts', () => {
  it('boxes pieces far apart each on their own: the clips at both rails, not a bar across the gauge', () => {
    const parts = proxyParts(cubes([cube(0, 0, 0), cube(1.5, 0, 0)]));
    expect(parts).toHaveLength(2);
    expect(parts.map((p) => p.min[0]).sort((a, b) => a - b)).toEqual([0, 1.5]);
    expect(boxProxy(cubes([cube(0, 0, 0), cube(1.5, 0, 0)]), parts).indices.length / 3).toBe(24);
  });

  it('groups hundreds of pieces as they lie: a fastening of 971 is the clips at each rail', () => {
    const row = (x: number) => Array.from({ length: 150 }, (_, k) => cube(x, 0, k * 0.021, 0.02));
    const parts = proxyParts(cubes([...row(0), ...row(1.5)]));
    expect(parts.map((p) => [p.min[0], p.max[0]]).sort((a, b) => a[0]! - b[0]!)).toEqual([
      [0, Math.fround(0.02)],
      [1.5, Math.fround(1.52)],
    ]);
  });

  it('boxes pieces that touch or nearly touch as one: a chair is its seat and its legs', () => {
    const seat = { min: [0, 0.4, 0] as Vec3, max: [0.5, 0.45, 0.5] as Vec3 };
    const legs = [cube(0, 0, 0, 0.04), cube(0.46, 0, 0, 0.04), cube(0, 0, 0.46, 0.04), cube(0.46, 0, 0.46, 0.04)].map((l) => ({
      min: l.min,
      max: [l.max[0], 0.4, l.max[2]] as Vec3,
    }));
    const chair = cubes([seat, ...legs]);
    expect(proxyParts(chair)).toEqual([pointBounds(chair.positions)]);
  });

  it(`draws more than ${PROXY_PARTS_DEFAULTS.maxParts} parts as one box round all of them`, () => {
    const bolts = cubes([0, 1, 2, 3, 4].map((k) => cube(k * 2, 0, 0, 0.05)));
    expect(proxyParts(bolts)).toEqual([pointBounds(bolts.positions)]);
  });

  it('boxes only the vertices the triangles use, −0 as 0, and nothing for a mesh without triangles', () => {
    const mesh = cubes([cube(-0, 0, 0)]);
    // A far vertex no triangle uses (as a GeomSubset's share of its prim's points) and a −0.
    const positions = Float32Array.from([...mesh.positions, 100, 100, 100]);
    const [part, ...more] = proxyParts({ ...mesh, positions });
    expect(more).toEqual([]);
    expect(part!.max).toEqual([0.2, 0.2, 0.2].map(Math.fround));
    expect(Object.is(part!.min[0], -0)).toBe(false);
    expect(proxyParts({ ...mesh, indices: new Uint32Array(0) })).toEqual([]);
  });

  it('every vertex lies in a box, every box within the mesh, each touched on all six faces', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            x: fc.double({ min: -5, max: 5, noNaN: true }),
            y: fc.double({ min: -5, max: 5, noNaN: true }),
            z: fc.double({ min: -5, max: 5, noNaN: true }),
            side: fc.double({ min: 0.01, max: 1, noNaN: true }),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        (list) => {
          const mesh = cubes(list.map(({ x, y, z, side }) => cube(x, y, z, side)));
          const parts = proxyParts(mesh);
          expect(parts.length).toBeGreaterThanOrEqual(1);
          expect(parts.length).toBeLessThanOrEqual(PROXY_PARTS_DEFAULTS.maxParts);
          // Parts drawn apart lie apart: no two closer than the share of the larger's diagonal.
          const diagonal = (b: (typeof parts)[number]) => Math.hypot(...[0, 1, 2].map((k) => b.max[k]! - b.min[k]!));
          const gap = (a: (typeof parts)[number], b: (typeof parts)[number]) =>
            Math.hypot(...[0, 1, 2].map((k) => Math.max(0, a.min[k]! - b.max[k]!, b.min[k]! - a.max[k]!)));
          for (let i = 0; i < parts.length; i++)
            for (let j = i + 1; j < parts.length; j++)
              expect(gap(parts[i]!, parts[j]!)).toBeGreaterThan(
                PROXY_PARTS_DEFAULTS.gapShare * Math.max(diagonal(parts[i]!), diagonal(parts[j]!)),
              );
          const whole = pointBounds(mesh.positions);
          const p = mesh.positions;
          const inBox = (v: number, b: (typeof parts)[number]) =>
            [0, 1, 2].every((k) => p[v * 3 + k]! >= b.min[k]! && p[v * 3 + k]! <= b.max[k]!);
          for (let v = 0; v < p.length / 3; v++) expect(parts.some((b) => inBox(v, b))).toBe(true);
          for (const b of parts) {
            for (let k = 0; k < 3; k++) {
              expect(b.min[k]).toBeGreaterThanOrEqual(whole.min[k]!);
              expect(b.max[k]).toBeLessThanOrEqual(whole.max[k]!);
              // A vertex of the box's pieces on its lower and its upper face along each axis.
              const inside = [...Array(p.length / 3).keys()].filter((v) => inBox(v, b));
              expect(inside.some((v) => p[v * 3 + k] === b.min[k])).toBe(true);
              expect(inside.some((v) => p[v * 3 + k] === b.max[k])).toBe(true);
            }
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('cut where hollow, boxes an L-shaped railing along each run, and leaves a bar, a flat frame and a chair whole', () => {
    const cut = { hollowShare: 0.6 };
    // Two runs 3 m and 2 m long, 1 m high, 5 cm thick, meeting at a corner: one piece.
    const railing = cubes([
      { min: [0, 0, 0], max: [3, 1, 0.05] },
      { min: [2.95, 0, 0], max: [3, 1, 2] },
    ]);
    expect(proxyParts(railing)).toHaveLength(1);
    const runs = proxyParts(railing, cut).sort((a, b) => a.min[0] - b.min[0]);
    expect(runs.map((b) => [b.min, b.max])).toEqual([
      [
        [0, 0, 0],
        [3, 1, Math.fround(0.05)],
      ],
      [
        [Math.fround(2.95), 0, 0],
        [3, 1, 2],
      ],
    ]);
    const bar = cubes([{ min: [0, 0, 0], max: [3, 0.05, 0.05] }]);
    expect(proxyParts(bar, cut)).toEqual([pointBounds(bar.positions)]);
    // A door frame (two jambs and a head, flat): its halves' boxes are as large as its own.
    const frame = cubes([
      { min: [0, 0, 0], max: [0.1, 2.1, 0.1] },
      { min: [0.9, 0, 0], max: [1, 2.1, 0.1] },
      { min: [0, 2, 0], max: [1, 2.1, 0.1] },
    ]);
    expect(proxyParts(frame, cut)).toEqual([pointBounds(frame.positions)]);
  });

  it('cut where hollow, still boxes every vertex, each box touched on all six faces, never more than maxParts', () => {
    const side = fc.double({ min: 0.01, max: 3, noNaN: true });
    const at = fc.double({ min: -3, max: 3, noNaN: true });
    fc.assert(
      fc.property(fc.array(fc.record({ x: at, y: at, z: at, dx: side, dy: side, dz: side }), { minLength: 1, maxLength: 6 }), (list) => {
        const mesh = cubes(list.map(({ x, y, z, dx, dy, dz }) => ({ min: [x, y, z] as Vec3, max: [x + dx, y + dy, z + dz] as Vec3 })));
        const parts = proxyParts(mesh, { hollowShare: 0.6 });
        expect(parts.length).toBeGreaterThanOrEqual(1);
        expect(parts.length).toBeLessThanOrEqual(PROXY_PARTS_DEFAULTS.maxParts);
        const p = mesh.positions;
        const inBox = (v: number, b: (typeof parts)[number]) =>
          [0, 1, 2].every((k) => p[v * 3 + k]! >= b.min[k]! && p[v * 3 + k]! <= b.max[k]!);
        for (let v = 0; v < p.length / 3; v++) expect(parts.some((b) => inBox(v, b))).toBe(true);
        for (const b of parts)
          for (let k = 0; k < 3; k++) {
            expect([...Array(p.length / 3).keys()].some((v) => inBox(v, b) && p[v * 3 + k] === b.min[k])).toBe(true);
            expect([...Array(p.length / 3).keys()].some((v) => inBox(v, b) && p[v * 3 + k] === b.max[k])).toBe(true);
          }
      }),
      { numRuns: 200 },
    );
  });
});
