import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLine, lineViews } from '../bench/src/render/lineViews.js';

/**
 * A track as a soup: a strip 3 m wide along an arc of radius `radius` (m) through `length` m,
 * cut in 1 m quads, lying at height `y`; its centre line at distance s is returned too.
 */
function track(length: number, radius: number, y: number) {
  const at = (s: number, across: number): [number, number, number] => {
    const angle = s / radius;
    const r = radius + across;
    return [r * Math.sin(angle), y, radius - r * Math.cos(angle)];
  };
  const positions: number[] = [];
  for (let s = 0; s < length; s++) {
    const [a, b, c, d] = [at(s, -1.5), at(s, 1.5), at(s + 1, 1.5), at(s + 1, -1.5)];
    positions.push(...a, ...b, ...c, ...a, ...c, ...d);
  }
  const tangent = (s: number): [number, number] => [Math.cos(s / radius), Math.sin(s / radius)];
  return { positions: Float32Array.from(positions), centre: (s: number) => at(s, 0), tangent };
}

describe('lineViews, the fixed views of a railway', () => {
  it('tells a line from a building by its box', () => {
    expect(isLine({ min: [0, 0, 0], max: [5000, 30, 400] })).toBe(true);
    expect(isLine({ min: [0, 0, 0], max: [400, 10, 30] })).toBe(true);
    expect(isLine({ min: [0, 0, 0], max: [120, 25, 60] })).toBe(false);
  });

  it('stands on the line near its middle and looks along it; the stretch is framed on the line there', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 400, max: 3000 }),
        fc.integer({ min: 2000, max: 20000 }),
        fc.integer({ min: -50, max: 50 }),
        (length, radius, y) => {
          const { positions, centre, tangent } = track(length, radius, y);
          const [plan, stretch, trackView] = lineViews(positions);
          expect([plan!.name, stretch!.name, trackView!.name]).toEqual(['plan', 'stretch', 'track']);
          // The eye: over the line (within its half-width), 1.6 m above it.
          const eye = trackView!.camera.eye;
          let nearest = 0,
            best = Infinity;
          for (let s = 0; s <= length; s += 0.25) {
            const c = centre(s);
            const d = Math.hypot(c[0] - eye[0], c[2] - eye[2]);
            if (d < best) [best, nearest] = [d, s];
          }
          expect(best).toBeLessThanOrEqual(1.5);
          expect(eye[1]).toBeCloseTo(y + 1.6, 3);
          // Looking along the line there (either way), level.
          const look = [trackView!.camera.target[0] - eye[0], trackView!.camera.target[1] - eye[1], trackView!.camera.target[2] - eye[2]];
          const [tx, tz] = tangent(nearest);
          expect(Math.abs(look[0]! * tx + look[2]! * tz) / Math.hypot(look[0]!, look[2]!)).toBeGreaterThan(Math.cos((5 * Math.PI) / 180));
          expect(look[1]).toBe(0);
          // The stretch is aimed at the spot, and the plan looks straight down.
          const target = stretch!.camera.target;
          expect(Math.hypot(target[0] - eye[0], target[2] - eye[2])).toBeLessThan(2);
          expect(plan!.camera.eye[1]).toBeGreaterThan(y + 100);
          expect(plan!.camera.eye[0]).toBeCloseTo(plan!.camera.target[0], 6);
        },
      ),
      { numRuns: 30 },
    );
  });
});
