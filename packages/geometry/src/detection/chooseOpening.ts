import { vec3 } from 'gl-matrix';
import { readViewerAndGaze } from './readViewerAndGaze.js';
import { DoorNotFoundError } from './DoorNotFoundError.js';
import type { Opening } from '../opening/opening.js';
import { validateOpening } from '../opening/validateOpening.js';
import type { UpAxis, Vec3 } from '../types/vector.js';

/** A known door opening, e.g. one face of an IFC opening from the model's door index (Y-up). */
export interface OpeningCandidate {
  /** [BL, BR, TR, TL] as seen from the side `normal` points to. */
  corners: [Vec3, Vec3, Vec3, Vec3];
  /** Unit, horizontal, pointing away from the wall on this face's side. */
  normal: Vec3;
  /** Where the candidate came from (e.g. the IfcDoor's GlobalId and name). */
  source?: { id: string; name?: string };
}

/** Options of {@link chooseOpening}. */
export interface ChooseOpeningOptions {
  /** Axis convention of `viewer` and `gaze`; default `y-up`. The opening comes back in Y-up. */
  coordinateSystem: UpAxis;
  /** Widest angle (degrees) between the gaze and the direction to an opening's centre. */
  maxAngleDeg: number;
  /** Farthest opening considered (m). */
  maxDistance: number;
  /**
   * Whether the viewer can see a candidate (e.g. a ray test against the model); candidates it
   * rejects are skipped. Without it, walls between the viewer and an opening are not considered.
   */
  isVisible?: (candidate: OpeningCandidate, centre: Vec3) => boolean;
}

/** Defaults of {@link chooseOpening}. */
export const CHOOSE_OPENING_DEFAULTS: Readonly<ChooseOpeningOptions> = { coordinateSystem: 'y-up', maxAngleDeg: 25, maxDistance: 15 };

/** The opening the user looks at. */
export interface ChosenOpening {
  opening: Opening;
  candidate: number;
  /** 0–1: how squarely the gaze meets the opening, lowered when another candidate is nearly as good. */
  confidence: number;
  /** Angle (degrees) between the gaze and the direction to the opening's centre. */
  angleDeg: number;
}

/**
 * Picks the door opening a user looks at from known candidates (by_scan mode 1, semantic path):
 * among openings whose face is toward the viewer and within `maxDistance`, those the gaze ray passes
 * through come first, the one aimed at most squarely winning (the nearer when two are in line);
 * otherwise the smallest angle between the gaze and an opening's centre within `maxAngleDeg`.
 * Occlusion is tested only through `isVisible` (see `detectDoor`, which casts rays for it). The answer goes through {@link
 * validateOpening}, so mode 1 and mode 2 return the
 * same thing. `gaze` is a direction (the spec's point_2, "direction of the user's gaze").
 *
 * @example
 * ```ts
 * const chosen = chooseOpening(candidates, [2, 1.6, 3], [0, -0.3, -1]);
 * chosen.opening.width; // → 0.9
 * ```
 */
export function chooseOpening(
  candidates: readonly OpeningCandidate[],
  viewer: readonly number[],
  gaze: readonly number[],
  options: Partial<ChooseOpeningOptions> = {},
): ChosenOpening {
  const opts = { ...CHOOSE_OPENING_DEFAULTS, ...options };
  const { eye, dir } = readViewerAndGaze(viewer, gaze, opts.coordinateSystem);
  if (candidates.length === 0) throw new DoorNotFoundError('no_door_openings', 'the model has no door openings to choose from');

  // `through`: distance along the gaze to where it crosses the opening, or Infinity if it misses.
  type Scored = { index: number; angle: number; through: number };
  const scored: Scored[] = [];
  let facing = 0;
  candidates.forEach((c, index) => {
    const centre = vec3.scale(
      [0, 0, 0],
      vec3.add([0, 0, 0], vec3.add([0, 0, 0], c.corners[0], c.corners[1]), vec3.add([0, 0, 0], c.corners[2], c.corners[3])),
      0.25,
    ) as Vec3;
    const toCentre = vec3.sub([0, 0, 0], centre, eye) as Vec3;
    const distance = vec3.length(toCentre);
    if (vec3.dot(c.normal, toCentre) >= 0 || distance > opts.maxDistance) return; // viewer behind this face, or too far
    facing++;
    if (opts.isVisible && !opts.isVisible(c, centre)) return;
    const angle = (Math.atan2(vec3.length(vec3.cross([0, 0, 0], toCentre, dir)), vec3.dot(toCentre, dir)) * 180) / Math.PI;
    scored.push({ index, angle, through: gazeCrossing(c, eye, dir) });
  });
  if (facing === 0)
    throw new DoorNotFoundError(
      'no_opening_facing_viewer',
      `no door opening faces the viewer within ${opts.maxDistance} m; stand in front of the door`,
    );
  if (scored.length === 0)
    throw new DoorNotFoundError(
      'no_opening_facing_viewer',
      'every door opening facing the viewer is hidden behind walls; stand where the door can be seen',
    );
  // Openings the gaze passes through come first; among them the one aimed at (smallest angle):
  // a user looking through a near door at a far one means the far one. Only when two are aimed
  // at alike (within half a degree: in line) does the nearer win.
  scored.sort((a, b) => {
    const fa = Number.isFinite(a.through),
      fb = Number.isFinite(b.through);
    if (fa !== fb) return fa ? -1 : 1;
    if (Math.abs(a.angle - b.angle) > 0.5) return a.angle - b.angle;
    return a.through - b.through || a.angle - b.angle;
  });
  const best = scored[0]!;
  const through = Number.isFinite(best.through);
  if (!through && best.angle > opts.maxAngleDeg) {
    throw new DoorNotFoundError(
      'no_opening_near_gaze',
      `no door opening lies within ${opts.maxAngleDeg}° of the gaze (nearest is ${best.angle.toFixed(0)}° off); look at the door`,
    );
  }
  const second = scored[1];
  const squareness = Math.max(0, 1 - best.angle / opts.maxAngleDeg);
  // An alternative within a few degrees makes the choice ambiguous.
  const margin = second
    ? Math.min(1, Math.max(0.2, (second.angle - best.angle) / 5 + (through && !Number.isFinite(second.through) ? 1 : 0)))
    : 1;
  const c = candidates[best.index]!;
  return {
    opening: validateOpening({ corners: c.corners, wallNormal: c.normal }),
    candidate: best.index,
    confidence: Math.round(Math.max(0.05, (through ? 0.6 + 0.4 * squareness : squareness) * margin) * 100) / 100,
    angleDeg: best.angle,
  };
}

/** Distance along the gaze to where it crosses the candidate's rectangle, or Infinity if it does not. */
function gazeCrossing(c: OpeningCandidate, eye: Vec3, dir: Vec3): number {
  const denom = vec3.dot(dir, c.normal);
  if (Math.abs(denom) < 1e-9) return Infinity;
  const t = vec3.dot(vec3.sub([0, 0, 0], c.corners[0], eye), c.normal) / denom;
  if (t <= 0) return Infinity;
  const hit = vec3.scaleAndAdd([0, 0, 0], eye, dir, t);
  const [bl, br, , tl] = c.corners;
  const right = vec3.sub([0, 0, 0], br, bl),
    up = vec3.sub([0, 0, 0], tl, bl),
    rel = vec3.sub([0, 0, 0], hit, bl);
  const s = vec3.dot(rel, right) / vec3.squaredLength(right),
    h = vec3.dot(rel, up) / vec3.squaredLength(up);
  return s >= 0 && s <= 1 && h >= 0 && h <= 1 ? t : Infinity;
}
