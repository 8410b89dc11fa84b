import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildBvh, nearestDistance, triangleDistanceSquared, type TriangleMesh } from '../src/index.js';

const coord = fc.double({ min: -10, max: 10, noNaN: true });
const point = fc.tuple(coord, coord, coord);
// Degenerate triangles (slivers, repeated corners) included: simplified meshes have them.
const soup = fc.array(fc.tuple(point, point, point), { minLength: 1, maxLength: 120 }).map(
  (tris): TriangleMesh => ({
    positions: Float32Array.from(tris.flat(2)),
    indices: Uint32Array.from({ length: tris.length * 3 }, (_, i) => i),
  }),
);

/** Independent reference: the minimum over a dense barycentric grid of every triangle (an upper bound, close from above). */
function gridDistance(mesh: TriangleMesh, q: readonly number[], steps = 40): number {
  const p = mesh.positions;
  let best = Infinity;
  for (let t = 0; t < mesh.indices.length / 3; t++) {
    const [a, b, c] = [0, 1, 2].map((k) => mesh.indices[t * 3 + k]! * 3);
    for (let i = 0; i <= steps; i++) {
      for (let j = 0; i + j <= steps; j++) {
        const u = i / steps,
          v = j / steps,
          w = 1 - u - v;
        const x = w * p[a!]! + u * p[b!]! + v * p[c!]! - q[0]!,
          y = w * p[a! + 1]! + u * p[b! + 1]! + v * p[c! + 1]! - q[1]!,
          z = w * p[a! + 2]! + u * p[b! + 2]! + v * p[c! + 2]! - q[2]!;
        best = Math.min(best, Math.hypot(x, y, z));
      }
    }
  }
  return best;
}

describe('nearestDistance', () => {
  it('is the distance to the nearest triangle: never above a dense sample of the surface, and close to it', () => {
    fc.assert(
      fc.property(soup, point, (mesh, q) => {
        const d = nearestDistance(buildBvh(mesh), mesh, q[0], q[1], q[2]);
        const grid = gridDistance(mesh, q);
        expect(Number.isFinite(d)).toBe(true);
        expect(d).toBeLessThanOrEqual(grid + 1e-6);
        // A 40-step grid on triangles at most ~35 long is within ~0.9 of every surface point.
        expect(grid - d).toBeLessThan(0.9);
      }),
      { numRuns: 60 },
    );
  });

  it('agrees with a scan of every triangle, whatever the tree prunes', () => {
    fc.assert(
      fc.property(soup, point, (mesh, q) => {
        let brute = Infinity;
        for (let t = 0; t < mesh.indices.length / 3; t++)
          brute = Math.min(brute, triangleDistanceSquared(mesh.positions, t * 9, t * 9 + 3, t * 9 + 6, q[0], q[1], q[2]));
        expect(nearestDistance(buildBvh(mesh, { maxLeafTriangles: 2 }), mesh, q[0], q[1], q[2])).toBeCloseTo(Math.sqrt(brute), 9);
      }),
      { numRuns: 200 },
    );
  });

  it('stops early once a distance within the bound is found, never reporting more than the true one there', () => {
    const square: TriangleMesh = {
      positions: new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]),
      indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
    };
    const bvh = buildBvh(square);
    expect(nearestDistance(bvh, square, 0.5, 0.5, 2)).toBeCloseTo(2, 6);
    expect(nearestDistance(bvh, square, 3, 0.5, 0)).toBeCloseTo(2, 6);
    expect(nearestDistance(bvh, square, 0.5, 0.5, 2, 5)).toBeLessThanOrEqual(5);
    expect(
      nearestDistance(
        buildBvh({ positions: new Float32Array(), indices: new Uint32Array() }),
        { positions: new Float32Array(), indices: new Uint32Array() },
        0,
        0,
        0,
      ),
    ).toBe(Infinity);
  });

  it('puts every point of a sliver (one edge a millionth of the longest, or less) on it, as its edges', () => {
    fc.assert(
      fc.property(
        point,
        point,
        fc.double({ min: -30, max: -6, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (a, c, exponent, t) => {
          const length = Math.hypot(c[0] - a[0], c[1] - a[1], c[2] - a[2]);
          fc.pre(length > 1e-3);
          // b a hair from a, off the line a–c: Ericson's region signs cancel there.
          const b = [a[0], a[1] + length * 10 ** exponent, a[2]];
          const positions = Float64Array.from([...a, ...b, ...c]);
          const on = [0, 1, 2].map((k) => a[k]! + t * (c[k]! - a[k]!));
          expect(Math.sqrt(triangleDistanceSquared(positions, 0, 3, 6, on[0]!, on[1]!, on[2]!))).toBeLessThanOrEqual(1e-9 * length);
        },
      ),
      { numRuns: 500 },
    );
    // Found by farthestOnTriangle's property (seed 313581576): a point on the long edge came out 0.79 m off.
    const sliver = Float32Array.from([0, 0, 0, 0, 1.8521963578491379e-16, 0, 0, 10, 10]);
    expect(Math.sqrt(triangleDistanceSquared(sliver, 0, 3, 6, 0, 1.6666666666666665, 1.6666666666666665))).toBeLessThan(1e-9);
  });
});
