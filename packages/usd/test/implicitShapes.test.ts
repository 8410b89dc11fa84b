// Implicit shapes tessellated as OpenUSD draws them (UsdImaging 22: 10 around, 10 pole to pole,
// 4 per capsule cap): the triangles and extent a USD viewer shows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  tessellateCapsule,
  tessellateCube,
  tessellateCylinder,
  tessellatePlane,
  tessellateSphere,
  type ShapeAxis,
  type TriangleMesh,
} from '../src/geom/implicitShapes.js';

describe('implicit shapes', () => {
  const outward = (mesh: TriangleMesh, axisOf: (p: number[]) => number[]) => {
    for (let t = 0; t < mesh.indices.length; t += 3) {
      const [a, b, c] = [0, 1, 2].map((k) =>
        Array.from(mesh.positions.subarray(3 * mesh.indices[t + k]!, 3 * mesh.indices[t + k]! + 3)),
      ) as [number[], number[], number[]];
      const u = b.map((v, k) => v - a[k]!),
        w = c.map((v, k) => v - a[k]!);
      const n = [u[1]! * w[2]! - u[2]! * w[1]!, u[2]! * w[0]! - u[0]! * w[2]!, u[0]! * w[1]! - u[1]! * w[0]!];
      // A cone's apex closes its side quads in triangles of no area, as OpenUSD's do: nothing to face.
      if (n.every((v) => v === 0)) continue;
      const centre = [0, 1, 2].map((k) => (a[k]! + b[k]! + c[k]!) / 3);
      const from = axisOf(centre);
      expect(n.reduce((s, v, k) => s + v * (centre[k]! - from[k]!), 0)).toBeGreaterThan(0);
    }
  };
  const bounds = (mesh: TriangleMesh) =>
    [0, 1, 2].map((k) => {
      let lo = Infinity,
        hi = -Infinity;
      for (let i = k; i < mesh.positions.length; i += 3) {
        lo = Math.min(lo, mesh.positions[i]!);
        hi = Math.max(hi, mesh.positions[i]!);
      }
      return [lo, hi];
    });
  const axisIndex = { X: 0, Y: 1, Z: 2 } as const;
  const size = fc.double({ min: 0.01, max: 100, noNaN: true });
  const axis = fc.constantFrom<ShapeAxis>('X', 'Y', 'Z');

  // As OpenUSD draws them: 10 divisions around, the first on the ring's first axis, so the ring
  // reaches r along that axis and r·sin 72° across it (X then Y for axis Z; Y then Z for X; Z then X for Y).
  const across = Math.sin((2 * Math.PI) / 5);
  const ringAxes = { X: [1, 2], Y: [2, 0], Z: [0, 1] } as const;

  it('a sphere spans its radius along its poles and its first ring axis, r·sin 72° across, its faces outward; 180 triangles', () => {
    fc.assert(
      fc.property(size, (r) => {
        const mesh = tessellateSphere(r);
        bounds(mesh).forEach(([lo, hi], i) => {
          const reach = i === 1 ? r * across : r;
          expect(lo).toBeCloseTo(-reach, 4);
          expect(hi).toBeCloseTo(reach, 4);
        });
        expect(mesh.indices.length / 3).toBe(180);
        outward(mesh, () => [0, 0, 0]);
      }),
      { numRuns: 30 },
    );
  });

  it(
    'cylinders, cones and capsules span height along their axis and ' +
      "OpenUSD's ring across it, their faces outward; 40, 30 and 160 triangles",
    () => {
      fc.assert(
        fc.property(size, size, axis, (r, h, ax) => {
          const k = axisIndex[ax];
          for (const [mesh, half, triangles] of [
            [tessellateCylinder(r, r, h, ax), h / 2, 40],
            [tessellateCylinder(r, 0, h, ax), h / 2, 30],
            [tessellateCapsule(r, h, ax), h / 2 + r, 160],
          ] as const) {
            bounds(mesh).forEach(([lo, hi], i) => {
              const reach = i === k ? half : i === ringAxes[ax][0] ? r : r * across;
              expect(lo).toBeCloseTo(-reach, 4);
              expect(hi).toBeCloseTo(reach, 4);
            });
            expect(mesh.indices.length / 3).toBe(triangles);
            // Each shape is convex around the origin: every face looks away from it.
            outward(mesh, () => [0, 0, 0]);
          }
        }),
        { numRuns: 30 },
      );
    },
  );

  it('a cube spans half its size, a plane faces along its axis', () => {
    const cube = tessellateCube(3);
    for (const [lo, hi] of bounds(cube)) {
      expect(lo).toBe(-1.5);
      expect(hi).toBe(1.5);
    }
    outward(cube, () => [0, 0, 0]);
    expect(cube.indices.length / 3).toBe(12);
    for (const ax of ['X', 'Y', 'Z'] as const) {
      const plane = tessellatePlane(4, 2, ax);
      const n = Array.from(plane.normals.subarray(0, 3));
      expect(n[axisIndex[ax]]).toBe(1);
      outward(plane, (p) => p.map((v, i) => (i === axisIndex[ax] ? v - 1 : v)));
    }
  });
});
