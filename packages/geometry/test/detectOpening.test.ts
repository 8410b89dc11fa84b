import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildBvh,
  detectOpening,
  DoorNotFoundError,
  yUpToZUp,
  type DetectedOpening,
  type DetectOpeningOptions,
  type Vec3,
} from '../src/index.js';
import {
  buildFloorOnlyScene,
  buildWallScene,
  WALL_SCENE_DEFAULTS,
  type ExpectedOpening,
  type LeafKind,
  type SyntheticMesh,
  type WallScene,
  type WallSceneOptions,
} from './support/syntheticWall.js';
import { buildCubicleScene, buildSegmentedWallScene, type CubicleSceneOptions } from './support/syntheticCubicle.js';

/** Tolerance per axis on every corner (m). */
const TOLERANCE = 0.01;
/** The default viewer: 2 m in front of the door wall, eyes at 1.6 m (scene coordinates). */
const VIEWER: Vec3 = [0, 1.6, 2];

const add = (a: readonly number[], b: readonly number[]): Vec3 => [a[0]! + b[0]!, a[1]! + b[1]!, a[2]! + b[2]!];
const sub = (a: readonly number[], b: readonly number[]): Vec3 => [a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!];

/** The centre of the expected opening (world). */
function centreOf(expected: ExpectedOpening): Vec3 {
  return expected.corners.reduce<Vec3>(
    (s, c) =>
      add(
        s,
        c.map((v) => v / 4),
      ),
    [0, 0, 0],
  );
}

function door(scene: WallScene): ExpectedOpening {
  if (!scene.expected) throw new Error('this scene has no door');
  return scene.expected;
}

function detect(mesh: SyntheticMesh, viewer: Vec3, gaze: Vec3, options?: Partial<DetectOpeningOptions>): DetectedOpening {
  return detectOpening(mesh, buildBvh(mesh), viewer, gaze, options);
}

/**
 * Builds the scene and looks from `viewer` (scene coordinates; the scene's origin is added) at
 * `target` (scene coordinates), or at the expected opening's centre when no target is given.
 */
function lookFrom(options: Partial<WallSceneOptions>, viewer: Vec3 = VIEWER, target?: Vec3): { scene: WallScene; eye: Vec3; gaze: Vec3 } {
  const scene = buildWallScene(options);
  const origin = scene.options.origin;
  const eye = add(viewer, origin);
  const aim = target ? add(target, origin) : centreOf(door(scene));
  return { scene, eye, gaze: sub(aim, eye) };
}

/** Every corner within `tol` per axis, the normal toward the viewer, a geometric answer with a sane confidence. */
function expectOpening(result: DetectedOpening, expected: ExpectedOpening, tol = TOLERANCE): void {
  const names = ['BL', 'BR', 'TR', 'TL'];
  result.opening.corners.forEach((corner, i) => {
    for (let k = 0; k < 3; k++) {
      const want = expected.corners[i]![k]!;
      expect(Math.abs(corner[k]! - want), `${names[i]}[${'xyz'[k]}] = ${corner[k]}, expected ${want}`).toBeLessThanOrEqual(tol);
    }
  });
  const n = result.opening.wallNormal;
  const dot = n[0] * expected.normal[0] + n[1] * expected.normal[1] + n[2] * expected.normal[2];
  expect(dot, `wall normal ${n.join(', ')}`).toBeGreaterThan(0.999);
  expect(result.method).toBe('geometric');
  expect(result.confidence).toBeGreaterThanOrEqual(0);
  expect(result.confidence).toBeLessThanOrEqual(1);
}

/** Builds, looks at the opening's centre from `viewer`, and checks the answer. */
function expectFound(options: Partial<WallSceneOptions>, viewer: Vec3 = VIEWER, target?: Vec3): DetectedOpening {
  const { scene, eye, gaze } = lookFrom(options, viewer, target);
  const result = detect(scene.mesh, eye, gaze);
  expectOpening(result, door(scene));
  return result;
}

/** The DoorNotFoundError `fn` throws (failing the test if it throws anything else, or nothing). */
function failure(fn: () => unknown): DoorNotFoundError {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, 'expected detectOpening to throw').toBeInstanceOf(DoorNotFoundError);
  return thrown as DoorNotFoundError;
}

