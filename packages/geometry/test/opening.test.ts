import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OpeningValidationError, validateOpening, type OpeningInput, type Vec3 } from '../src/index.js';
import { door, doorCorners, expectClose, zUp } from './arbitraries.js';

/** Runs validation expecting failure and returns the problem codes, checking each names a field. */
function problemsOf(input: OpeningInput) {
  try {
    validateOpening(input);
  } catch (err) {
    expect(err).toBeInstanceOf(OpeningValidationError);
    const e = err as OpeningValidationError;
    expect(e.code).toBe('invalid_opening');
    for (const p of e.problems) {
      expect(['alignment.corners', 'alignment.wall_normal']).toContain(p.field);
      expect(p.message.length).toBeGreaterThan(20);
    }
    return e.problems;
  }
  throw new Error('expected validateOpening to throw');
}
const codes = (input: OpeningInput) => problemsOf(input).map((p) => p.code);

// A 0.9 × 2.1 m door in the x–y plane facing +z, bottom centre at the origin.
const BL: Vec3 = [-0.45, 0, 0],
  BR: Vec3 = [0.45, 0, 0],
  TR: Vec3 = [0.45, 2.1, 0],
  TL: Vec3 = [-0.45, 2.1, 0];
const good: OpeningInput = { corners: [BL, BR, TR, TL], wallNormal: [0, 0, 1] };

describe('validateOpening: worked examples', () => {
  it('builds the door frame of a door facing +z', () => {
    const o = validateOpening(good);
    expect(o.width).toBeCloseTo(0.9, 12);
    expect(o.height).toBeCloseTo(2.1, 12);
    expect(o.wallNormal).toEqual([0, 0, 1]);
    expect(o.frame.position).toEqual([0, 0, 0]);
    // x = up × n = (0,1,0) × (0,0,1) = (1,0,0): already the world axes, so no rotation.
    expectClose(o.frame.rotation, [0, 0, 0, 1], 1e-15);
  });

  it('builds the frame of a door facing +x: right is −z, rotation 90° about +Y', () => {
    const o = validateOpening({
      corners: [
        [2, 0, 0.5],
        [2, 0, -0.5],
        [2, 2, -0.5],
        [2, 2, 0.5],
      ],
      wallNormal: [1, 0, 0],
    });
    expect(o.width).toBeCloseTo(1, 12);
    expect(o.height).toBeCloseTo(2, 12);
    expectClose(o.frame.position, [2, 0, 0], 1e-15);
    expectClose(o.frame.rotation, [0, Math.SQRT1_2, 0, Math.SQRT1_2], 1e-15);
    // Column 0 of the matrix is the viewer's right.
    expectClose(Array.from(o.frame.matrix.slice(0, 3)), [0, 0, -1], 1e-15);
  });

  it('converts z-up input: a door in the x–z plane facing −y (z-up) faces +z in y-up', () => {
    const o = validateOpening({
      corners: [
        [-0.45, 0, 0],
        [0.45, 0, 0],
        [0.45, 0, 2.1],
        [-0.45, 0, 2.1],
      ],
      wallNormal: [0, -1, 0],
      coordinateSystem: 'z-up',
    });
    expectClose(o.corners[2], [0.45, 2.1, 0], 1e-15);
    expectClose(o.wallNormal, [0, 0, 1], 1e-15);
  });

  it('accepts scanner noise within the tolerances and uses the horizontal part of a tilted normal', () => {
    const o = validateOpening({
      corners: [
        [-0.45, 0.004, 0.01],
        [0.46, -0.003, -0.008],
        [0.44, 2.1, 0.012],
        [-0.45, 2.09, -0.01],
      ],
      wallNormal: [0.02, 0.1, 1],
    });
    expect(o.wallNormal[1]).toBe(0);
    expect(Math.hypot(...o.wallNormal)).toBeCloseTo(1, 12);
  });
});

