import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyBounds, growBounds, linearBounds } from '../src/scene/growBounds.js';

/** Each point through the whole matrix, the translation added last, as a placement computes it: the reference. */
function placedBox(positions: Float32Array, stride: number, m: Float64Array): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity],
    max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 2 < positions.length; i += stride) {
    const [x, y, z] = [positions[i]!, positions[i + 1]!, positions[i + 2]!];
    const w = [0, 1, 2].map((k) => m[k]! * x + m[4 + k]! * y + m[8 + k]! * z + m[12 + k]!);
    for (let k = 0; k < 3; k++) {
      if (w[k]! < min[k]!) min[k] = w[k]!;
      if (w[k]! > max[k]!) max[k] = w[k]!;
    }
  }
  return { min, max };
}

const finite = (max: number) => fc.double({ noNaN: true, noDefaultInfinity: true, min: -max, max });

describe('linearBounds (a geometry measured once for every place it is moved to)', () => {
  it('moved by the translation, is the box of the points placed through the whole matrix, to the bit, as growBounds gives it', () => {
    const matrix = fc
      .tuple(fc.array(finite(4), { minLength: 9, maxLength: 9 }), fc.array(finite(1e7), { minLength: 3, maxLength: 3 }))
      .map(([m, t]) => Float64Array.of(m[0]!, m[1]!, m[2]!, 0, m[3]!, m[4]!, m[5]!, 0, m[6]!, m[7]!, m[8]!, 0, t[0]!, t[1]!, t[2]!, 1));
    const coordinate = fc.oneof(fc.constantFrom(0, -0, 1, -1), fc.float({ noNaN: true, noDefaultInfinity: true, min: -1e5, max: 1e5 }));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(coordinate, coordinate, coordinate, coordinate, coordinate, coordinate), { maxLength: 40 }),
        matrix,
        (vertices, m) => {
          // Six floats a vertex (position, normal), as a shared geometry holds them.
          const positions = Float32Array.from(vertices.flat());
          const expected = placedBox(positions, 6, m);
          const box = linearBounds(positions, 6, m);
          const grown = growBounds(emptyBounds(), positions, 6, m);
          for (const k of [0, 1, 2]) {
            expect(box[k]! + m[12 + k]!).toBe(expected.min[k]);
            expect(box[3 + k]! + m[12 + k]!).toBe(expected.max[k]);
            expect(grown.min[k]).toBe(expected.min[k]);
            expect(grown.max[k]).toBe(expected.max[k]);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
