import { vec3 } from 'gl-matrix';
import { DegenerateInputError } from '../errors/GeometryValidationError.js';
import { createPose, transformDirection, transformPoint, type Pose } from '../pose/pose.js';
import type { ReadonlyVec3, Vec3 } from '../types/vector.js';
import { largestEigenpair4 } from './symmetricEigen4.js';

/** A model point and where it should land in the world. */
export interface PointCorrespondence {
  model: ReadonlyVec3;
  world: ReadonlyVec3;
  /** Default 1. */
  weight?: number;
}

/** A model direction and the world direction it should turn into (normalised internally). */
export interface DirectionCorrespondence {
  model: ReadonlyVec3;
  world: ReadonlyVec3;
  /** Default 1. Weighs against point weights as a point pair 1 m from the centroid would. */
  weight?: number;
}

/** Input of {@link alignYaw}: at least one point, and enough to fix the yaw. */
export interface AlignYawInput {
  points: readonly PointCorrespondence[];
  directions?: readonly DirectionCorrespondence[];
}

/**
 * What a free 6-DOF similarity fit (Horn's quaternion method with scale) of the same
 * correspondences would need. A caller rejects a yaw-only fit whose data asks for more.
 */
export interface AlignmentDiagnostics {
  /** Tilt (degrees) of the free fit's rotation away from gravity; `null` when the data cannot fix it. */
  tiltDeg: number | null;
  /** Scale of the free fit (1 for consistent units; ~1000 or ~0.001 means mm vs m); `null` with fewer than two distinct points. */
  scale: number | null;
}

/** Result of a gravity-aware alignment. */
export interface YawAlignment {
  /** world ← model: a rotation about +Y by `yaw`, then a translation. */
  pose: Pose;
  /** Rotation about +Y (radians, in (−π, π]). */
  yaw: number;
  /** Weighted RMS distance between transformed model points and world points (m). */
  rmsResidual: number;
  /** Largest such distance (m). */
  maxResidual: number;
  /** Largest angle between a transformed model direction and its world direction (degrees); 0 without directions. */
  maxDirectionResidualDeg: number;
  diagnostics: AlignmentDiagnostics;
}

/**
 * Model → world transform when gravity is known on both sides (both Y-up): the exact weighted
 * least-squares yaw θ and translation t (2-D Procrustes in the XZ plane, geometry-notes.md).
 * Throws {@link DegenerateInputError} when the input cannot fix the yaw: no points, non-finite
 * numbers, all points on one vertical line and no horizontal direction.
 *
 * @example
 * ```ts
 * const a = alignYaw({ points: [
 *   { model: [0, 0, 0], world: [5, 0, 0] },
 *   { model: [1, 0, 0], world: [5, 0, -1] }, // turned 90° about +Y
 * ]});
 * a.yaw; // → π/2
 * ```
 */
export function alignYaw(input: AlignYawInput): YawAlignment {
  const points = input.points;
  const directions = (input.directions ?? []).map((d) => ({
    model: vec3.normalize([0, 0, 0], d.model) as Vec3,
    world: vec3.normalize([0, 0, 0], d.world) as Vec3,
    weight: d.weight ?? 1,
  }));
  checkInput(input, directions);

  let wSum = 0;
  const pBar: Vec3 = [0, 0, 0],
    qBar: Vec3 = [0, 0, 0];
  for (const c of points) {
    const w = c.weight ?? 1;
    wSum += w;
    vec3.scaleAndAdd(pBar, pBar, c.model, w);
    vec3.scaleAndAdd(qBar, qBar, c.world, w);
  }
  vec3.scale(pBar, pBar, 1 / wSum);
  vec3.scale(qBar, qBar, 1 / wSum);

  // A and B of geometry-notes.md; the 3×3 cross-covariance S feeds the 6-DOF diagnostic.
  let A = 0,
    B = 0,
    pVar = 0,
    qVar = 0;
  const S = new Float64Array(9);
  const accumulate = (p: ReadonlyVec3, q: ReadonlyVec3, w: number) => {
    A += w * (p[0] * q[0] + p[2] * q[2]);
    B += w * (p[2] * q[0] - p[0] * q[2]);
    for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) S[a * 3 + b] = S[a * 3 + b]! + w * p[a]! * q[b]!;
  };
  for (const c of points) {
    const w = c.weight ?? 1;
    const p = vec3.sub([0, 0, 0], c.model, pBar) as Vec3,
      q = vec3.sub([0, 0, 0], c.world, qBar) as Vec3;
    pVar += w * vec3.squaredLength(p);
    qVar += w * vec3.squaredLength(q);
    accumulate(p, q, w);
  }
  for (const d of directions) accumulate(d.model, d.world, d.weight);

  const scaleOfData = Math.sqrt(pVar / wSum) + directions.reduce((s, d) => s + d.weight, 0);
  if (Math.hypot(A, B) <= 1e-12 * Math.max(1, scaleOfData)) {
    throw new DegenerateInputError([
      {
        field: 'correspondences',
        code: 'yaw_undetermined',
        message:
          'the correspondences do not fix the rotation about the vertical: give two points apart horizontally, or a horizontal direction',
      },
    ]);
  }
  const yaw = Math.atan2(B, A);
  const rotation = createPose([0, 0, 0], [0, Math.sin(yaw / 2), 0, Math.cos(yaw / 2)]);
  const rp = transformPoint([0, 0, 0], rotation, pBar);
  const pose = createPose(vec3.sub([0, 0, 0], qBar, rp) as Vec3, rotation.rotation);

  let sq = 0,
    maxResidual = 0;
  for (const c of points) {
    const d = vec3.distance(transformPoint([0, 0, 0], pose, c.model), c.world);
    sq += (c.weight ?? 1) * d * d;
    maxResidual = Math.max(maxResidual, d);
  }
  let maxDirectionResidualDeg = 0;
  for (const d of directions) {
    const m = transformDirection([0, 0, 0], pose, d.model);
    const ang = (Math.acos(Math.max(-1, Math.min(1, vec3.dot(m, d.world)))) * 180) / Math.PI;
    maxDirectionResidualDeg = Math.max(maxDirectionResidualDeg, ang);
  }

  return {
    pose,
    yaw,
    rmsResidual: Math.sqrt(sq / wSum),
    maxResidual,
    maxDirectionResidualDeg,
    diagnostics: freeFitDiagnostics(S, pVar, qVar, points.length),
  };
}

