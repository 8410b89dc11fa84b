import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyBounds, growBounds } from '../src/scene/growBounds.js';
import { pointBounds } from '../src/scene/pointBounds.js';
import { newIdentityMatrix } from '../src/scene/identityMatrix.js';

describe('pointBounds (USD extent of a mesh)', () => {
  it('is the box growBounds finds through the identity, bit for bit (−0 included)', () => {
    const coordinate = fc.oneof(fc.constantFrom(0, -0, 1, -1), fc.float({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(coordinate, coordinate, coordinate), { minLength: 1, maxLength: 50 }), (points) => {
        const positions = Float32Array.from(points.flat());
        const expected = growBounds(emptyBounds(), positions, 3, newIdentityMatrix());
        const box = pointBounds(positions);
        for (const k of [0, 1, 2]) {
          expect(Object.is(box.min[k], expected.min[k]), `min[${k}] ${box.min[k]} vs ${expected.min[k]}`).toBe(true);
          expect(Object.is(box.max[k], expected.max[k]), `max[${k}] ${box.max[k]} vs ${expected.max[k]}`).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('contains every point and touches the box on each side', () => {
    const positions = Float32Array.from([1, -2, 3, -4, 5, 0.5, 2, 2, -6]);
    expect(pointBounds(positions)).toEqual({ min: [-4, -2, -6], max: [2, 5, 3] });
  });
});
