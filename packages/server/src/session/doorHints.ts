import { DoorNotFoundError } from '@arsession/geometry';
import type { DoorQuery } from '@arsession/convert';
import type { UploadedFile } from '../form/readMultipartForm.js';

/**
 * A door not found, said with what the newcomer most likely got wrong: with several models, that
 * only the first is searched; with Y-up numbers (the default), that numbers copied from a BIM
 * tool are Z-up; and where numbers that work can be had.
 *
 * @example
 * ```ts
 * throw withDoorHints(err, query, uploads[0], uploads.length);
 * ```
 */
export function withDoorHints(err: DoorNotFoundError, query: DoorQuery, searched: UploadedFile, models: number): DoorNotFoundError {
  const hints: string[] = [];
  if (models > 1) hints.push(`only the first model is searched for the door (${searched.name}): send the building first`);
  if (query.coordinateSystem === 'y-up')
    hints.push('if point_1 and point_2 come from a Z-up tool (as BIM tools show a model), send alignment.coordinate_system=z-up');
  hints.push('arsession inspect --json prints a point_1 and point_2 that find each door of an IFC model');
  return new DoorNotFoundError(err.reason, `${err.problems[0]!.message}; ${hints.join('; ')}`);
}
