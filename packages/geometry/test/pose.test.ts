import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { vec3 as glv } from 'gl-matrix';
import {
  composePoses,
  createPose,
  IDENTITY_POSE,
  invertPose,
  poseFromMatrix,
  poseFromYUp,
  poseToYUp,
  transformDirection,
  transformPoint,
  zUpToYUp,
} from '../src/index.js';
import { expectClose, unitQuat, vec3 } from './arbitraries.js';

const pose = fc.tuple(vec3(1e3), unitQuat).map(([t, q]) => createPose(t, q));

describe('Pose', () => {
  it('worked example: 90° about +Y at x = 1 sends (1, 0, 0) to (1, 0, −1)', () => {
    const p = createPose([1, 0, 0], [0, Math.SQRT1_2, 0, Math.SQRT1_2]);
    expectClose(transformPoint([0, 0, 0], p, [1, 0, 0]), [1, 0, -1], 1e-15);
    expectClose(transformDirection([0, 0, 0], p, [1, 0, 0]), [0, 0, -1], 1e-15);
    expect(Array.from(p.matrix.slice(12))).toEqual([1, 0, 0, 1]);
  });

  it('normalises the quaternion and keeps w ≥ 0', () => {
    const p = createPose([0, 0, 0], [0, 0, 0, -2]);
    expect(p.rotation).toEqual([-0, -0, -0, 1]);
    expect(() => createPose([0, 0, 0], [0, 0, 0, 0])).toThrow(RangeError);
  });

  it('matrix, position and rotation agree', () => {
    fc.assert(
      fc.property(pose, vec3(100), (p, v) => {
        expectClose(transformPoint([0, 0, 0], p, v), glv.transformMat4([0, 0, 0], v, p.matrix), 1e-9);
      }),
    );
  });

  it('compose applies b then a; invert undoes', () => {
    fc.assert(
      fc.property(pose, pose, vec3(100), (a, b, v) => {
        const ab = composePoses(a, b);
        expectClose(transformPoint([0, 0, 0], ab, v), transformPoint([0, 0, 0], a, transformPoint([0, 0, 0], b, v)), 1e-9);
        const id = composePoses(invertPose(a), a);
        expectClose(id.position, [0, 0, 0], 1e-9);
        expectClose(id.rotation, IDENTITY_POSE.rotation, 1e-9);
      }),
    );
  });

  it('directions never translate', () => {
    fc.assert(
      fc.property(pose, vec3(10), (p, d) => {
        const moved = createPose([p.position[0] + 5, p.position[1], p.position[2]], p.rotation);
        expectClose(transformDirection([0, 0, 0], p, d), transformDirection([0, 0, 0], moved, d), 1e-12);
      }),
    );
  });

  it('round-trips through its matrix', () => {
    fc.assert(
      fc.property(pose, (p) => {
        const q = poseFromMatrix(p.matrix);
        expectClose(q.position, p.position, 1e-12);
        // q and −q are one rotation; at w ≈ 0 the canonical sign can flip on rounding.
        const dot = q.rotation.reduce((s, v, i) => s + v * p.rotation[i]!, 0);
        expect(Math.abs(dot)).toBeCloseTo(1, 9);
      }),
    );
  });

  it('picks one sign for equal rotations', () => {
    expect(createPose([0, 0, 0], [0, -1, 0, 0]).rotation).toEqual([-0, 1, -0, -0]);
    expect(createPose([0, 0, 0], [0.5, 0.5, 0.5, -0.5]).rotation).toEqual([-0.5, -0.5, -0.5, 0.5]);
  });

  it('refuses a matrix with scale or a mirror', () => {
    expect(() => poseFromMatrix([2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])).toThrow(/not a rigid/);
    expect(() => poseFromMatrix([-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])).toThrow(/not a rigid/);
  });

  it('a z-up pose re-expressed in y-up moves points the same way', () => {
    fc.assert(
      fc.property(pose, vec3(100), (pz, v) => {
        const py = poseToYUp(pz, 'z-up');
        expectClose(zUpToYUp([0, 0, 0], transformPoint([0, 0, 0], pz, v)), transformPoint([0, 0, 0], py, zUpToYUp([0, 0, 0], v)), 1e-9);
        expectClose(poseFromYUp(py, 'z-up').matrix, pz.matrix, 1e-12);
      }),
    );
  });
});
