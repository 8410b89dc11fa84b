// What the session page's preview draws of a placement: marks near the model, none for one so far
// away that drawing it would frame a view in which the model is a speck.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placementOutOfView, placementOverlay } from '../src/page/placementOverlay.js';
import type { Bounds } from '@arsession/geometry';
import type { Placement } from '../src/records/Placement.js';

const pose = (position: number[]) => ({ position, rotation: [0, 0, 0, 1], matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, ...position, 1] });
const circleAt = (position: number[]): Placement =>
  ({ method: 'by_virtual_anchor', anchor_type: 'circle_directional', radius: 0.5, pose: pose(position), correction_deg: 0 }) as Placement;
const house: Bounds = { min: [-5, 0, -4], max: [5, 7, 4] };
const diagonal = Math.hypot(10, 7, 8);

describe('placementOutOfView', () => {
  it("is the distance outside the bounds exactly when it passes the larger of 10 m and the bounds' diagonal", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e7, noNaN: true }), fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }), (d, a) => {
        // A point d outside the house's side at x = 5, anywhere along it.
        const at = [5 + d, 3.5, 4 * Math.sin(a)];
        const far = placementOutOfView(circleAt(at), house);
        if (d > Math.max(10, diagonal) * (1 + 1e-12)) expect(far).toBeCloseTo(d, 6);
        else if (d < Math.max(10, diagonal) * (1 - 1e-12)) expect(far).toBeUndefined();
      }),
    );
  });

  it('never holds a by_plane placement away: it stands on the model', () => {
    expect(placementOutOfView({ method: 'by_plane', anchor: pose([0, 0, 0]) }, house)).toBeUndefined();
  });
});

describe('placementOverlay', () => {
  it('draws an anchor near the model, and nothing for one out of view', () => {
    const near = placementOverlay(circleAt([0, 0, 6]), { bounds: house });
    expect(near.lines.length).toBeGreaterThan(0);
    expect(near.arrows).toHaveLength(3);
    const far = placementOverlay(circleAt([1e7, 0, 0]), { bounds: house });
    expect([far.lines, far.arrows, far.quads]).toEqual([[], [], []]);
  });

  it("draws a by_plane footprint outside the model's foot and just below it, outline and sheet", () => {
    const shapes = placementOverlay({ method: 'by_plane', anchor: pose([0, 0, 0]) }, { bounds: house });
    const [sheet] = shapes.quads;
    expect(sheet!.opacity).toBeGreaterThan(0);
    for (const c of sheet!.corners) {
      expect(c[1]).toBeLessThan(house.min[1]!);
      expect(Math.abs(c[0]) > 5 && Math.abs(c[2]) > 4).toBe(true);
    }
  });
});
