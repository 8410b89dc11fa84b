import fc from 'fast-check';
import { DoorNotFoundError, GeometryValidationError } from '@arsession/geometry';
import { describe, expect, it } from 'vitest';
import {
  ConvertError,
  MeshNodeLimitError,
  ModelUnreadableError,
  reviveError,
  serializeError,
  UnsupportedFormatError,
  UsdzPackageError,
} from '../src/index.js';

/** Every error class a conversion may end with, built from arbitrary data. */
const anyCrossingError = fc
  .record({
    message: fc.string(),
    fileName: fc.option(fc.string(), { nil: undefined }),
    field: fc.constantFrom('model_file', 'model_files', 'alignment.point_2'),
    count: fc.nat(),
    rule: fc.string({ minLength: 1 }),
    pick: fc.nat({ max: 6 }),
  })
  .map(({ message, fileName, field, count, rule, pick }) => {
    const named = { field, ...(fileName !== undefined && { fileName }) };
    return [
      new ConvertError('some_code', message, named),
      new UnsupportedFormatError(message, named),
      new ModelUnreadableError(message, named),
      new MeshNodeLimitError(count + 5001, 5000, named),
      new UsdzPackageError(rule, message, named),
      new GeometryValidationError('invalid_alignment', 'Invalid input', [{ field, code: 'not_finite', message: message || 'x' }]),
      new DoorNotFoundError('no_wall_along_gaze', message || 'no wall'),
    ][pick]!;
  });

describe('errors across the worker boundary', () => {
  it('come back as their own class with every field they carry', () => {
    fc.assert(
      fc.property(anyCrossingError, (err) => {
        // What crosses is plain data (structured clone keeps exactly that).
        const back = reviveError(structuredClone(serializeError(err)!));
        expect(back.constructor).toBe(err.constructor);
        expect({ ...back, message: back.message }).toEqual({ ...err, message: err.message });
      }),
    );
  });

  it('anything else is not serialized (a bug of ours crashes the worker instead)', () => {
    expect([new Error('x'), new TypeError('y'), 'text', undefined].map(serializeError)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
