import { toYUp } from '../axes/upAxis.js';
import { GeometryValidationError, type Problem } from '../errors/GeometryValidationError.js';
import type { UpAxis, Vec3 } from '../types/vector.js';
import { readDirection, readVec3 } from '../validation/readVector.js';

/**
 * by_scan mode 1's two inputs in Y-up: the viewer (point_1) and the gaze direction (point_2,
 * normalised). Both are checked together, so a request with both wrong hears of both.
 *
 * @throws {GeometryValidationError} `invalid_alignment`, naming `alignment.point_1` / `alignment.point_2`.
 */
export function readViewerAndGaze(viewer: unknown, gaze: unknown, system: UpAxis): { eye: Vec3; dir: Vec3 } {
  const problems: Problem[] = [];
  const eye = readVec3(viewer, 'alignment.point_1', problems, 'point_1');
  const dir = readDirection(gaze, 'alignment.point_2', problems, 'point_2');
  if (!eye || !dir) throw new GeometryValidationError('invalid_alignment', 'Invalid viewer or gaze', problems);
  toYUp(eye, eye, system);
  toYUp(dir, dir, system);
  const len = Math.hypot(dir[0], dir[1], dir[2]);
  dir[0] /= len;
  dir[1] /= len;
  dir[2] /= len;
  return { eye, dir };
}
