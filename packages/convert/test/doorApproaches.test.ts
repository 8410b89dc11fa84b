import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { doorApproaches, type DoorOpeningRecord } from '../src/index.js';
import type { Vec3 } from '@arsession/geometry';

/** A door opening of `width` × `height` in a vertical wall facing `angle`, its sill at `sill`, centred at (x, z). */
const opening = fc
  .record({
    x: fc.double({ min: -1e4, max: 1e4, noNaN: true }),
    z: fc.double({ min: -1e4, max: 1e4, noNaN: true }),
    sill: fc.double({ min: -50, max: 50, noNaN: true }),
    width: fc.double({ min: 0.5, max: 3, noNaN: true }),
    height: fc.double({ min: 1.8, max: 3, noNaN: true }),
    angle: fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
    offset: fc.tuple(
      fc.double({ min: -1e5, max: 1e5, noNaN: true }),
      fc.double({ min: -100, max: 100, noNaN: true }),
      fc.double({ min: -1e5, max: 1e5, noNaN: true }),
    ),
  })
  .map(({ x, z, sill, width, height, angle, offset }) => {
    const normal: Vec3 = [Math.cos(angle), 0, Math.sin(angle)];
    // The right hand of a viewer facing the wall (looking along −normal): (−normal) × up.
    const right: Vec3 = [normal[2], 0, -normal[0]];
    const at = (s: number, h: number): Vec3 => [x + right[0] * s, sill + h, z + right[2] * s];
    const record = {
      door: { expressId: 1, ifcClass: 'IfcDoor', globalId: 'd', name: 'door' },
      width,
      height,
      thickness: 0.2,
      faces: [{ corners: [at(-width / 2, 0), at(width / 2, 0), at(width / 2, height), at(-width / 2, height)], normal }],
    } as DoorOpeningRecord;
    return {
      record,
      offset: offset as Vec3,
      centre: [x + offset[0], sill + height / 2 + offset[1], z + offset[2]] as Vec3,
      sill: sill + offset[1],
    };
  });

describe('doorApproaches', () => {
  it("stands the viewer in front of the face at eye height, looking at its centre, in the model's own frame", () => {
    fc.assert(
      fc.property(opening, fc.double({ min: 0.5, max: 5, noNaN: true }), ({ record, offset, centre, sill }, distance) => {
        const [a] = doorApproaches(record, offset, { distance });
        const n = record.faces[0]!.normal;
        // Rounded to the millimetre, each number within half of it (and float sums of large offsets).
        for (let k = 0; k < 3; k++) expect(Math.abs(a!.viewer[k]! + a!.gaze[k]! - centre[k]!)).toBeLessThan(2e-3);
        expect(Math.abs(a!.viewer[1]! - (sill + 1.6))).toBeLessThan(1e-3);
        const ahead = (a!.viewer[0]! - centre[0]) * n[0] + (a!.viewer[2]! - centre[2]) * n[2];
        expect(Math.abs(ahead - distance)).toBeLessThan(2e-3);
        expect(a!.wallNormal).toEqual(n.map((v) => Math.round(v * 1000) / 1000 + 0));
      }),
    );
  });

  it('gives the same numbers Z-up as a BIM tool shows them: (x, y, z) Y-up is (x, −z, y)', () => {
    fc.assert(
      fc.property(opening, ({ record, offset }) => {
        const [y] = doorApproaches(record, offset);
        const [z] = doorApproaches(record, offset, { coordinateSystem: 'z-up' });
        const zUp = (v: Vec3) => [v[0], -v[2] + 0, v[1]];
        expect(z!.viewer).toEqual(zUp(y!.viewer));
        expect(z!.gaze).toEqual(zUp(y!.gaze));
        expect(z!.wallNormal).toEqual(zUp(y!.wallNormal));
        z!.corners.forEach((c, i) => expect(c).toEqual(zUp(y!.corners[i]!)));
      }),
    );
  });

  it('stands where the face says mode 1 works from, when it says', () => {
    const { record, offset, centre } = fc.sample(opening, { numRuns: 1, seed: 7 })[0]!;
    const near = { ...record, faces: [{ ...record.faces[0]!, viewerDistance: 0.8 }] };
    const [a] = doorApproaches(near, offset);
    expect(Math.hypot(a!.viewer[0]! - centre[0], a!.viewer[2]! - centre[2])).toBeCloseTo(0.8, 2);
  });
});
