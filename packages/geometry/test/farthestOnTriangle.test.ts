import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildBvh, farthestOnTriangle, nearestTriangle, triangleDistanceSquared, type TriangleMesh } from '../src/index.js';
import { isSliver } from '../src/bvh/nearestDistance.js';

const coord = fc.double({ min: -10, max: 10, noNaN: true });
const point = fc.tuple(coord, coord, coord);
const soup = fc.array(fc.tuple(point, point, point), { minLength: 1, maxLength: 60 }).map(
  (tris): TriangleMesh => ({
    positions: Float32Array.from(tris.flat(2)),
    indices: Uint32Array.from({ length: tris.length * 3 }, (_, i) => i),
  }),
);
// Corners as float32 values, as a delivered mesh stores them.
const triangle = fc.tuple(point, point, point).map((t) => Array.from(Float32Array.from(t.flat())));

/** Distance from a point to the nearest triangle, every triangle tried. */
function bruteDistance(mesh: TriangleMesh, x: number, y: number, z: number): number {
  let best = Infinity;
  for (let t = 0; t < mesh.indices.length / 3; t++) {
    best = Math.min(
      best,
      triangleDistanceSquared(
        mesh.positions,
        mesh.indices[t * 3]! * 3,
        mesh.indices[t * 3 + 1]! * 3,
        mesh.indices[t * 3 + 2]! * 3,
        x,
        y,
        z,
      ),
    );
  }
  return Math.sqrt(best);
}

/** Farthest point of a dense barycentric grid on the triangle `q` from the surface. */
function denseFarthest(mesh: TriangleMesh, q: readonly number[], steps = 48): number {
  let worst = 0;
  for (let i = 0; i <= steps; i++) {
    for (let j = 0; i + j <= steps; j++) {
      const u = i / steps,
        v = j / steps,
        w = 1 - u - v;
      const x = w * q[0]! + u * q[3]! + v * q[6]!,
        y = w * q[1]! + u * q[4]! + v * q[7]!,
        z = w * q[2]! + u * q[5]! + v * q[8]!;
      worst = Math.max(worst, bruteDistance(mesh, x, y, z));
    }
  }
  return worst;
}

/** The widest triangle of `mesh` that point distances take as a sliver (`isSliver`: its edges alone), 0 without one. */
function sliverWidth(mesh: TriangleMesh): number {
  const p = mesh.positions;
  let widest = 0;
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const [a, b, c] = [mesh.indices[t]! * 3, mesh.indices[t + 1]! * 3, mesh.indices[t + 2]! * 3];
    const ab = [0, 1, 2].map((k) => p[b + k]! - p[a + k]!),
      ac = [0, 1, 2].map((k) => p[c + k]! - p[a + k]!),
      bc = [0, 1, 2].map((k) => p[c + k]! - p[b + k]!);
    const n = [ab[1]! * ac[2]! - ab[2]! * ac[1]!, ab[2]! * ac[0]! - ab[0]! * ac[2]!, ab[0]! * ac[1]! - ab[1]! * ac[0]!];
    const sq = (v: number[]) => v[0]! * v[0]! + v[1]! * v[1]! + v[2]! * v[2]!;
    if (!isSliver(sq(n), sq(ab), sq(ac), sq(bc))) continue;
    // Under a millionth of its longest side, by isSliver's own measure.
    widest = Math.max(widest, 1e-6 * Math.sqrt(Math.max(sq(ab), sq(ac), sq(bc))));
  }
  return widest;
}

/** Whether a triangle is more than a sliver: twice its area over its longest side above a millionth of that side. */
function hasArea(q: readonly number[]): boolean {
  const u = [q[3]! - q[0]!, q[4]! - q[1]!, q[5]! - q[2]!],
    v = [q[6]! - q[0]!, q[7]! - q[1]!, q[8]! - q[2]!];
  const area2 = Math.hypot(u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!);
  const side = Math.max(Math.hypot(...u), Math.hypot(...v), Math.hypot(q[6]! - q[3]!, q[7]! - q[4]!, q[8]! - q[5]!));
  return side > 0 && area2 / side > 1e-6 * side;
}

function nearestOf(mesh: TriangleMesh) {
  const bvh = buildBvh(mesh);
  return (x: number, y: number, z: number) => nearestTriangle(bvh, mesh, x, y, z);
}

/** A bumpy height field z = f(x, y) over [0, size]², `n` squares a side, two triangles each. */
function heightField(n: number, size: number, f: (x: number, y: number) => number): TriangleMesh {
  const positions: number[] = [],
    indices: number[] = [];
  for (let j = 0; j <= n; j++)
    for (let i = 0; i <= n; i++) positions.push((i / n) * size, (j / n) * size, f((i / n) * size, (j / n) * size));
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i,
        b = a + 1,
        c = a + n + 1,
        d = c + 1;
      indices.push(a, b, d, a, d, c);
    }
  }
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}