describe('detectOpening (geometric door detection on a triangle mesh)', () => {
  describe('finds the opening in walls of any thickness', () => {
    it.each<[string, number]>([
      ['thin (0.1 m)', 0.1],
      ['default (0.2 m)', 0.2],
      ['thick (0.4 m)', 0.4],
      ['zero-thickness (double-sided quads)', 0],
    ])('%s wall', (_name, thickness) => {
      expectFound({ thickness });
    });
  });

  describe('with a door leaf in the hole', () => {
    it.each<[string, LeafKind]>([
      ['no leaf', 'none'],
      ['a closed leaf centred in the wall', 'closed'],
      ['a closed leaf flush with the viewer face', 'flushFront'],
      ['a closed leaf flush with the back face', 'flushBack'],
      ['a glass pane', 'glass'],
      ['a leaf swung open toward the viewer', 'open'],
    ])('%s', (_name, leaf) => {
      expectFound({ leaf });
    });

    it('a closed leaf in a thin and in a zero-thickness wall', () => {
      expectFound({ leaf: 'closed', thickness: 0.1 });
      expectFound({ leaf: 'closed', thickness: 0 });
    });
  });

  describe('with trim and furniture around the door', () => {
    it('casing (architraves) on the viewer face: the opening is still the hole', () => {
      expectFound({ casing: true });
    });

    it('a lining inside the hole: the opening is the clear one inside the lining', () => {
      const result = expectFound({ lining: true });
      expect(result.opening.width).toBeCloseTo(0.84, 1);
    });

    it('skirting boards left and right of the hole', () => {
      expectFound({ skirting: true });
    });

    it('casing, lining and skirting together', () => {
      expectFound({ casing: true, lining: true, skirting: true });
      expectFound({ casing: true, lining: true, skirting: true, leaf: 'closed' });
    });

    it('a perpendicular wall flush with the left jamb', () => {
      expectFound({ perpendicularWall: true });
    });

    it('a cabinet against the wall beside the door', () => {
      expectFound({ cabinet: true });
    });

    it('a window beside the door', () => {
      expectFound({ window: 'beside' });
    });

    it('a double door with two closed leaves', () => {
      expectFound({ doubleDoor: true, leaf: 'closed' });
    });

    it('a full-height opening (no lintel)', () => {
      expectFound({ fullHeight: true });
    });
  });

  describe('from different viewpoints', () => {
    it('from the default viewpoint, gazing at the opening centre', () => {
      const result = expectFound({});
      expect(result.opening.width).toBeCloseTo(0.9, 1);
      expect(result.opening.height).toBeCloseTo(2.1, 1);
    });

    it('gazing at the wall 0.4 m right of the right jamb still finds the door', () => {
      const rightJamb = WALL_SCENE_DEFAULTS.doorX + WALL_SCENE_DEFAULTS.doorWidth;
      expectFound({}, VIEWER, [rightJamb + 0.4, 1.2, 0]);
    });

    it('gazing through the doorway at the far wall of the next room', () => {
      expectFound({}, [0.2, 1.6, 1.5], [0, 1.0, -4]);
    });

    it('close to the wall (0.8 m)', () => {
      expectFound({}, [0, 1.6, 0.8]);
    });

    it('far from the wall (6 m)', () => {
      expectFound({ wallBehindViewerZ: 7 }, [0, 1.6, 6]);
    });

    it('with the whole scene 700 km from the origin (float32 positions plus a float64 offset)', () => {
      const origin: Vec3 = [5e5, 0, -5e5];
      expectFound({ origin });
      expectFound({ origin, leaf: 'closed', thickness: 0.1 });
      expectFound({ origin }, [0.2, 1.6, 1.5], [0, 1.0, -4]);
    });

    it('with z-up viewer and gaze, answering in y-up world', () => {
      const { scene, eye, gaze } = lookFrom({});
      const eyeZ = yUpToZUp([0, 0, 0], eye),
        gazeZ = yUpToZUp([0, 0, 0], gaze);
      expectOpening(detect(scene.mesh, eyeZ, gazeZ, { coordinateSystem: 'z-up' }), door(scene));
    });
  });

  describe('in a storey modelled without its floor slab (nothing under the viewer)', () => {
    it.each<[string, Partial<WallSceneOptions>]>([
      ['no leaf', {}],
      ['a closed leaf, thin wall', { leaf: 'closed', thickness: 0.1 }],
      ['a leaf flush with the viewer face, casing and skirting', { leaf: 'flushFront', casing: true, skirting: true }],
      ['a window beside the door', { window: 'beside' }],
    ])('the doorway ends where the wall beside it ends: %s', (_name, options) => {
      expectFound({ ...options, floor: false });
    });

    it('a hole without a lintel, a blank wall or a window alone is refused, never guessed', () => {
      for (const [options, target] of [
        [{ fullHeight: true }, undefined],
        [{ blank: true }, [0, 1.2, 0]],
        [{ window: 'only' }, [0, 1.5, 0]],
      ] as const) {
        const { scene, eye, gaze } = lookFrom({ ...options, floor: false }, VIEWER, target && [...target]);
        failure(() => detect(scene.mesh, eye, gaze));
      }
    });
  });

  describe('where real models differ from a clean wall', () => {
    it.each<[string, Partial<WallSceneOptions>]>([
      ['no leaf', {}],
      ['a closed leaf, casing and skirting', { leaf: 'closed', casing: true, skirting: true }],
      ['a thin wall', { thickness: 0.1 }],
    ])(
      'walls drawn from the finished floor, 10 cm above a slab without its screed: the doorway starts with the wall (%s)',
      (_name, options) => {
        const found = expectFound({ ...options, wallBase: 0.1 });
        expect(found.opening.corners[0][1]).toBeCloseTo(0.1, 2);
      },
    );

    it('a wall standing 0.5 m off the floor is not a floor build-up: the doorway reaches the floor', () => {
      const { scene, eye, gaze } = lookFrom({ wallBase: 0.5, doorHeight: 1.7 });
      const found = detect(scene.mesh, eye, gaze);
      expect(found.opening.corners[0][1]).toBeCloseTo(0, 2);
      expect(found.opening.corners[2][1]).toBeCloseTo(2.2, 2);
    });

    it('a cross wall meeting the door wall end-on at the jamb is the jamb', () => {
      expectFound({ crossWallAtJamb: true });
      expectFound({ crossWallAtJamb: true, leaf: 'closed', thickness: 0.1 });
      // Without taking the cross wall's end face as wall, the doorway runs on into the corridor and is refused.
      const { scene, eye, gaze } = lookFrom({ crossWallAtJamb: true });
      failure(() => detect(scene.mesh, eye, gaze, { wall: { abutDepth: 100 } }));
    });

    it('a strip of wall narrower than the grid between the jamb and a joint in the wall is the jamb', () => {
      // Gaze points 0–9 cm right of the centre put grid columns everywhere across strip and joint
      // (gazing 2 cm right puts one in the joint): the doorway must always end at the strip.
      for (let dx = 0; dx < 0.1; dx += 0.01) {
        expectFound({ jointBesideJamb: true }, VIEWER, [dx, 1.0, 0]);
        expectFound({ jointBesideJamb: true, leaf: 'closed', thickness: 0.1 }, VIEWER, [dx, 1.0, 0]);
      }
    });

    it('a way through low cabinets in front of the door is not taken for the doorway', () => {
      const { scene, eye, gaze } = lookFrom({ cabinetsWithGap: true }, [0, 1.6, 2.5]);
      expectOpening(detect(scene.mesh, eye, gaze), door(scene));
      // The cabinets' fronts frame a full-height gap at floor level: taken as a door when a plane
      // with hardly any wall at eye level may hold an opening without a lintel.
      const loose = detect(scene.mesh, eye, gaze, { wall: { minWallLength: 0 } });
      expect(Math.abs(loose.opening.corners[0][2] - 1.6)).toBeLessThan(0.01);
    });
  });

  describe('a leaf as thick as its wall and flush with both faces, told apart only as another part', () => {
    const look = (options: Partial<CubicleSceneOptions>, target?: Vec3) => {
      const scene = buildCubicleScene(options);
      const aim = target ?? centreOf(scene.expected);
      return { scene, result: () => detect(scene.mesh, VIEWER, sub(aim, VIEWER)) };
    };

    it.each<[string, Partial<CubicleSceneOptions>]>([
      ['a cubicle door under a partition on legs', {}],
      ['a leaf 10 cm clear of the floor (the doorway still starts at the floor)', { y0: 0.1 }],
      ['a leaf 0.9 m wide, 2 m high, in a wall from the floor', { partitionBottom: 0, partitionTop: 2.4, x0: -0.5, x1: 0.4, y1: 2 }],
      ['in a storey without its slab: the doorway ends where the leaf does', { floor: false }],
    ])('%s', (_name, options) => {
      const { scene, result } = look(options);
      expectOpening(result(), scene.expected);
    });

    it('is not found without the parts: the leaf is then wall like the rest', () => {
      const { scene } = look({});
      const { groups: _groups, ...anonymous } = scene.mesh;
      failure(() => detect(anonymous, VIEWER, sub(centreOf(scene.expected), VIEWER)));
    });

    it('an ordinary wall of segments under a beam: the door-sized segment in view is no leaf', () => {
      const mesh = buildSegmentedWallScene();
      failure(() => detect(mesh, VIEWER, sub([0, 1.0, 0], VIEWER)));
    });

    it('a flush part in its host wider than any leaf (2 m) is a panel, not a leaf', () => {
      failure(look({ partitionBottom: 0, partitionTop: 2.6, x0: -1, x1: 1, y1: 2.1 }).result);
    });

    it('two flush leaves meeting in the middle are refused, never answered as half the doorway', () => {
      const { scene, result } = look({ leaves: 2, x0: -0.8, x1: 0.8 }, [-0.4, 0.8, 0]);
      expect(scene.expected.corners[1][0] - scene.expected.corners[0][0]).toBeCloseTo(1.6, 6);
      failure(result);
    });

    it(
      'a panel of its own filling a window hole, hanging 0.4 m clear of the ' +
        'floor, or a strip of wall of its own up to the ceiling, is no leaf',
      () => {
        failure(look({ y0: 0.4, y1: 1.7 }).result);
        for (const floor of [true, false]) {
          const panel = look({ floor, partitionBottom: 0, partitionTop: 2.7, holeToBottom: false, x0: -0.45, x1: 0.45, y0: 0.4, y1: 1.9 });
          failure(panel.result);
        }
        const strip = look({ partitionBottom: 0, partitionTop: 2.7, x0: -0.45, x1: 0.45, y0: 0, y1: 2.7 }, [0, 1.2, 0]);
        failure(strip.result);
      },
    );
  });

  describe('fails with a reason when there is no door', () => {
    it('a blank wall: no_opening_near_gaze', () => {
      const { scene, eye, gaze } = lookFrom({ blank: true }, VIEWER, [0, 1.2, 0]);
      expect(scene.expected).toBeUndefined();
      expect(failure(() => detect(scene.mesh, eye, gaze)).reason).toBe('no_opening_near_gaze');
    });

    it('a window but no door: no_opening_near_gaze', () => {
      const { scene, eye, gaze } = lookFrom({ window: 'only' }, VIEWER, [0, 1.5, 0]);
      expect(scene.expected).toBeUndefined();
      expect(failure(() => detect(scene.mesh, eye, gaze)).reason).toBe('no_opening_near_gaze');
    });

    it('gazing at the ceiling, parallel to the wall', () => {
      const scene = buildWallScene({});
      failure(() => detect(scene.mesh, [0, 1.6, 2], [0, 1, 0]));
    });

    it('gazing along the wall', () => {
      const scene = buildWallScene({});
      failure(() => detect(scene.mesh, [-3.5, 1.6, 0.5], [1, 0, 0]));
    });

    it('gazing away from everything (only a floor): no_wall_along_gaze', () => {
      const mesh = buildFloorOnlyScene();
      expect(failure(() => detect(mesh, [0, 1.6, 2], [0, 0.2, -1])).reason).toBe('no_wall_along_gaze');
    });
  });

  it('finds random doors in walls of random thickness from random viewpoints', () => {
    const arbitraryDoor = fc.record({
      doorX: fc.double({ min: -2, max: 1.2, noNaN: true }),
      doorWidth: fc.double({ min: 0.7, max: 1.2, noNaN: true }),
      doorHeight: fc.double({ min: 1.9, max: 2.4, noNaN: true }),
      thickness: fc.constantFrom(0, 0.1, 0.2, 0.3),
    });
    const distance = fc.double({ min: 1, max: 4, noNaN: true });
    const lateral = fc.double({ min: -1, max: 1, noNaN: true });
    fc.assert(
      fc.property(arbitraryDoor, distance, lateral, (options, dist, side) => {
        const centreX = options.doorX + options.doorWidth / 2;
        // The wall behind the viewer moves back so that a viewer 4 m out still stands in the room.
        const { scene, eye, gaze } = lookFrom({ ...options, wallBehindViewerZ: 5 }, [centreX + side, 1.6, dist]);
        expectOpening(detect(scene.mesh, eye, gaze), door(scene));
      }),
      { numRuns: 30 },
    );
  });
});
