import { buildBvh, detectDoor, type DetectedDoor } from '@arsession/geometry';
import { doorCandidates } from '../ifc/doorCandidates.js';
import { sceneTriangles } from '../scene/sceneTriangles.js';
import type { DoorQuery } from '../worker/protocol.js';
import type { ModelScene } from './readModel.js';

/**
 * by_scan mode 1 on a model as read: its IFC door openings first, then its triangles (one tree
 * built for this call; cache `buildBvh(sceneTriangles(scene))` to ask many questions of one model).
 *
 * @throws {DoorNotFoundError} when no door fits; `GeometryValidationError` for an unusable viewer or gaze.
 * @example
 * ```ts
 * const door = detectDoorInScene(await readModel(bytes), { viewer: [2, 1.6, 3], gaze: [0, -0.3, -1], coordinateSystem: 'y-up' });
 * ```
 */
export function detectDoorInScene(scene: ModelScene, query: DoorQuery): DetectedDoor {
  const mesh = sceneTriangles(scene);
  return detectDoor(
    { mesh, bvh: buildBvh(mesh), candidates: doorCandidates(scene.doorOpenings), viewer: query.viewer, gaze: query.gaze },
    { coordinateSystem: query.coordinateSystem },
  );
}