describe('validateOpening: one test per problem', () => {
  it('corners not a list', () => expect(codes({ corners: 'nope' as never, wallNormal: [0, 0, 1] })).toEqual(['not_a_list']));
  it('wrong count', () => {
    const p = problemsOf({ corners: [BL, BR, TR], wallNormal: [0, 0, 1] });
    expect(p.map((x) => x.code)).toEqual(['wrong_count']);
    expect(p[0]!.message).toContain('got 3');
  });
  it('a corner that is not a vector', () =>
    expect(codes({ corners: [BL, BR, 7 as never, TL], wallNormal: [0, 0, 1] })).toEqual(['not_a_vector']));
  it('a corner with 2 numbers', () => expect(codes({ corners: [BL, [1, 2], TR, TL], wallNormal: [0, 0, 1] })).toEqual(['wrong_length']));
  it.each([NaN, Infinity, -Infinity])('a non-finite coordinate (%s) names the corner', (bad) => {
    const p = problemsOf({ corners: [BL, BR, [0.45, bad, 0], TL], wallNormal: [0, 0, 1] });
    expect(p.map((x) => x.code)).toEqual(['non_finite']);
    expect(p[0]!.message).toContain('TR');
    expect(p[0]!.field).toBe('alignment.corners');
  });
  it('a string coordinate', () =>
    expect(codes({ corners: [BL, BR, TR, [0, '2', 0] as never], wallNormal: [0, 0, 1] })).toEqual(['non_finite']));
  it('zero wall normal', () => {
    const p = problemsOf({ ...good, wallNormal: [0, 0, 0] });
    expect(p.map((x) => x.code)).toEqual(['zero_vector']);
    expect(p[0]!.field).toBe('alignment.wall_normal');
  });
  it('non-finite wall normal', () => expect(codes({ ...good, wallNormal: [0, NaN, 1] })).toEqual(['non_finite']));
  it('vertical wall normal (probably z-up data sent as y-up)', () => {
    const p = problemsOf({ ...good, wallNormal: [0, 1, 0.2] });
    expect(p.map((x) => x.code)).toContain('normal_not_horizontal');
    expect(p.find((x) => x.code === 'normal_not_horizontal')!.message).toContain('coordinate_system=z-up');
  });
  it('coinciding corners', () => expect(codes({ ...good, corners: [BL, BL, TR, TL] })).toContain('degenerate_edge'));
  it('not planar', () => {
    const p = problemsOf({ ...good, corners: [BL, BR, [0.45, 2.1, 0.2], TL] });
    expect(p.map((x) => x.code)).toContain('not_planar');
    expect(p.find((x) => x.code === 'not_planar')!.message).toMatch(/cm off the plane/);
  });
  it('edges cross (TR and TL swapped)', () => expect(codes({ ...good, corners: [BL, BR, TL, TR] })).toEqual(['edges_cross']));
  it('not convex', () => expect(codes({ ...good, corners: [BL, BR, [0.45, 2.1, 0], [0.3, 0.5, 0]] })).toContain('not_convex'));
  it('upside down', () => expect(codes({ ...good, corners: [TL, TR, BR, BL] })).toContain('upside_down'));
  it('mirrored: left and right swapped', () => {
    const p = problemsOf({ ...good, corners: [BR, BL, TL, TR] });
    expect(p.map((x) => x.code)).toEqual(['mirrored_order']);
    expect(p[0]!.message).toContain('left and right are swapped');
  });
  it('mirrored: normal pointing away from the viewer', () =>
    expect(codes({ ...good, wallNormal: [0, 0, -1] })).toEqual(['mirrored_order']));
  it('normal not perpendicular to the opening', () => {
    const p = problemsOf({ ...good, wallNormal: [0.5, 0, 1] });
    expect(p.map((x) => x.code)).toEqual(['normal_not_perpendicular']);
    expect(p[0]!.field).toBe('alignment.wall_normal');
    expect(p[0]!.message).toMatch(/26\.6°/);
  });
  it('bottom edge not horizontal', () => {
    expect(
      codes({
        ...good,
        corners: [
          [-0.45, 0, 0],
          [0.45, 0.3, 0],
          [0.45, 2.4, 0],
          [-0.45, 2.1, 0],
        ],
      }),
    ).toContain('bottom_not_horizontal');
  });
  it('too narrow and too low', () => {
    const p = problemsOf({
      ...good,
      corners: [
        [-0.1, 0, 0],
        [0.1, 0, 0],
        [0.1, 1, 0],
        [-0.1, 1, 0],
      ],
    });
    expect(p.map((x) => x.code)).toEqual(['implausible_width', 'implausible_height']);
  });
  it('millimetres instead of metres', () => {
    const p = problemsOf({ ...good, corners: [BL, BR, TR, TL].map((c) => c.map((v) => v * 1000)) });
    expect(p.map((x) => x.code)).toEqual(['implausible_width', 'implausible_height']);
    expect(p[0]!.message).toContain('metres');
  });
  it('lists every problem at once, across both fields', () => {
    const p = problemsOf({ corners: [BL, BR, [0.45, 2.1, 0.3], TL], wallNormal: [0, 1, 0] });
    const fields = new Set(p.map((x) => x.field));
    expect(fields).toEqual(new Set(['alignment.corners', 'alignment.wall_normal']));
    expect(p.length).toBeGreaterThanOrEqual(2);
  });
  it('the error message and field point at the first problem', () => {
    try {
      validateOpening({ ...good, wallNormal: [0, 0, 0] });
    } catch (err) {
      expect((err as OpeningValidationError).field).toBe('alignment.wall_normal');
      expect((err as Error).message).toContain('alignment.wall_normal');
      return;
    }
    throw new Error('expected a throw');
  });
});

