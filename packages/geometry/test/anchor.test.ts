import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { vec3 as glv } from 'gl-matrix';
import {
  AnchorValidationError,
  circleDirectionalFrame,
  cornerDirectionalFrame,
  rectangleShortSideFrame,
  segmentDirectionalFrame,
  type Pose,
} from '../src/index.js';
import { expectClose, unitVec3, vec3, zUp } from './arbitraries.js';

function axes(p: Pose) {
  const m = p.matrix;
  return { x: [m[0]!, m[1]!, m[2]!], y: [m[4]!, m[5]!, m[6]!], z: [m[8]!, m[9]!, m[10]!] };
}

function expectRightHandedOrthonormal(p: Pose) {
  const { x, y, z } = axes(p);
  for (const a of [x, y, z]) expect(glv.length(a as never)).toBeCloseTo(1, 9);
  expect(glv.dot(x as never, y as never)).toBeCloseTo(0, 9);
  expect(glv.dot(y as never, z as never)).toBeCloseTo(0, 9);
  expect(glv.dot(x as never, z as never)).toBeCloseTo(0, 9);
  expectClose(glv.cross([0, 0, 0], x as never, y as never), z, 1e-9);
}

function problemsOf(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AnchorValidationError);
    return (err as AnchorValidationError).problems;
  }
  throw new Error('expected an AnchorValidationError');
}

/** A direction at least 15° away from the normal (so it is accepted). */
const normalAndForward = fc.tuple(unitVec3, unitVec3).filter(([n, f]) => Math.abs(glv.dot(n, f)) < Math.cos((15 * Math.PI) / 180));

