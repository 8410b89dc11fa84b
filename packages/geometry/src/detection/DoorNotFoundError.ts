import { GeometryValidationError } from '../errors/GeometryValidationError.js';

/**
 * Why automatic door detection found nothing, as a client can act on it:
 * - `no_door_openings`: the model's semantics list no door opening at all;
 * - `no_opening_facing_viewer`: openings exist but none faces the viewer within reach (stand in front of the door);
 * - `no_wall_along_gaze`: the gaze meets no wall (look at the wall that holds the door);
 * - `gaze_grazes_wall`: the gaze runs almost along the wall (face the door);
 * - `no_floor`: nothing to stand on was found below the viewer or the gaze point;
 * - `no_opening_near_gaze`: a wall was found, but no floor-level opening of door size near where the gaze meets it.
 */
export type DoorNotFoundReason =
  | 'no_door_openings'
  | 'no_opening_facing_viewer'
  | 'no_wall_along_gaze'
  | 'gaze_grazes_wall'
  | 'no_floor'
  | 'no_opening_near_gaze';

/** Automatic detection found no opening; `reason` says what the client can do about it. */
export class DoorNotFoundError extends GeometryValidationError {
  readonly reason: DoorNotFoundReason;

  constructor(reason: DoorNotFoundReason, message: string) {
    super('door_not_found', 'No door opening found', [{ field: 'alignment.point_2', code: reason, message }]);
    this.reason = reason;
  }
}
