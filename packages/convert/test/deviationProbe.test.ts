import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { triangleDistanceSquared } from '@arsession/geometry';
import { DeviationProbe } from '../src/budget/index.js';

/**
 * A heightfield of `n` × `n` quads over random heights: the surface measured against. `padded`
 * adds vertices no triangle uses, as a merged mesh has (a probe then measures without rows).
 */
function heightfield(n: number, heights: number[], padded = false) {
  const positions = new Float32Array(((n + 1) * (n + 1) + (padded ? 5000 : 0)) * 3);
  for (let i = 0; i <= n; i++)
    for (let j = 0; j <= n; j++) positions.set([i * 0.1, heights[(i * (n + 1) + j) % heights.length]!, j * 0.1], (i * (n + 1) + j) * 3);
  const indices: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const a = i * (n + 1) + j,
        c = a + n + 1;
      indices.push(a, c, a + 1, a + 1, c, c + 1);
    }
  }
  return { positions, indices: new Uint32Array(indices) };
}

/** The exact distance from a point to the surface: every triangle tried. */
function bruteDistance(surface: { positions: Float32Array; indices: Uint32Array }, x: number, y: number, z: number): number {
  let best = Infinity;
  const idx = surface.indices;
  for (let f = 0; f < idx.length; f += 3)
    best = Math.min(best, triangleDistanceSquared(surface.positions, idx[f]! * 3, idx[f + 1]! * 3, idx[f + 2]! * 3, x, y, z));
  return Math.sqrt(best);
}

function point(p: Float32Array, corners: number[], weights: number[]): [number, number, number] {
  const out: [number, number, number] = [0, 0, 0];
  corners.forEach((v, k) => {
    for (let a = 0; a < 3; a++) out[a] = out[a]! + weights[k]! * p[v * 3 + a]!;
  });
  return out;
}

const N = 6;
const VERTICES = (N + 1) * (N + 1);
const surfaceArb = fc.array(fc.double({ min: -0.3, max: 0.3, noNaN: true }), { minLength: 1, maxLength: VERTICES });
/** Triangles over the surface's vertices: random ones, and some of the surface's own. */
const versionArb = fc.array(fc.oneof(fc.tuple(fc.nat(VERTICES - 1), fc.nat(VERTICES - 1), fc.nat(VERTICES - 1)), fc.nat(N * N * 2 - 1)), {
  minLength: 1,
  maxLength: 40,
});

function versionIndices(surface: { indices: Uint32Array }, picks: Array<[number, number, number] | number>): Uint32Array {
  return new Uint32Array(
    picks.flatMap((pick) => (typeof pick === 'number' ? [...surface.indices.subarray(pick * 3, pick * 3 + 3)] : pick)),
  );
}

/** Each triangle's farthest edge midpoint or centroid from the surface, every triangle of it tried. */
function truthOf(surface: { positions: Float32Array; indices: Uint32Array }, version: Uint32Array): number[] {
  const worst: number[] = [];
  for (let t = 0; t < version.length / 3; t++) {
    const [a, b, c] = [version[t * 3]!, version[t * 3 + 1]!, version[t * 3 + 2]!];
    const points = [
      point(surface.positions, [a, b], [0.5, 0.5]),
      point(surface.positions, [b, c], [0.5, 0.5]),
      point(surface.positions, [a, c], [0.5, 0.5]),
      point(surface.positions, [a, b, c], [1 / 3, 1 / 3, 1 / 3]),
    ];
    worst[t] = Math.max(...points.map(([x, y, z]) => bruteDistance(surface, x, y, z)));
  }
  return worst;
}

