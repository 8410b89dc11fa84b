import fc from 'fast-check';
import type { Quat, Vec3 } from '../src/index.js';

/** Finite coordinates of building scale (including georeferenced offsets). */
export const coord = (max = 1e3) => fc.double({ min: -max, max, noNaN: true, noDefaultInfinity: true });
export const vec3 = (max = 1e3): fc.Arbitrary<Vec3> => fc.tuple(coord(max), coord(max), coord(max));

/** A unit vector, rejection-sampled away from zero length. */
export const unitVec3: fc.Arbitrary<Vec3> = fc
  .tuple(coord(1), coord(1), coord(1))
  .filter(([x, y, z]) => Math.hypot(x, y, z) > 0.1)
  .map(([x, y, z]) => {
    const l = Math.hypot(x, y, z);
    return [x / l, y / l, z / l] as Vec3;
  });

/** A unit quaternion with w ≥ 0. */
export const unitQuat: fc.Arbitrary<Quat> = fc
  .tuple(coord(1), coord(1), coord(1), coord(1))
  .filter((q) => Math.hypot(...q) > 0.1)
  .map((q) => {
    const l = Math.hypot(...q) * (q[3] < 0 ? -1 : 1);
    return [q[0] / l, q[1] / l, q[2] / l, q[3] / l] as Quat;
  });

export const angle = fc.double({ min: -Math.PI, max: Math.PI, noNaN: true });

/** A door: size, and the yaw + translation that place it (gravity stays down: doors stand upright). */
export interface Door {
  width: number;
  height: number;
  yaw: number;
  at: Vec3;
}
export const door: fc.Arbitrary<Door> = fc.record({
  width: fc.double({ min: 0.6, max: 2.6, noNaN: true }),
  height: fc.double({ min: 1.8, max: 3.2, noNaN: true }),
  yaw: angle,
  at: vec3(500),
});

/** Rotation about +Y then translation, as plain math (independent of the code under test). */
export function yawMove(p: readonly number[], yaw: number, at: readonly number[]): Vec3 {
  const c = Math.cos(yaw),
    s = Math.sin(yaw);
  return [c * p[0]! + s * p[2]! + at[0]!, p[1]! + at[1]!, -s * p[0]! + c * p[2]! + at[2]!];
}

/** Corners [BL, BR, TR, TL] and wall normal of a door in Y-up. */
export function doorCorners(d: Door): { corners: Vec3[]; normal: Vec3 } {
  const w = d.width / 2;
  const local: Vec3[] = [
    [-w, 0, 0],
    [w, 0, 0],
    [w, d.height, 0],
    [-w, d.height, 0],
  ];
  return {
    corners: local.map((p) => yawMove(p, d.yaw, d.at)),
    normal: yawMove([0, 0, 1], d.yaw, [0, 0, 0]),
  };
}

export const zUp = (v: readonly number[]): Vec3 => [v[0]!, -v[2]!, v[1]!]; // inverse of (x, y, z) → (x, z, −y)

export function expectClose(a: ArrayLike<number>, b: ArrayLike<number>, tol = 1e-9): void {
  if (a.length !== b.length) throw new Error(`length ${a.length} ≠ ${b.length}`);
  for (let i = 0; i < a.length; i++) {
    const scale = Math.max(1, Math.abs(a[i]!), Math.abs(b[i]!));
    if (!(Math.abs(a[i]! - b[i]!) <= tol * scale)) {
      throw new Error(`index ${i}: ${a[i]} vs ${b[i]} (|Δ| = ${Math.abs(a[i]! - b[i]!)}) in [${Array.from(a)}] vs [${Array.from(b)}]`);
    }
  }
}
