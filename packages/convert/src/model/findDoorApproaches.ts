import { buildBvh, detectDoor } from '@arsession/geometry';
import { doorApproaches } from '../ifc/doorApproaches.js';
import { doorCandidates } from '../ifc/doorCandidates.js';
import type { DoorOpeningRecord } from '../ifc/DoorOpeningRecord.js';
import { sceneTriangles } from '../scene/sceneTriangles.js';
import type { ModelScene } from './readModel.js';

/** Options of {@link findDoorApproaches}. */
export interface FindDoorApproachesOptions {
  /** Distances in front of a face to try, in order (m): the usual 2 m, then nearer and farther spots. */
  distances: readonly number[];
}

/** Defaults of {@link findDoorApproaches}. */
export const FIND_DOOR_APPROACHES_DEFAULTS: Readonly<FindDoorApproachesOptions> = { distances: [2, 1.2, 3, 0.8, 1.6, 2.5, 4] };

/**
 * Each door opening of a model with, on each face, the distance from which by_scan mode 1 detects
 * that very door (`viewerDistance`; null when none tried does): found by running the detector the
 * server runs, on the same scene, so numbers printed from it work when sent. A spot 2 m in front
 * of a door can be inside a wall of a narrow hall, or behind a cupboard.
 *
 * @example
 * ```ts
 * const doors = findDoorApproaches(scene); // then doorApproaches(doors[0], scene.offset)
 * ```
 */
export function findDoorApproaches(scene: ModelScene, options: Partial<FindDoorApproachesOptions> = {}): DoorOpeningRecord[] {
  const { distances } = { ...FIND_DOOR_APPROACHES_DEFAULTS, ...options };
  const records = scene.doorOpenings ?? [];
  if (records.length === 0) return [];
  const mesh = sceneTriangles(scene);
  const input = { mesh, bvh: buildBvh(mesh), candidates: doorCandidates(records) };
  const detects = (record: DoorOpeningRecord, face: number, distance: number): boolean => {
    const probe = { ...record, faces: record.faces.map((f) => ({ ...f, viewerDistance: distance })) };
    const { viewer, gaze } = doorApproaches(probe, scene.offset)[face]!;
    try {
      return detectDoor({ ...input, viewer, gaze }).source?.id === record.door.globalId;
    } catch {
      return false;
    }
  };
  return records.map((record) => ({
    ...record,
    faces: record.faces.map((f, face) => ({ ...f, viewerDistance: distances.find((d) => detects(record, face, d)) ?? null })),
  }));
}
