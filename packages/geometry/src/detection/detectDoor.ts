import type { Bvh } from '../bvh/Bvh.js';
import { raycastFirst } from '../bvh/raycastFirst.js';
import type { Opening } from '../opening/opening.js';
import type { UpAxis, Vec3 } from '../types/vector.js';
import { chooseOpening, type ChooseOpeningOptions, type OpeningCandidate } from './chooseOpening.js';
import { detectOpening, type DetectionMesh, type DetectOpeningOptions } from './detectOpening.js';
import { DoorNotFoundError } from './DoorNotFoundError.js';
import { readViewerAndGaze } from './readViewerAndGaze.js';

/** What {@link detectDoor} searches: a model's triangles, its known door openings, or both. */
export interface DetectDoorInput {
  /** The model's triangles (Y-up; positions relative to `offset`). Needed for the geometric path and for occlusion. */
  mesh?: DetectionMesh;
  /** The mesh's tree; built by the caller once per model (see `buildBvh`) so it can be cached. */
  bvh?: Bvh;
  /** Door openings the model's semantics state (e.g. IFC door → opening → wall), Y-up, relative to `mesh.offset`. */
  candidates?: readonly OpeningCandidate[];
  /** Where the user stands (point_1), world coordinates. */
  viewer: readonly number[];
  /** The direction of the gaze (point_2). */
  gaze: readonly number[];
}

/** Options of {@link detectDoor}. */
export interface DetectDoorOptions {
  coordinateSystem: UpAxis;
  semantic: Partial<Omit<ChooseOpeningOptions, 'coordinateSystem' | 'isVisible'>>;
  geometric: Partial<Omit<DetectOpeningOptions, 'coordinateSystem'>>;
}

/** Defaults of {@link detectDoor}. */
export const DETECT_DOOR_DEFAULTS: Readonly<DetectDoorOptions> = { coordinateSystem: 'y-up', semantic: {}, geometric: {} };

/** The door a user looks at, and how it was found. */
export interface DetectedDoor {
  /** World coordinates, Y-up. */
  opening: Opening;
  method: 'semantic' | 'geometric';
  /** 0–1. */
  confidence: number;
  /** The model element the opening belongs to, when the semantics name it. */
  source?: { id: string; name?: string };
}

/**
 * by_scan mode 1: the door opening a user looks at. The model's own door openings are tried first
 * (skipping any a wall hides from the viewer); when there are none, or none fits the gaze, the
 * geometry is searched (see {@link detectOpening}).
 *
 * @throws {DoorNotFoundError} when neither path finds a door; the geometric path's reason wins, as it looked at what the user sees.
 * @example
 * ```ts
 * const door = detectDoor({ mesh, bvh, candidates, viewer: [2, 1.6, 3], gaze: [0, -0.3, -1] });
 * door.method; // → 'semantic'
 * ```
 */
export function detectDoor(input: DetectDoorInput, options: Partial<DetectDoorOptions> = {}): DetectedDoor {
  const opts = { ...DETECT_DOOR_DEFAULTS, ...options };
  const { mesh, bvh } = input;
  const offset: Vec3 = mesh?.offset ? [mesh.offset[0], mesh.offset[1], mesh.offset[2]] : [0, 0, 0];
  let semanticFailure: DoorNotFoundError | undefined;
  if (input.candidates && input.candidates.length > 0) {
    // Candidates move to world coordinates (float64), where the viewer is.
    const world = input.candidates.map((c) => ({
      ...c,
      corners: c.corners.map((p) => [p[0] + offset[0], p[1] + offset[1], p[2] + offset[2]]) as OpeningCandidate['corners'],
    }));
    try {
      // The viewer in the mesh's own frame, once, for the sight lines.
      const { eye: worldEye } = readViewerAndGaze(input.viewer, input.gaze, opts.coordinateSystem);
      const eye: Vec3 = [worldEye[0] - offset[0], worldEye[1] - offset[1], worldEye[2] - offset[2]];
      const chosen = chooseOpening(world, input.viewer, input.gaze, {
        ...opts.semantic,
        coordinateSystem: opts.coordinateSystem,
        ...(mesh && bvh && { isVisible: (c: OpeningCandidate, centre: Vec3) => isVisible(mesh, bvh, offset, eye, c, centre) }),
      });
      const source = world[chosen.candidate]!.source;
      return { opening: chosen.opening, method: 'semantic', confidence: chosen.confidence, ...(source && { source }) };
    } catch (err) {
      if (!(err instanceof DoorNotFoundError)) throw err;
      semanticFailure = err;
    }
  }
  if (mesh && bvh) {
    const found = detectOpening(mesh, bvh, input.viewer, input.gaze, { ...opts.geometric, coordinateSystem: opts.coordinateSystem });
    return { opening: found.opening, method: 'geometric', confidence: found.confidence };
  }
  throw semanticFailure ?? new DoorNotFoundError('no_door_openings', 'the model has neither door semantics nor geometry to search');
}

/**
 * Whether the viewer (`eye`, in the mesh's frame; `centre` in world) sees an opening: a ray to a point just in front of it (at a quarter,
 * half and
 * three quarters of its width, at mid height) meets nothing on the way. One clear line suffices:
 * an open leaf or a post may hide part of a doorway, not all of it.
 */
function isVisible(mesh: DetectionMesh, bvh: Bvh, offset: Vec3, eye: Vec3, c: OpeningCandidate, centre: Vec3): boolean {
  const [bl, br] = c.corners;
  for (const f of [0.5, 0.25, 0.75]) {
    const target: Vec3 = [0, 0, 0];
    for (let k = 0; k < 3; k++) target[k] = centre[k]! + (f - 0.5) * (br[k]! - bl[k]!) + 0.05 * c.normal[k]! - offset[k]!;
    const d: Vec3 = [target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]];
    const distance = Math.hypot(d[0], d[1], d[2]);
    if (!raycastFirst(bvh, mesh, eye, d, distance)) return true;
  }
  return false;
}
