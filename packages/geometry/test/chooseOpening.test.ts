import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseOpening, DoorNotFoundError, GeometryValidationError, type OpeningCandidate, type Vec3 } from '../src/index.js';
import { door, doorCorners, expectClose, zUp } from './arbitraries.js';

/** A door of width w in the wall z = 0 facing +z, centred at x. */
function doorAt(x: number, w = 0.9, h = 2.1): OpeningCandidate {
  return {
    corners: [
      [x - w / 2, 0, 0],
      [x + w / 2, 0, 0],
      [x + w / 2, h, 0],
      [x - w / 2, h, 0],
    ],
    normal: [0, 0, 1],
    source: { id: `door@${x}` },
  };
}
const back = (c: OpeningCandidate): OpeningCandidate => ({
  corners: [c.corners[1], c.corners[0], c.corners[3], c.corners[2]],
  normal: [0, 0, -1],
});
const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e as DoorNotFoundError;
  }
  throw new Error('expected a failure');
};

describe('chooseOpening (semantic door detection)', () => {
  const left = doorAt(-1),
    right = doorAt(1.5);
  const all = [left, back(left), right, back(right)];

  it('picks the door the gaze passes through, among neighbours and their back faces', () => {
    const viewer: Vec3 = [0, 1.6, 3];
    const toRight = [1.5 - 0, 1.05 - 1.6, -3];
    const chosen = chooseOpening(all, viewer, toRight);
    expect(chosen.candidate).toBe(2);
    expect(chosen.opening.width).toBeCloseTo(0.9, 9);
    expect(chosen.confidence).toBeGreaterThan(0.8);
    expect(chooseOpening(all, viewer, [-1, 1.05 - 1.6, -3]).candidate).toBe(0);
  });

  it('from the other room it picks the back face, with the normal toward that viewer', () => {
    const chosen = chooseOpening(all, [1.5, 1.6, -3], [0, -0.5, 3]);
    expect(chosen.candidate).toBe(3);
    expect(chosen.opening.wallNormal).toEqual([0, 0, -1]);
  });

  it('of two openings in line, picks the one aimed at; when aimed at alike, the nearer', () => {
    const near = doorAt(0),
      far: OpeningCandidate = {
        ...doorAt(0),
        corners: doorAt(0).corners.map((c) => [c[0], c[1], -4] as Vec3) as OpeningCandidate['corners'],
      };
    // Looking through the near door at the far door's centre: the far one is meant.
    expect(chooseOpening([near, far], [0, 1.6, 3], [0, 1.05 - 1.6, -7]).candidate).toBe(1);
    // Looking level through both centres' line (same angle to both): the nearer one.
    const level: Vec3 = [0, 1.05, 3];
    expect(chooseOpening([far, near], level, [0, 0, -1]).candidate).toBe(1);
    expect(chooseOpening([near, far], level, [0, 0, -1]).candidate).toBe(0);
  });

  it('is the same for z-up input', () => {
    const y = chooseOpening(all, [0, 1.6, 3], [1.5, -0.55, -3]);
    const z = chooseOpening(all, zUp([0, 1.6, 3]), zUp([1.5, -0.55, -3]), { coordinateSystem: 'z-up' });
    expect(z.candidate).toBe(y.candidate);
  });

  it('finds a random door from a random viewpoint in front of it, looking at its centre', () => {
    fc.assert(
      fc.property(door, fc.double({ min: 1, max: 6, noNaN: true }), fc.double({ min: -40, max: 40, noNaN: true }), (d, dist, sideDeg) => {
        const { corners, normal } = doorCorners(d);
        const centre = corners.reduce<number[]>((s, c) => s.map((v, k) => v + c[k]! / 4), [0, 0, 0]) as Vec3;
        const a = (sideDeg * Math.PI) / 180;
        const right: Vec3 = [normal[2], 0, -normal[0]];
        const viewer: Vec3 = [
          centre[0] + dist * (Math.cos(a) * normal[0] + Math.sin(a) * right[0]),
          corners[0]![1] + 1.6,
          centre[2] + dist * (Math.cos(a) * normal[2] + Math.sin(a) * right[2]),
        ];
        const chosen = chooseOpening(
          [{ corners: corners as OpeningCandidate['corners'], normal }],
          viewer,
          centre.map((v, k) => v - viewer[k]!),
        );
        expectClose(chosen.opening.corners.flat(), corners.flat(), 1e-9);
      }),
      { numRuns: 200 },
    );
  });

  it('fails with a reason the client can act on', () => {
    expect(failure(() => chooseOpening([], [0, 1.6, 3], [0, 0, -1])).problems[0]!.message).toMatch(/no door openings/);
    expect(failure(() => chooseOpening([left], [0, 1.6, -3], [0, 0, 1])).problems[0]!.message).toMatch(/faces the viewer/);
    const off = failure(() => chooseOpening(all, [0, 1.6, 3], [1, 0, 0.2]));
    expect(off).toBeInstanceOf(DoorNotFoundError);
    expect(off.problems[0]!.message).toMatch(/within 25° of the gaze/);
    expect(off.field).toBe('alignment.point_2');
  });

  it('refuses unusable viewer or gaze input, naming the field', () => {
    const err = failure(() => chooseOpening(all, [0, NaN, 3], [0, 0, 0]));
    expect(err).toBeInstanceOf(GeometryValidationError);
    expect(err.problems.map((p) => p.field)).toEqual(['alignment.point_1', 'alignment.point_2']);
  });
});