describe('validateOpening: properties', () => {
  it('a random upright door, yawed and moved anywhere, validates with its true size and frame', () => {
    fc.assert(
      fc.property(door, (d) => {
        const { corners, normal } = doorCorners(d);
        const o = validateOpening({ corners, wallNormal: normal });
        expect(o.width).toBeCloseTo(d.width, 9);
        expect(o.height).toBeCloseTo(d.height, 9);
        expectClose(o.wallNormal, normal, 1e-9);
        expectClose(o.frame.position, [(corners[0]![0] + corners[1]![0]) / 2, d.at[1], (corners[0]![2] + corners[1]![2]) / 2], 1e-9);
        // The frame's x axis runs from BL to BR.
        const bx = [corners[1]![0] - corners[0]![0], 0, corners[1]![2] - corners[0]![2]].map((v) => v / d.width);
        expectClose(Array.from(o.frame.matrix.slice(0, 3)), bx, 1e-9);
      }),
      { numRuns: 300 },
    );
  });

  it('any swap of two corners is rejected', () => {
    const pairs = [
      [0, 1],
      [0, 2],
      [0, 3],
      [1, 2],
      [1, 3],
      [2, 3],
    ] as const;
    fc.assert(
      fc.property(door, fc.constantFrom(...pairs), (d, [i, j]) => {
        const { corners, normal } = doorCorners(d);
        const swapped = corners.slice();
        [swapped[i], swapped[j]] = [swapped[j]!, swapped[i]!];
        expect(() => validateOpening({ corners: swapped, wallNormal: normal })).toThrow(OpeningValidationError);
      }),
      { numRuns: 300 },
    );
  });

  it('a flipped normal is rejected as mirrored', () => {
    fc.assert(
      fc.property(door, (d) => {
        const { corners, normal } = doorCorners(d);
        expect(codes({ corners, wallNormal: normal.map((v) => -v) })).toEqual(['mirrored_order']);
      }),
    );
  });

  it('the same opening given in z-up and in y-up gives the same result', () => {
    fc.assert(
      fc.property(door, (d) => {
        const { corners, normal } = doorCorners(d);
        const y = validateOpening({ corners, wallNormal: normal });
        const z = validateOpening({ corners: corners.map(zUp), wallNormal: zUp(normal), coordinateSystem: 'z-up' });
        for (let i = 0; i < 4; i++) expectClose(z.corners[i]!, y.corners[i]!, 1e-12);
        expectClose(z.wallNormal, y.wallNormal, 1e-12);
        expectClose(z.frame.matrix, y.frame.matrix, 1e-9);
        expect(z.width).toBeCloseTo(y.width, 12);
      }),
    );
  });
});