function checkInput(input: AlignYawInput, directions: ReadonlyArray<{ model: Vec3; world: Vec3; weight: number }>): void {
  const bad = (v: ReadonlyVec3) => !Number.isFinite(v[0]) || !Number.isFinite(v[1]) || !Number.isFinite(v[2]);
  if (input.points.length === 0) {
    throw new DegenerateInputError([
      { field: 'correspondences', code: 'no_points', message: 'at least one point correspondence is needed to fix the translation' },
    ]);
  }
  let wSum = 0;
  for (const c of input.points) {
    const w = c.weight ?? 1;
    if (bad(c.model) || bad(c.world) || !Number.isFinite(w) || w < 0) {
      throw new DegenerateInputError([
        { field: 'correspondences', code: 'non_finite', message: 'every point and weight must be finite, weights ≥ 0' },
      ]);
    }
    wSum += w;
  }
  if (!(wSum > 0)) {
    throw new DegenerateInputError([{ field: 'correspondences', code: 'zero_weight', message: 'point weights sum to 0' }]);
  }
  for (const d of directions) {
    if (bad(d.model) || bad(d.world) || !Number.isFinite(d.weight) || d.weight < 0) {
      throw new DegenerateInputError([
        { field: 'correspondences', code: 'non_finite', message: 'every direction must be a finite non-zero vector, weights ≥ 0' },
      ]);
    }
  }
}

// Horn (1987): the unit quaternion maximising Σ q̃·R p̃ is the top eigenvector of a 4×4 built from S.
function freeFitDiagnostics(S: Float64Array, pVar: number, qVar: number, pointCount: number): AlignmentDiagnostics {
  const [xx, xy, xz, yx, yy, yz, zx, zy, zz] = S as unknown as number[];
  const N = [
    xx! + yy! + zz!,
    yz! - zy!,
    zx! - xz!,
    xy! - yx!,
    yz! - zy!,
    xx! - yy! - zz!,
    xy! + yx!,
    zx! + xz!,
    zx! - xz!,
    xy! + yx!,
    -xx! + yy! - zz!,
    yz! + zy!,
    xy! - yx!,
    zx! + xz!,
    yz! + zy!,
    -xx! - yy! + zz!,
  ];
  // The rotation is fixed only when S has rank ≥ 2 (non-collinear data): check via the singular
  // values of S, i.e. the eigenvalues of SᵀS, through its second invariant.
  const frob = Math.hypot(...(S as unknown as number[]));
  const rank2 = secondInvariantOfSTS(S) > 1e-10 * frob ** 4;
  let tiltDeg: number | null = null;
  if (rank2 && frob > 0) {
    const {
      vector: [w, x, y, z],
    } = largestEigenpair4(N);
    // Rotated +Y is the second column of the rotation matrix; atan2 keeps small tilts exact (acos near 1 does not).
    const cx = 2 * (x * y - w * z),
      cy = 1 - 2 * (x * x + z * z),
      cz = 2 * (y * z + w * x);
    tiltDeg = (Math.atan2(Math.hypot(cx, cz), cy) * 180) / Math.PI;
  }
  const scale = pointCount >= 2 && pVar > 1e-18 ? Math.sqrt(qVar / pVar) : null;
  return { tiltDeg, scale };
}

function secondInvariantOfSTS(S: Float64Array): number {
  // Sum of the principal 2×2 minors of M = SᵀS: σ1²σ2² + σ1²σ3² + σ2²σ3².
  const M = new Float64Array(9);
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += S[k * 3 + i]! * S[k * 3 + j]!;
      M[i * 3 + j] = s;
    }
  return M[0]! * M[4]! - M[1]! * M[3]! + M[0]! * M[8]! - M[2]! * M[6]! + M[4]! * M[8]! - M[5]! * M[7]!;
}
