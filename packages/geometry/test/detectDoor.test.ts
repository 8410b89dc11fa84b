import { describe, expect, it } from 'vitest';
import { buildBvh, detectDoor, DoorNotFoundError, type OpeningCandidate, type Vec3 } from '../src/index.js';
import { buildWallScene } from './support/syntheticWall.js';

const viewer: Vec3 = [0, 1.6, 2];
const centreOf = (corners: readonly (readonly number[])[]) =>
  corners.reduce<number[]>((s, c) => s.map((v, k) => v + c[k]! / 4), [0, 0, 0]) as Vec3;
const towards = (p: Vec3): Vec3 => [p[0] - viewer[0], p[1] - viewer[1], p[2] - viewer[2]];

describe('detectDoor (semantics first, then geometry)', () => {
  it('answers from the semantics when a known opening is in sight', () => {
    const { mesh, expected } = buildWallScene();
    const candidate: OpeningCandidate = {
      corners: expected!.corners as OpeningCandidate['corners'],
      normal: [0, 0, 1],
      source: { id: 'door-1' },
    };
    const door = detectDoor({ mesh, bvh: buildBvh(mesh), candidates: [candidate], viewer, gaze: towards(centreOf(expected!.corners)) });
    expect(door.method).toBe('semantic');
    expect(door.source).toEqual({ id: 'door-1' });
    expect(door.opening.width).toBeCloseTo(0.9, 6);
  });

  it('skips a known opening hidden behind a wall, and then searches the geometry', () => {
    // A door stated in the far wall of the next room, while the wall in front has no hole at all.
    const { mesh } = buildWallScene({ blank: true });
    const hidden: OpeningCandidate = {
      corners: [
        [-0.45, 0, -3.8],
        [0.45, 0, -3.8],
        [0.45, 2.1, -3.8],
        [-0.45, 2.1, -3.8],
      ],
      normal: [0, 0, 1],
    };
    const gaze = towards([0, 1.05, -3.8]);
    // Without the geometry nothing can hide it: the semantics alone answer.
    expect(detectDoor({ candidates: [hidden], viewer, gaze }).method).toBe('semantic');
    // With it, the hidden door is skipped, and the blank wall holds no door: a clear refusal.
    let failure: unknown;
    try {
      detectDoor({ mesh, bvh: buildBvh(mesh), candidates: [hidden], viewer, gaze });
    } catch (err) {
      failure = err;
    }
    expect(failure).toBeInstanceOf(DoorNotFoundError);
    expect((failure as DoorNotFoundError).reason).toBe('no_opening_near_gaze');
  });

  it('falls back to the geometry when the model states no openings', () => {
    const { mesh, expected } = buildWallScene({ leaf: 'closed' });
    const door = detectDoor({ mesh, bvh: buildBvh(mesh), candidates: [], viewer, gaze: towards(centreOf(expected!.corners)) });
    expect(door.method).toBe('geometric');
    door.opening.corners.forEach((c, i) => c.forEach((v, k) => expect(Math.abs(v - expected!.corners[i]![k]!)).toBeLessThan(0.01)));
  });

  it('refuses when it has nothing to search', () => {
    expect(() => detectDoor({ viewer, gaze: [0, 0, -1] })).toThrow(DoorNotFoundError);
  });
});
