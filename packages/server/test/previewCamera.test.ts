// The session page's preview starts looking at the placement from the side it is seen from.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { previewCamera } from '../src/page/previewCamera.js';
import type { PlacementOnWire } from '../src/records/Placement.js';

/** The direction from the target to model-viewer's camera, for its theta and phi. */
function cameraDirection(thetaDeg: number, phiDeg: number): number[] {
  const [t, p] = [(thetaDeg * Math.PI) / 180, (phiDeg * Math.PI) / 180];
  return [Math.sin(p) * Math.sin(t), Math.cos(p), Math.sin(p) * Math.cos(t)];
}
const dot = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i]!, 0);
const pose = { position: [0, 0, 0], rotation: [0, 0, 0, 1], matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] };
const coordinate = fc.double({ min: -50, max: 50, noNaN: true });
const azimuth = fc.double({ min: -Math.PI, max: Math.PI, noNaN: true });

describe('previewCamera', () => {
  it("looks at a door opening's centre from the viewer's side of its wall, level but for a slight look down", () => {
    fc.assert(
      fc.property(azimuth, coordinate, coordinate, (a, x, z) => {
        const normal = [Math.sin(a), 0, Math.cos(a)];
        const right = [normal[2]!, 0, -normal[0]!];
        const bl = [x - 0.45 * right[0]!, 0, z - 0.45 * right[2]!];
        const tr = [x + 0.45 * right[0]!, 2.1, z + 0.45 * right[2]!];
        const placement = {
          method: 'by_scan',
          found: 'given',
          corners: [bl, [0, 0, 0], tr, [0, 0, 0]],
          wall_normal: normal,
          width: 0.9,
          height: 2.1,
          frame: pose,
          quick_look: null,
        } as PlacementOnWire;
        const camera = previewCamera(placement)!;
        expect(camera.target[0]).toBeCloseTo(x, 6);
        expect(camera.target[1]).toBeCloseTo(1.05, 6);
        expect(camera.target[2]).toBeCloseTo(z, 6);
        const seen = cameraDirection(camera.thetaDeg, camera.phiDeg);
        expect(dot(seen, normal)).toBeGreaterThan(0.95);
        expect(seen[1]).toBeGreaterThan(0);
      }),
    );
  });

  it('looks at a reference image from in front of its face, whichever way it faces', () => {
    fc.assert(
      fc.property(
        fc.tuple(coordinate, coordinate, coordinate).filter((n) => Math.hypot(...n) > 1e-3),
        (n) => {
          const length = Math.hypot(...n);
          const normal = n.map((v) => v / length);
          const matrix = [...pose.matrix];
          [matrix[4], matrix[5], matrix[6]] = normal as [number, number, number];
          const placement = {
            method: 'by_refimage',
            pose: { ...pose, position: [1, 2, 3], matrix },
            physical_width: 0.3,
            correction_deg: 0,
            image_url: 'http://x/i.png',
            quick_look: null,
          } as PlacementOnWire;
          const camera = previewCamera(placement)!;
          expect(camera.target).toEqual([1, 2, 3]);
          expect(dot(cameraDirection(camera.thetaDeg, camera.phiDeg), normal)).toBeGreaterThan(0.8);
          expect(camera.phiDeg).toBeGreaterThanOrEqual(22.5);
          expect(camera.phiDeg).toBeLessThanOrEqual(157.5);
        },
      ),
    );
  });

  it('looks at an image tilted well below level from below, not edge-on', () => {
    const m = [...pose.matrix];
    [m[4], m[5], m[6]] = [-0.504, -0.864, 0];
    const camera = previewCamera({
      method: 'by_refimage',
      pose: { ...pose, matrix: m },
      physical_width: 0.3,
      correction_deg: 0,
      image_url: 'http://x/i.png',
      quick_look: null,
    } as PlacementOnWire)!;
    expect(camera.thetaDeg).toBe(-90);
    expect(camera.phiDeg).toBeGreaterThan(140);
    expect(dot(cameraDirection(camera.thetaDeg, camera.phiDeg), [-0.504, -0.864, 0])).toBeGreaterThan(0.95);
  });

  it("leaves a plane or an anchor to model-viewer's framing of the whole model", () => {
    expect(previewCamera({ method: 'by_plane', anchor: pose, quick_look: null } as PlacementOnWire)).toBeUndefined();
  });
});
