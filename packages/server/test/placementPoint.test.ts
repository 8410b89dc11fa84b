import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NEAR_PART_METRES, partAt } from '../src/placement/placementPoint.js';

const coordinate = fc.double({ min: -50, max: 50, noNaN: true });
const box = fc
  .tuple(coordinate, coordinate, coordinate, fc.double({ min: 0.1, max: 20, noNaN: true }))
  .map(([x, y, z, size]) => ({ min: [x, y, z], max: [x + size, y + size / 2, z + size] }));

/** Distance from a point to a box (0 inside). */
const distance = (b: { min: number[]; max: number[] }, p: number[]) =>
  Math.hypot(...[0, 1, 2].map((k) => Math.max(b.min[k]! - p[k]!, 0, p[k]! - b.max[k]!)));

describe('partAt', () => {
  it('is a part at least as near as any other, within reach; the smallest of those that hold the point', () => {
    fc.assert(
      fc.property(fc.array(box, { minLength: 1, maxLength: 12 }), fc.tuple(coordinate, coordinate, coordinate), (boxes, point) => {
        const at = partAt(boxes, point);
        const nearest = Math.min(...boxes.map((b) => distance(b, point)));
        if (nearest > NEAR_PART_METRES) {
          expect(at).toBeNull();
          return;
        }
        expect(at).not.toBeNull();
        expect(distance(boxes[at!]!, point)).toBeCloseTo(nearest, 9);
        if (nearest === 0) {
          const volume = (b: { min: number[]; max: number[] }) => [0, 1, 2].reduce((v, k) => v * (b.max[k]! - b.min[k]!), 1);
          for (const b of boxes) if (distance(b, point) === 0) expect(volume(boxes[at!]!)).toBeLessThanOrEqual(volume(b) * (1 + 1e-9));
        }
      }),
    );
  });

  it('a storey holding a door beats the storey below whose walls reach it', () => {
    const level1 = { min: [0, 0, 0], max: [10, 3.4, 10] };
    const level2 = { min: [0, 3.1, 0], max: [10, 6, 5] };
    expect(partAt([level1, level2], [5, 3.3, 2])).toBe(1);
    expect(partAt([level1, level2], [5, 1, 2])).toBe(0);
    expect(partAt([level1, level2], [5, 1, 40])).toBeNull();
  });
});
