import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { vec3 as glv, mat4 as glm } from 'gl-matrix';
import { fromYUp, toYUp, yUpToZUp, yUpToZUpMat4, yUpToZUpQuat, zUpToYUp, zUpToYUpMat4, zUpToYUpQuat, type Vec3 } from '../src/index.js';
import { expectClose, unitQuat, vec3 } from './arbitraries.js';

const Y = (v: readonly number[]) => zUpToYUp([0, 0, 0], v as Vec3);

describe('z-up ↔ y-up', () => {
  it('maps the worked example (1, 2, 3) → (1, 3, −2) and back', () => {
    expect(zUpToYUp([0, 0, 0], [1, 2, 3])).toEqual([1, 3, -2]);
    expect(yUpToZUp([0, 0, 0], [1, 3, -2])).toEqual([1, 2, 3]);
    // Z-up "up" becomes Y-up "up"; z-up "north" (+y) becomes y-up −z (ARKit's forward).
    expect(zUpToYUp([0, 0, 0], [0, 0, 1])).toEqual([0, 1, -0]);
    expect(zUpToYUp([0, 0, 0], [0, 1, 0])).toEqual([0, 0, -1]);
  });

  it('round-trips any vector exactly', () => {
    fc.assert(
      fc.property(vec3(1e7), (v) => {
        expect(yUpToZUp([0, 0, 0], zUpToYUp([0, 0, 0], v))).toEqual(v);
        expect(fromYUp([0, 0, 0], toYUp([0, 0, 0], v, 'z-up'), 'z-up')).toEqual(v);
        expect(toYUp([0, 0, 0], v, 'y-up')).toEqual(v);
      }),
    );
  });

  it('is a proper rotation: lengths kept, cross products preserved, determinant +1', () => {
    fc.assert(
      fc.property(vec3(), vec3(), (a, b) => {
        expectClose([glv.length(Y(a))], [glv.length(a)], 1e-12);
        expectClose(Y(glv.cross([0, 0, 0], a, b) as Vec3), glv.cross([0, 0, 0], Y(a), Y(b)), 1e-9);
      }),
    );
    const m = [Y([1, 0, 0]), Y([0, 1, 0]), Y([0, 0, 1])];
    const det = glv.dot(m[0]!, glv.cross([0, 0, 0], m[1]!, m[2]!));
    expect(det).toBe(1);
  });

  it('turns quaternions with the frame: rotate-then-convert equals convert-then-rotate', () => {
    fc.assert(
      fc.property(unitQuat, vec3(100), (q, v) => {
        const qy = zUpToYUpQuat([0, 0, 0, 1], q);
        expectClose(Y(glv.transformQuat([0, 0, 0], v, q) as Vec3), glv.transformQuat([0, 0, 0], Y(v), qy), 1e-9);
        expectClose(yUpToZUpQuat([0, 0, 0, 1], qy), q, 0);
      }),
    );
  });

  it('turns 4×4 transforms as M·T·M⁻¹ and round-trips them', () => {
    fc.assert(
      fc.property(unitQuat, vec3(1e5), vec3(100), (q, t, p) => {
        const T = glm.fromRotationTranslation(new Float64Array(16), q, t) as Float64Array;
        const Ty = zUpToYUpMat4(new Float64Array(16), T);
        expectClose(Y(glv.transformMat4([0, 0, 0], p, T) as Vec3), glv.transformMat4([0, 0, 0], Y(p), Ty), 1e-9);
        expectClose(yUpToZUpMat4(new Float64Array(16), Ty), T, 0);
        // The rotation part keeps determinant +1.
        expectClose([glm.determinant(Ty)], [1], 1e-9);
      }),
    );
  });

  it('converts a z-up translation matrix by hand', () => {
    const t = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1]);
    const y = zUpToYUpMat4(new Float64Array(16), t);
    expect(Array.from(y.slice(12, 15))).toEqual([1, 3, -2]);
    // A z-up rotation of 90° about Z (x→y) becomes a rotation of 90° about Y in y-up: x → −z.
    const rz = glm.fromZRotation(new Float64Array(16), Math.PI / 2) as Float64Array;
    const ry = zUpToYUpMat4(new Float64Array(16), rz);
    expectClose(glv.transformMat4([0, 0, 0], [1, 0, 0], ry), [0, 0, -1], 1e-15);
    // The same rotation as a quaternion: 90° about +Z in z-up is 90° about +Y in y-up.
    expect(zUpToYUpQuat([0, 0, 0, 1], [0, 0, Math.SQRT1_2, Math.SQRT1_2])).toEqual([0, Math.SQRT1_2, -0, Math.SQRT1_2]);
  });
});
