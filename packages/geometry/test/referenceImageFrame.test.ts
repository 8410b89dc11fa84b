import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { vec3 as glv } from 'gl-matrix';
import { AnchorValidationError, poseAxis, referenceImageFrame } from '../src/index.js';
import { expectClose, unitVec3, vec3, zUp } from './arbitraries.js';

const normalAndUp = fc.tuple(unitVec3, unitVec3).filter(([n, u]) => Math.abs(glv.dot(n, u)) < Math.cos((15 * Math.PI) / 180));

describe('referenceImageFrame', () => {
  it('is ARKit’s image-anchor frame: y along the normal, x to the image’s right, z toward its bottom', () => {
    const f = referenceImageFrame({ center: [1, 1.5, 2], normal: [0, 0, 1], up: [0, 1, 0], physicalWidth: 0.3 });
    expectClose(f.pose.position, [1, 1.5, 2]);
    expectClose(poseAxis([0, 0, 0], f.pose, 0), [1, 0, 0]);
    expectClose(poseAxis([0, 0, 0], f.pose, 1), [0, 0, 1]);
    expectClose(poseAxis([0, 0, 0], f.pose, 2), [0, -1, 0]);
    expectClose(f.pose.rotation, [Math.SQRT1_2, 0, 0, Math.SQRT1_2]);
    expect(f.physicalWidth).toBe(0.3);
  });

  it('property: a right-handed orthonormal frame, y = normal, −z = the in-plane up', () => {
    fc.assert(
      fc.property(vec3(100), normalAndUp, fc.double({ min: 0.01, max: 5, noNaN: true }), (c, [n, u], w) => {
        const f = referenceImageFrame({ center: c, normal: n, up: u, physicalWidth: w });
        const x = poseAxis([0, 0, 0], f.pose, 0),
          y = poseAxis([0, 0, 0], f.pose, 1),
          z = poseAxis([0, 0, 0], f.pose, 2);
        expectClose(y, n, 1e-9);
        expectClose(glv.cross([0, 0, 0], x, y), z, 1e-9);
        const inPlaneUp = glv.normalize([0, 0, 0], glv.scaleAndAdd([0, 0, 0], u, n, -glv.dot(u, n)));
        expectClose(z, glv.negate([0, 0, 0], inPlaneUp), 1e-9);
      }),
    );
  });

  it('turns z-up input the same way as every other client coordinate', () => {
    const y = referenceImageFrame({ center: [1, 2, 3], normal: [0, 0, 1], up: [0, 1, 0], physicalWidth: 0.2 });
    const z = referenceImageFrame(
      { center: zUp([1, 2, 3]), normal: zUp([0, 0, 1]), up: zUp([0, 1, 0]), physicalWidth: 0.2 },
      { coordinateSystem: 'z-up' },
    );
    expectClose(z.pose.matrix, y.pose.matrix, 1e-12);
  });

  it('names every bad field under reference_image', () => {
    try {
      referenceImageFrame({ center: [0, 0], normal: [0, 0, 0], up: [0, 1, 0], physicalWidth: -1 });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AnchorValidationError);
      const fields = (err as AnchorValidationError).problems.map((p) => p.field).sort();
      expect(fields).toEqual(['reference_image.center', 'reference_image.normal', 'reference_image.physical_width']);
    }
  });

  it('refuses an up direction along the normal', () => {
    expect(() => referenceImageFrame({ center: [0, 0, 0], normal: [0, 0, 1], up: [0, 0.01, 1], physicalWidth: 0.2 })).toThrow(
      /reference_image\.up/,
    );
  });
});
