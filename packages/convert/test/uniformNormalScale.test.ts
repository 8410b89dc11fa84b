import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalMatrix, uniformNormalScale } from '../src/scene/normalMatrix.js';

/** A column-major 4×4 from a unit quaternion, per-axis scales and a translation. */
function transform(q: [number, number, number, number], scale: [number, number, number]): Float64Array {
  const l = Math.hypot(...q) || 1;
  const [x, y, z, w] = q.map((v) => v / l) as [number, number, number, number];
  const r = [
    1 - 2 * (y * y + z * z),
    2 * (x * y + z * w),
    2 * (x * z - y * w),
    2 * (x * y - z * w),
    1 - 2 * (x * x + z * z),
    2 * (y * z + x * w),
    2 * (x * z + y * w),
    2 * (y * z - x * w),
    1 - 2 * (x * x + y * y),
  ];
  const m = new Float64Array(16);
  for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) m[c * 4 + k] = r[c * 3 + k]! * scale[c]!;
  m[12] = 5;
  m[13] = -7;
  m[14] = 11;
  m[15] = 1;
  return m;
}

const apply = (nm: Float64Array, n: number[]) => [0, 1, 2].map((r) => nm[r * 3]! * n[0]! + nm[r * 3 + 1]! * n[1]! + nm[r * 3 + 2]! * n[2]!);
const quaternion = fc.tuple(
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: 0.1, max: 1, noNaN: true }),
);
const unitVector = fc
  .tuple(
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: -1, max: 1, noNaN: true }),
    fc.double({ min: 0.1, max: 1, noNaN: true }),
  )
  .map((v) => v.map((x) => x / Math.hypot(...v)));

describe('uniformNormalScale: when a placement keeps normals at one length', () => {
  it('rotations, mirrors and uniform scales: the factor makes every transformed unit normal unit again', () => {
    fc.assert(
      fc.property(quaternion, fc.double({ min: 1e-3, max: 1e3, noNaN: true }), fc.boolean(), unitVector, (q, s, mirror, n) => {
        const nm = normalMatrix(transform(q, [mirror ? -s : s, s, s]));
        const k = uniformNormalScale(nm);
        expect(k).toBeGreaterThan(0);
        const out = apply(nm, n).map((v) => v * k);
        expect(Math.abs(Math.hypot(...out) - 1)).toBeLessThan(1e-9);
      }),
    );
  });

  it('a scale that differs between axes: 0, as normals then need renormalising one by one', () => {
    fc.assert(
      fc.property(
        quaternion,
        fc.double({ min: 0.01, max: 100, noNaN: true }),
        fc.double({ min: 1.001, max: 10, noNaN: true }),
        (q, s, stretch) => {
          expect(uniformNormalScale(normalMatrix(transform(q, [s, s * stretch, s])))).toBe(0);
        },
      ),
    );
    expect(uniformNormalScale(normalMatrix(new Float64Array(16)))).toBe(0); // degenerate: flat
  });
});
