import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { triangleDistanceSquared } from '@arsession/geometry';
import { DeviationProbe } from '../src/index.js';

/**
 * A heightfield of `n` × `n` quads over random heights: the surface measured against. `padded`
 * adds vertices no triangle uses, as a merged mesh has (a probe then measures without rows).
 */
function heightfield(n: number, heights: number[], padded = false) {
  const positions = new Float32Array(((n + 1) * (n + 1) + (padded ? 5000 : 0)) * 3);
  for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) positions.set([i * 0.1, heights[(i * (n + 1) + j) % heights.length]!, j * 0.1], (i * (n + 1) + j) * 3);
  const indices: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const a = i * (n + 1) + j, c = a + n + 1;
      indices.push(a, c, a + 1, a + 1, c, c + 1);
    }
  }
  return { positions, indices: new Uint32Array(indices) };
}

/** The exact distance from a point to the surface: every triangle tried. */
function bruteDistance(surface: { positions: Float32Array; indices: Uint32Array }, x: number, y: number, z: number): number {
  let best = Infinity;
  const idx = surface.indices;
  for (let f = 0; f < idx.length; f += 3) best = Math.min(best, triangleDistanceSquared(surface.positions, idx[f]! * 3, idx[f + 1]! * 3, idx[f + 2]! * 3, x, y, z));
  return Math.sqrt(best);
}

function point(p: Float32Array, corners: number[], weights: number[]): [number, number, number] {
  const out: [number, number, number] = [0, 0, 0];
  corners.forEach((v, k) => {
    for (let a = 0; a < 3; a++) out[a] += weights[k]! * p[v * 3 + a]!;
  });
  return out;
}

const N = 6;
const VERTICES = (N + 1) * (N + 1);
const surfaceArb = fc.array(fc.double({ min: -0.3, max: 0.3, noNaN: true }), { minLength: 1, maxLength: VERTICES });
/** Triangles over the surface's vertices: random ones, and some of the surface's own. */
const versionArb = fc.array(fc.oneof(fc.tuple(fc.nat(VERTICES - 1), fc.nat(VERTICES - 1), fc.nat(VERTICES - 1)), fc.nat(N * N * 2 - 1)), { minLength: 1, maxLength: 40 });

function versionIndices(surface: { indices: Uint32Array }, picks: Array<[number, number, number] | number>): Uint32Array {
  return new Uint32Array(picks.flatMap((pick) => (typeof pick === 'number' ? [...surface.indices.subarray(pick * 3, pick * 3 + 3)] : pick)));
}

describe('DeviationProbe', () => {
  it('finds the farthest edge midpoint or centroid of another version exactly, and names the triangles beyond the cap', () => {
    fc.assert(fc.property(surfaceArb, versionArb, fc.double({ min: 0, max: 0.4, noNaN: true }), fc.boolean(), (heights, picks, cap, padded) => {
      const surface = heightfield(N, heights, padded);
      const version = versionIndices(surface, picks);
      const beyond: number[] = [];
      const reported = new Map<number, number>();
      const found = new DeviationProbe(surface).farthest(version, cap, (t, d) => {
        reported.set(t, d);
        if (d > cap) beyond.push(t);
      });
      let farthest = 0;
      const worstOf: number[] = [];
      for (let t = 0; t < version.length / 3; t++) {
        const [a, b, c] = [version[t * 3]!, version[t * 3 + 1]!, version[t * 3 + 2]!];
        const points = [point(surface.positions, [a, b], [0.5, 0.5]), point(surface.positions, [b, c], [0.5, 0.5]), point(surface.positions, [a, c], [0.5, 0.5]), point(surface.positions, [a, b, c], [1 / 3, 1 / 3, 1 / 3])];
        worstOf[t] = Math.max(...points.map(([x, y, z]) => bruteDistance(surface, x, y, z)));
        farthest = Math.max(farthest, worstOf[t]!);
      }
      expect(found).toBeCloseTo(farthest, 6);
      // Each triangle's figure is never nearer than the truth (a bound within the cap), and never beyond the largest.
      for (const [t, d] of reported) {
        expect(d).toBeGreaterThanOrEqual(worstOf[t]! - 1e-6);
        expect(d).toBeLessThanOrEqual(found + 1e-9);
      }
      // A point within rounding of the cap may fall either side of it.
      const clear = (t: number) => Math.abs(worstOf[t]! - cap) > 1e-6;
      expect(beyond.filter(clear)).toEqual(worstOf.map((_, t) => t).filter((t) => clear(t) && worstOf[t]! > cap));
    }), { numRuns: 200 });
  });

  it('finds the farthest corner or centroid of every stride-th triangle of another version exactly', () => {
    fc.assert(fc.property(surfaceArb, versionArb, fc.integer({ min: 1, max: 4 }), fc.boolean(), (heights, picks, stride, padded) => {
      const surface = heightfield(N, heights, padded);
      // The surface measured is a coarse one, the version the full surface: what the coarse one left out shows.
      const coarse = { positions: surface.positions, indices: versionIndices(surface, picks) };
      let farthest = 0;
      for (let t = 0; t < surface.indices.length / 3; t += stride) {
        const corners = [...surface.indices.subarray(t * 3, t * 3 + 3)];
        const points = [...corners.map((v) => point(surface.positions, [v], [1])), point(surface.positions, corners, [1 / 3, 1 / 3, 1 / 3])];
        farthest = Math.max(farthest, ...points.map(([x, y, z]) => bruteDistance(coarse, x, y, z)));
      }
      expect(new DeviationProbe(coarse).farthestCorners(surface.indices, stride)).toBeCloseTo(farthest, 6);
    }), { numRuns: 200 });
  });
});