describe('DeviationProbe', () => {
  it('bounds every triangle of another version, exactly beyond the cap, and finds the farthest of any subset exactly', () => {
    fc.assert(
      fc.property(
        surfaceArb,
        versionArb,
        fc.double({ min: 0, max: 0.4, noNaN: true }),
        fc.boolean(),
        fc.array(fc.boolean(), { minLength: 1 }),
        (heights, picks, cap, padded, subset) => {
          const surface = heightfield(N, heights, padded);
          const version = versionIndices(surface, picks);
          const measured = new DeviationProbe(surface).measure(version, cap);
          const truth = truthOf(surface, version);
          truth.forEach((d, t) => {
            // Never nearer than the truth; beyond the cap, the truth.
            expect(measured.triangles[t]).toBeGreaterThanOrEqual(d - 1e-6);
            if (d > cap + 1e-6) expect(measured.triangles[t]).toBeCloseTo(d, 6);
          });
          // A point within rounding of the cap may fall either side of it.
          const clear = (t: number) => Math.abs(truth[t]! - cap) > 1e-6;
          expect(truth.map((_, t) => t).filter((t) => clear(t) && measured.triangles[t]! > cap)).toEqual(
            truth.map((_, t) => t).filter((t) => clear(t) && truth[t]! > cap),
          );
          const included = (t: number) => subset[t % subset.length]!;
          expect(measured.max(included)).toBeCloseTo(Math.max(0, ...truth.filter((_, t) => included(t))), 6);
          expect(measured.max()).toBeCloseTo(Math.max(...truth), 6);
          expect(new DeviationProbe(surface).farthest(version)).toBeCloseTo(Math.max(...truth), 6);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('measures each part against its own part of the surface only', () => {
    fc.assert(
      fc.property(
        surfaceArb,
        surfaceArb,
        versionArb,
        versionArb,
        fc.double({ min: 0, max: 0.4, noNaN: true }),
        (heightsA, heightsB, picksA, picksB, cap) => {
          // Two heightfields over one another, their vertices apart: part 0 and part 1.
          const a = heightfield(N, heightsA),
            b = heightfield(N, heightsB);
          const positions = new Float32Array([...a.positions, ...b.positions]);
          const partOfVertex = new Int32Array(VERTICES * 2).fill(1, VERTICES);
          const surface = { positions, indices: new Uint32Array([...a.indices, ...b.indices.map((v) => v + VERTICES)]) };
          const versionA = versionIndices(a, picksA),
            versionB = versionIndices(b, picksB).map((v) => v + VERTICES);
          const version = new Uint32Array([...versionA, ...versionB]);
          const truth = [
            ...truthOf({ positions, indices: surface.indices.subarray(0, a.indices.length) }, versionA),
            ...truthOf({ positions, indices: surface.indices.subarray(a.indices.length) }, versionB),
          ];
          const measured = new DeviationProbe(surface, partOfVertex).measure(version, cap);
          truth.forEach((d, t) => expect(measured.triangles[t]).toBeGreaterThanOrEqual(d - 1e-6));
          expect(measured.max()).toBeCloseTo(Math.max(...truth), 6);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('finds the farthest corner or centroid of every stride-th triangle of another version exactly', () => {
    fc.assert(
      fc.property(surfaceArb, versionArb, fc.integer({ min: 1, max: 4 }), fc.boolean(), (heights, picks, stride, padded) => {
        const surface = heightfield(N, heights, padded);
        // The surface measured is a coarse one, the version the full surface: what the coarse one left out shows.
        const coarse = { positions: surface.positions, indices: versionIndices(surface, picks) };
        let farthest = 0;
        for (let t = 0; t < surface.indices.length / 3; t += stride) {
          const corners = [...surface.indices.subarray(t * 3, t * 3 + 3)];
          const points = [
            ...corners.map((v) => point(surface.positions, [v], [1])),
            point(surface.positions, corners, [1 / 3, 1 / 3, 1 / 3]),
          ];
          farthest = Math.max(farthest, ...points.map(([x, y, z]) => bruteDistance(coarse, x, y, z)));
        }
        expect(new DeviationProbe(coarse).farthestCorners(surface.indices, stride)).toBeCloseTo(farthest, 6);
      }),
      { numRuns: 200 },
    );
  });

  it('bounds whole triangles: no dense sample of another version is farther from the surface, and the bound is near the farthest', () => {
    fc.assert(
      fc.property(surfaceArb, versionArb, fc.boolean(), fc.double({ min: 0, max: 0.2, noNaN: true }), (heights, picks, padded, enough) => {
        const surface = heightfield(N, heights, padded);
        const version = versionIndices(surface, picks);
        const steps = 12;
        let dense = 0,
          spacing = 0;
        for (let t = 0; t < version.length / 3; t++) {
          const corners = [...version.subarray(t * 3, t * 3 + 3)];
          const [a, b, c] = corners.map((v) => point(surface.positions, [v], [1]));
          spacing = Math.max(
            spacing,
            Math.hypot(a![0] - b![0], a![1] - b![1], a![2] - b![2]),
            Math.hypot(b![0] - c![0], b![1] - c![1], b![2] - c![2]),
            Math.hypot(a![0] - c![0], a![1] - c![1], a![2] - c![2]),
          );
          for (let i = 0; i <= steps; i++) {
            for (let j = 0; i + j <= steps; j++) {
              const [x, y, z] = point(surface.positions, corners, [1 - (i + j) / steps, i / steps, j / steps]);
              dense = Math.max(dense, bruteDistance(surface, x, y, z));
            }
          }
        }
        const bound = new DeviationProbe(surface).bound(version, 0, 1e-9);
        expect(dense).toBeLessThanOrEqual(bound + 1e-9);
        // Within 2% of the farthest point, which is within one grid step of a sample.
        expect(bound).toBeLessThanOrEqual((dense + spacing / steps) * 1.02 + 1e-6);
        // Told of a larger distance elsewhere, it may stop refining there, never come out below the truth.
        const told = new DeviationProbe(surface).bound(version, enough);
        expect(told).toBeGreaterThanOrEqual(Math.max(dense, enough) - 1e-9);
      }),
      { numRuns: 120 },
    );
  });
});
