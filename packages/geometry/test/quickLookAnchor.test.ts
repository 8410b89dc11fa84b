import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { angle, unitVec3, vec3 } from './arbitraries.js';
import { frameFromNormalAndForward, poseAxis, quickLookAnchor, referenceImageFrame, type Pose, type Vec3 } from '../src/index.js';

const axis = (p: Pose, i: 0 | 1 | 2) => poseAxis([0, 0, 0], p, i);
const dot = (a: number[], b: number[]) => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
const point = vec3(100);
/** A normal near level or near upright as often as anywhere else: each case of the rule is met. */
const tilted = (max: number) =>
  fc
    .tuple(angle, fc.double({ min: 0, max, noNaN: true }))
    .map(([yaw, t]): Vec3 => [Math.sin(t) * Math.sin(yaw), Math.cos(t), Math.sin(t) * Math.cos(yaw)]);
const normal = fc.oneof(
  unitVec3,
  tilted(Math.PI / 12),
  tilted(Math.PI)
    .map(([x, y, z]): Vec3 => [x, y * 0.3, z])
    .map(([x, y, z]): Vec3 => {
      const l = Math.hypot(x, y, z);
      return [x / l, y / l, z / l];
    }),
);

/** A virtual anchor's frame (y = normal, x = a direction in its plane), as the anchor builders make it. */
const surface = fc
  .tuple(point, normal, unitVec3)
  .map(([origin, normal, forward]) => frameFromNormalAndForward(origin, normal, forward, 'f', [])?.pose)
  .filter((p): p is Pose => p !== undefined);

describe('quickLookAnchor', () => {
  it('a floor point: a horizontal plane there, +Y up', () => {
    const a = quickLookAnchor({ kind: 'floor', origin: [1, 0.5, -2] });
    expect(a).toMatchObject({ type: 'plane', alignment: 'horizontal', frame: { position: [1, 0.5, -2], rotation: [0, 0, 0, 1] } });
  });

  it('a wall: a vertical plane, +Y the wall normal, +X level to the right facing it, +Z down (a door: its own x is that right)', () => {
    fc.assert(
      fc.property(
        point,
        fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        fc.double({ min: -0.2, max: 0.2, noNaN: true }),
        (origin, yaw, lean) => {
          const normal: Vec3 = [Math.sin(yaw), lean, Math.cos(yaw)];
          const a = quickLookAnchor({ kind: 'wall', origin, normal });
          if (a.type !== 'plane') throw new Error(a.type);
          expect(a.alignment).toBe('vertical');
          const [x, y, z] = [axis(a.frame, 0), axis(a.frame, 1), axis(a.frame, 2)];
          expect(y[0]).toBeCloseTo(Math.sin(yaw), 9);
          expect(y[2]).toBeCloseTo(Math.cos(yaw), 9);
          expect(x[1]).toBeCloseTo(0, 9);
          z.forEach((v, k) => expect(v).toBeCloseTo([0, -1, 0][k]!, 9));
          // Right as one faces the wall (looking along −normal): up × normal, the door frame's x.
          expect(dot(x, [Math.cos(yaw), 0, -Math.sin(yaw)])).toBeCloseTo(1, 9);
          a.frame.position.forEach((v, k) => expect(v).toBeCloseTo(origin[k]!, 12));
        },
      ),
    );
  });

  it('a surface: horizontal within the tolerance of level, vertical within it of upright, none between or facing down', () => {
    fc.assert(
      fc.property(surface, (pose) => {
        const tilt = (Math.acos(Math.max(-1, Math.min(1, axis(pose, 1)[1]))) * 180) / Math.PI;
        const a = quickLookAnchor({ kind: 'surface', pose });
        if (tilt <= 10) {
          expect(a).toMatchObject({ type: 'plane', alignment: 'horizontal' });
          if (a.type !== 'plane') return;
          axis(a.frame, 1).forEach((v, k) => expect(v).toBeCloseTo([0, 1, 0][k]!, 9));
          // Turned as the anchor is: its +X keeps the anchor's direction, laid level.
          const x = axis(pose, 0),
            level = Math.hypot(x[0], x[2]);
          if (level > 1e-6) expect(dot(axis(a.frame, 0), [x[0] / level, 0, x[2] / level])).toBeCloseTo(1, 9);
        } else if (Math.abs(tilt - 90) <= 10) {
          expect(a).toMatchObject({ type: 'plane', alignment: 'vertical' });
          if (a.type === 'plane') axis(a.frame, 2).forEach((v, k) => expect(v).toBeCloseTo([0, -1, 0][k]!, 9));
        } else {
          expect(a.type).toBe('none');
          if (a.type === 'none') expect(a.reason).toMatch(tilt >= 170 ? /faces down/ : /tilted [\d.]+° from level/);
        }
        if (a.type === 'plane') a.frame.position.forEach((v, k) => expect(v).toBeCloseTo(pose.position[k]!, 12));
      }),
      { numRuns: 500 },
    );
  });

  it("an image: the image frame itself, in ARKit's image-anchor convention", () => {
    const image = referenceImageFrame({ center: [0, 1.5, 0], normal: [0, 0, 1], up: [0, 1, 0], physicalWidth: 0.3 });
    const a = quickLookAnchor({ kind: 'image', pose: image.pose });
    expect(a).toEqual({ type: 'image', frame: image.pose });
  });
});
