import { DoorNotFoundError, GeometryValidationError, type DoorNotFoundReason } from '@arsession/geometry/errors';
import {
  ConversionMemoryError,
  ConvertError,
  MeshNodeLimitError,
  ModelTooLargeError,
  ModelUnreadableError,
  UnsupportedFormatError,
  UsdzPackageError,
} from '../errors/ConvertError.js';
import type { SerializedConvertError } from './protocol.js';

/** An error a conversion may end with: the caller's fault, typed, and the same on both sides of the thread boundary. */
export type CrossingError = ConvertError | GeometryValidationError;

/**
 * The one table of errors that cross from a conversion worker to its host: how each class is
 * rebuilt from what travelled. A class missing here arrives as its nearest base (ConvertError or
 * GeometryValidationError), never as a plain Error.
 */
const REVIVE: Record<string, (e: SerializedConvertError) => CrossingError> = {
  MeshNodeLimitError: (e) => new MeshNodeLimitError(e.count!, e.limit!, named(e)),
  ModelTooLargeError: (e) => new ModelTooLargeError(e.count!, e.limit!, named(e)),
  ConversionMemoryError: (e) => new ConversionMemoryError(e.limit!, named(e)),
  UnsupportedFormatError: (e) => new UnsupportedFormatError(e.message, named(e)),
  ModelUnreadableError: (e) => new ModelUnreadableError(e.message, named(e)),
  UsdzPackageError: (e) => new UsdzPackageError(e.rule ?? 'unknown', e.message, named(e)),
  ConvertError: (e) => new ConvertError(e.code, e.message, named(e)),
  DoorNotFoundError: (e) => new DoorNotFoundError(e.reason as DoorNotFoundReason, e.problems![0]!.message),
  GeometryValidationError: (e) => new GeometryValidationError(e.code, 'Invalid input', e.problems!),
};

/**
 * What of an error travels to the host (in the worker): its class name and its data fields, or
 * `undefined` for anything that is not a {@link CrossingError} (a bug of ours, which the worker lets
 * crash it).
 *
 * @example
 * ```ts
 * const error = serializeError(err); if (error) return { ok: false, error };
 * ```
 */
export function serializeError(err: unknown): SerializedConvertError | undefined {
  if (err instanceof GeometryValidationError) {
    return {
      className: err.name,
      code: err.code,
      message: err.message,
      field: err.field,
      problems: [...err.problems],
      ...(err instanceof DoorNotFoundError && { reason: err.reason }),
    };
  }
  if (!(err instanceof ConvertError)) return undefined;
  const extra = err as ConvertError & { count?: number; limit?: number; rule?: string };
  return {
    className: err.name,
    code: err.code,
    message: err.message,
    field: err.field,
    ...(err.fileName !== undefined && { fileName: err.fileName }),
    ...(extra.count !== undefined && { count: extra.count }),
    ...(extra.limit !== undefined && { limit: extra.limit }),
    ...(extra.rule !== undefined && { rule: extra.rule }),
  };
}

/**
 * The error again, as its own class (in the host).
 *
 * @example
 * ```ts
 * if (!reply.ok) throw reviveError(reply.error);
 * ```
 */
export function reviveError(e: SerializedConvertError): CrossingError {
  const revive = REVIVE[e.className] ?? (e.problems ? REVIVE.GeometryValidationError! : REVIVE.ConvertError!);
  return revive(e);
}

function named(e: SerializedConvertError): { field: string; fileName?: string } {
  return { field: e.field, ...(e.fileName !== undefined && { fileName: e.fileName }) };
}