/** The longest side of a triangle given as nine coordinates. */
function longestSide(q: readonly number[]): number {
  const d = (a: number, b: number) => Math.hypot(q[a]! - q[b]!, q[a + 1]! - q[b + 1]!, q[a + 2]! - q[b + 2]!);
  return Math.max(d(0, 3), d(3, 6), d(6, 0));
}

describe('farthestOnTriangle', () => {
  it('bounds every point of the triangle: no dense sample is farther than the upper bound, and the lower bound is met', () => {
    fc.assert(
      fc.property(soup, triangle, (mesh, q) => {
        const { upper, lower } = farthestOnTriangle(q, mesh, nearestOf(mesh), { maxCuts: 20_000 });
        const sampled = denseFarthest(mesh, q);
        // The samples are measured with triangleDistanceSquared, which takes a sliver as its three
        // edges: a point inside one reads up to its width away (seed 2041795104: a sliver 2e-8 m
        // wide, a sample 1e-8 m off, the bound 0, right). That much slack, and no more.
        expect(sampled).toBeLessThanOrEqual(upper * (1 + 1e-9) + 1e-9 + sliverWidth(mesh));
        expect(lower).toBeLessThanOrEqual(upper);
        // Refined until the bound is within 2% of a point measured (cuts to spare), on a triangle
        // with area: one without is measured along its segments, and may settle looser. Slivers a
        // cut leaves on an edge add their width (a billionth of the triangle's span) to the bound.
        if (hasArea(q)) expect(upper).toBeLessThanOrEqual(lower * 1.02 + 1e-8 + 2e-9 * longestSide(q));
      }),
      { numRuns: 80 },
    );
  });

  it('stays an upper bound when refinement is cut short, only a looser one', () => {
    fc.assert(
      fc.property(soup, triangle, fc.integer({ min: 0, max: 8 }), (mesh, q, maxCuts) => {
        const { upper } = farthestOnTriangle(q, mesh, nearestOf(mesh), { maxCuts });
        expect(denseFarthest(mesh, q, 24)).toBeLessThanOrEqual(upper * (1 + 1e-9) + 1e-9 + sliverWidth(mesh));
      }),
      { numRuns: 60 },
    );
  });

  it('stops at a cap once a point that far is found, and is unchanged by a cap it never meets', () => {
    fc.assert(
      fc.property(soup, triangle, fc.double({ min: 0, max: 2, noNaN: true }), (mesh, q, share) => {
        const free = farthestOnTriangle(q, mesh, nearestOf(mesh));
        const cap = free.lower * share;
        const capped = farthestOnTriangle(q, mesh, nearestOf(mesh), { cap });
        if (capped.upper === Number.POSITIVE_INFINITY) expect(capped.lower).toBeGreaterThanOrEqual(cap);
        else expect(capped).toEqual(free);
        // A cap past the upper bound is never met.
        expect(farthestOnTriangle(q, mesh, nearestOf(mesh), { cap: free.upper * 2 + 1 })).toEqual(free);
      }),
      { numRuns: 60 },
    );
  });

  it('settles a triangle spanning a flat surface of many triangles at the absolute tolerance, where sampling finds 0', () => {
    const flat = heightField(8, 4, () => 0);
    const { upper, lower } = farthestOnTriangle([0, 0, 0, 4, 0, 0, 0, 4, 0], flat, nearestOf(flat), { absolute: 1e-3 });
    expect(lower).toBeLessThan(1e-12);
    expect(upper).toBeLessThanOrEqual(1e-3);
  });

  it('finds the sag of a chord across a curved surface between the points a probe at midpoints and centroid would see', () => {
    // A ridge along y at x = 0.8: the flat triangle under it misses the crest, far from its midpoints and centroid.
    const ridge = heightField(48, 1, (x) => 0.05 * Math.exp(-(((x - 0.8) / 0.05) ** 2)));
    const q = [0, 0, 0, 1, 0, 0, 0, 1, 0];
    const { upper } = farthestOnTriangle(q, ridge, nearestOf(ridge));
    const fixedPoints = [
      [0.5, 0, 0],
      [0.5, 0.5, 0],
      [0, 0.5, 0],
      [1 / 3, 1 / 3, 0],
    ].map(([x, y, z]) => bruteDistance(ridge, x!, y!, z!));
    const sampled = denseFarthest(ridge, q, 96);
    expect(sampled).toBeGreaterThan(Math.max(...fixedPoints) + 0.01);
    expect(sampled).toBeLessThanOrEqual(upper);
    expect(upper).toBeLessThanOrEqual(sampled * 1.05);
  });

  it('is the distance to a single far triangle, exactly, for a triangle parallel to it', () => {
    const one: TriangleMesh = { positions: Float32Array.from([0, 0, 0, 10, 0, 0, 0, 10, 0]), indices: Uint32Array.from([0, 1, 2]) };
    const { upper, lower } = farthestOnTriangle([1, 1, 2, 2, 1, 2, 1, 2, 2], one, nearestOf(one));
    expect(lower).toBeCloseTo(2, 6);
    expect(upper).toBeCloseTo(2, 6);
  });
});