describe('anchor frames: properties', () => {
  it('every kind yields an orthonormal right-handed frame with y along the normal', () => {
    fc.assert(
      fc.property(vec3(100), normalAndForward, unitVec3, (c, [n, f], g) => {
        const frames = [
          rectangleShortSideFrame({ center: c, width: 1, height: 2, planeNormal: n, shortSideDirection: f }).pose,
          segmentDirectionalFrame({ segmentPoint1: c, segmentPoint2: glv.scaleAndAdd([0, 0, 0], c, f, 2) as never, planeNormal: n }).pose,
          circleDirectionalFrame({ center: c, radius: 0.5, planeNormal: n, direction: f }).pose,
        ];
        const inPlaneG = glv.normalize([0, 0, 0], glv.scaleAndAdd([0, 0, 0], g, n, -glv.dot(g, n)));
        const inPlaneF = glv.normalize([0, 0, 0], glv.scaleAndAdd([0, 0, 0], f, n, -glv.dot(f, n)));
        const cosFG = glv.dot(inPlaneF, inPlaneG);
        if (Math.abs(glv.dot(n, g)) < Math.cos((15 * Math.PI) / 180) && Math.abs(cosFG) < Math.cos((10 * Math.PI) / 180)) {
          frames.push(cornerDirectionalFrame({ corner: c, edge1Direction: f, edge2Direction: g, planeNormal: n }).pose);
        }
        for (const p of frames) {
          expectRightHandedOrthonormal(p);
          expectClose(axes(p).y, n, 1e-9);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the correction angle is the angle between the given and the used direction', () => {
    fc.assert(
      fc.property(normalAndForward, ([n, f]) => {
        const a = circleDirectionalFrame({ center: [0, 0, 0], radius: 1, planeNormal: n, direction: f });
        const used = axes(a.pose).x;
        const angle = (Math.atan2(glv.length(glv.cross([0, 0, 0], used as never, f)), glv.dot(used as never, f)) * 180) / Math.PI;
        expect(a.correctionDeg).toBeCloseTo(angle, 6);
      }),
    );
  });

  it('z-up input gives the same frame as the same anchor in y-up', () => {
    fc.assert(
      fc.property(vec3(100), normalAndForward, (c, [n, f]) => {
        const y = circleDirectionalFrame({ center: c, radius: 1, planeNormal: n, direction: f });
        const z = circleDirectionalFrame(
          { center: zUp(c), radius: 1, planeNormal: zUp(n), direction: zUp(f) },
          { coordinateSystem: 'z-up' },
        );
        expectClose(z.pose.matrix, y.pose.matrix, 1e-9);
      }),
    );
  });
});

describe('anchor frames: worked examples', () => {
  it('rectangle on the floor, short side along +x: identity rotation at the centre', () => {
    const f = rectangleShortSideFrame({
      center: [1, 0, 2],
      width: 0.6,
      height: 1.2,
      planeNormal: [0, 1, 0],
      shortSideDirection: [1, 0, 0],
    });
    expect(f.pose.position).toEqual([1, 0, 2]);
    expectClose(f.pose.rotation, [0, 0, 0, 1], 1e-15);
    expect(f.correctionDeg).toBe(0);
    expect([f.width, f.height]).toEqual([0.6, 1.2]);
  });

  it('segment on a wall facing +z from (0,1,0) to (0,2,0): x up, y = +z, z = x × y = +x', () => {
    const f = segmentDirectionalFrame({ segmentPoint1: [0, 1, 0], segmentPoint2: [0, 2, 0], planeNormal: [0, 0, 1] });
    expectClose(f.pose.position, [0, 1.5, 0], 1e-15);
    const { x, y, z } = axes(f.pose);
    expectClose(x, [0, 1, 0], 1e-15);
    expectClose(y, [0, 0, 1], 1e-15);
    expectClose(z, [1, 0, 0], 1e-15);
    expect(f.length).toBe(1);
    expect(f.placementSource).toBe('model_surface');
  });

  it('circle with a direction lifted 45° out of the plane reports a 45° correction', () => {
    const f = circleDirectionalFrame({ center: [0, 0, 0], radius: 0.3, planeNormal: [0, 1, 0], direction: [1, 1, 0] });
    expect(f.correctionDeg).toBeCloseTo(45, 12);
    expectClose(axes(f.pose).x, [1, 0, 0], 1e-15);
  });

  it('corner with edges +x and +z: x along the bisector (1, 0, 1)/√2', () => {
    const f = cornerDirectionalFrame({ corner: [0, 0, 0], edge1Direction: [1, 0, 0], edge2Direction: [0, 0, 1], planeNormal: [0, 1, 0] });
    expectClose(axes(f.pose).x, [Math.SQRT1_2, 0, Math.SQRT1_2], 1e-15);
    expect(f.openingAngleDeg).toBeCloseTo(90, 12);
  });
});

describe('anchor frames: one test per problem', () => {
  const rect = { center: [0, 0, 0], width: 1, height: 2, planeNormal: [0, 1, 0], shortSideDirection: [1, 0, 0] };
  it('zero size', () => {
    const p = problemsOf(() => rectangleShortSideFrame({ ...rect, width: 0 }));
    expect(p.map((x) => [x.field, x.code])).toEqual([['virtual_anchor.width', 'not_positive']]);
  });
  it('negative radius and non-finite size', () => {
    expect(
      problemsOf(() => circleDirectionalFrame({ center: [0, 0, 0], radius: -1, planeNormal: [0, 1, 0], direction: [1, 0, 0] }))[0]!.code,
    ).toBe('not_positive');
    expect(problemsOf(() => rectangleShortSideFrame({ ...rect, height: NaN }))[0]!.code).toBe('non_finite');
  });
  it('zero normal', () => {
    const p = problemsOf(() => rectangleShortSideFrame({ ...rect, planeNormal: [0, 0, 0] }));
    expect(p.map((x) => [x.field, x.code])).toEqual([['virtual_anchor.plane_normal', 'zero_vector']]);
  });
  it('direction parallel to the normal', () => {
    const p = problemsOf(() => rectangleShortSideFrame({ ...rect, shortSideDirection: [0.05, 1, 0] }));
    expect(p.map((x) => [x.field, x.code])).toEqual([['virtual_anchor.short_side_direction', 'parallel_to_normal']]);
  });
  it('anchor_type for another endpoint', () => {
    const p = problemsOf(() => rectangleShortSideFrame({ ...rect, anchorType: 'segment_directional' }));
    expect(p.map((x) => [x.field, x.code])).toEqual([['virtual_anchor.anchor_type', 'anchor_type_mismatch']]);
  });
  it('unknown placement_source', () => {
    const p = problemsOf(() =>
      segmentDirectionalFrame({ segmentPoint1: [0, 0, 0], segmentPoint2: [1, 0, 0], planeNormal: [0, 1, 0], placementSource: 'air' }),
    );
    expect(p.map((x) => [x.field, x.code])).toEqual([['virtual_anchor.placement_source', 'unknown_value']]);
  });
  it('segment of zero length', () => {
    const p = problemsOf(() => segmentDirectionalFrame({ segmentPoint1: [1, 2, 3], segmentPoint2: [1, 2, 3], planeNormal: [0, 1, 0] }));
    expect(p.map((x) => x.code)).toEqual(['degenerate_segment']);
  });
  it('segment along the normal', () => {
    const p = problemsOf(() => segmentDirectionalFrame({ segmentPoint1: [0, 0, 0], segmentPoint2: [0, 1, 0], planeNormal: [0, 1, 0] }));
    expect(p.map((x) => x.code)).toEqual(['parallel_to_normal']);
  });
  it('corner whose edges are parallel', () => {
    const p = problemsOf(() =>
      cornerDirectionalFrame({ corner: [0, 0, 0], edge1Direction: [1, 0, 0], edge2Direction: [1, 0, 0.01], planeNormal: [0, 1, 0] }),
    );
    expect(p.map((x) => [x.field, x.code])).toEqual([['virtual_anchor.edge_2_direction', 'edges_parallel']]);
  });
  it('several problems at once, each with its field', () => {
    const p = problemsOf(() =>
      circleDirectionalFrame({ center: [0, 0] as never, radius: 0, planeNormal: [0, 0, 0], direction: [Infinity, 0, 0] }),
    );
    expect(p.map((x) => x.field)).toEqual([
      'virtual_anchor.center',
      'virtual_anchor.radius',
      'virtual_anchor.plane_normal',
      'virtual_anchor.direction',
    ]);
  });
});
