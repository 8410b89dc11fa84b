import { readViewerAndGaze, validateOpening, type Opening, type UpAxis, type Vec3 } from '@arsession/geometry';
import { ApiError, badField } from '../errors/ApiError.js';
import { directionField, pointField, pointListField, upAxisField } from '../form/FormField.js';
import type { ByScanPlacement } from '../records/Placement.js';
import type { PlacementMethod } from './PlacementMethod.js';
import { deliveredPoint, deliveredPose, round } from './poseJson.js';

/** by_scan's two alignment modes (interface-spec.md). */
type ScanInput = { mode: 'detect'; viewer: Vec3; gaze: Vec3; coordinateSystem: UpAxis } | { mode: 'given'; opening: Opening };

/** by_scan's fields: mode 1 (point_1 + point_2) or mode 2 (corners + wall_normal), in either axis convention. */
const FORM = {
  point1: pointField('alignment.point_1', 'where the user stands'),
  point2: directionField('alignment.point_2', 'the direction of the gaze'),
  corners: pointListField(
    'alignment.corners',
    4,
    'four points [BL, BR, TR, TL] of the clear opening, seen from the side ' +
      "wall_normal points to: [[x, y, z], …], metres, in the submitted model's frame",
  ),
  normal: directionField('alignment.wall_normal', 'the wall normal, toward the viewer'),
  coordinateSystem: upAxisField('alignment.coordinate_system'),
};

/**
 * by_scan: the model is placed by a door opening, either detected from where the user stands and
 * looks (mode 1: point_1 + point_2) or given by its corners and the wall normal (mode 2).
 */
export const byScan: PlacementMethod<ScanInput, ByScanPlacement> = {
  path: 'by_scan',
  method: 'by_scan',
  requiresKey: true,
  form: Object.values(FORM),
  read(form, limit) {
    const coordinateSystem = FORM.coordinateSystem.read(form, limit) ?? 'y-up';
    const point1 = FORM.point1.read(form, limit);
    const point2 = FORM.point2.read(form, limit);
    const corners = FORM.corners.read(form, limit);
    const normal = FORM.normal.read(form, limit);
    const detect = point1 !== undefined || point2 !== undefined;
    const given = corners !== undefined || normal !== undefined;
    if (detect && given) {
      throw new ApiError(
        400,
        'mutually_exclusive',
        'the alignment modes are mutually exclusive: send point_1 + point_2 (detect the door) or corners + wall_normal (door known)',
        [
          {
            field: corners ? 'alignment.corners' : 'alignment.wall_normal',
            message: 'cannot be sent together with alignment.point_1 / point_2',
          },
        ],
      );
    }
    if (detect) {
      if (!point1) throw badField('alignment.point_1', 'is required with alignment.point_2 (where the user stands)', 'missing_field');
      if (!point2) throw badField('alignment.point_2', 'is required with alignment.point_1 (the direction of the gaze)', 'missing_field');
      readViewerAndGaze(point1, point2, coordinateSystem); // a zero gaze is refused before any conversion
      return { mode: 'detect', viewer: point1, gaze: point2, coordinateSystem };
    }
    if (given) {
      if (!corners) throw badField('alignment.corners', 'is required with alignment.wall_normal', 'missing_field');
      if (!normal) throw badField('alignment.wall_normal', 'is required with alignment.corners', 'missing_field');
      return { mode: 'given', opening: validateOpening({ corners, wallNormal: normal, coordinateSystem }) };
    }
    throw new ApiError(
      400,
      'missing_field',
      'the alignment object is required: alignment.point_1 + alignment.point_2, or alignment.corners + alignment.wall_normal',
      [{ field: 'alignment', message: 'send point_1 + point_2, or corners + wall_normal' }],
    );
  },
  doorQuery: (input) =>
    input.mode === 'detect' ? { viewer: input.viewer, gaze: input.gaze, coordinateSystem: input.coordinateSystem } : undefined,
  place(input, { primary }) {
    const door = input.mode === 'detect' ? primary.door : undefined;
    const opening = input.mode === 'given' ? input.opening : door?.opening;
    if (!opening) throw new Error('by_scan: the worker answered without the door it was asked to find');
    const offset = primary.offset;
    return {
      method: 'by_scan',
      found: input.mode === 'given' ? 'given' : 'detected',
      corners: opening.corners.map((c) => deliveredPoint(c, offset)),
      wall_normal: round(opening.wallNormal, 1e9),
      width: round([opening.width])[0]!,
      height: round([opening.height])[0]!,
      frame: deliveredPose(opening.frame, offset),
      ...(door && { detection: { method: door.method, confidence: door.confidence, source: door.source ?? null } }),
    };
  },
};
