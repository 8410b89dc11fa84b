import { ConvertError, UnsupportedFormatError } from '@arsession/convert';
import { DoorNotFoundError, GeometryValidationError } from '@arsession/geometry';
import multer from 'multer';
import { ApiError, type FieldError } from './ApiError.js';
import type { Problem } from '../records/Problem.js';

/** An RFC 9457 problem document, with the field list the contract asks for (declared once, in `records/Problem.ts`). */
export type { Problem } from '../records/Problem.js';

/** Problem `type` URIs: stable names, listed in the error table of docs/SERVER.md. */
export const PROBLEM_TYPE_BASE = 'urn:arsession:problem:';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

const MULTER_STATUS: Record<string, [number, string]> = {
  LIMIT_FILE_SIZE: [413, 'file_too_large'],
  LIMIT_FILE_COUNT: [413, 'too_many_files'],
  LIMIT_FIELD_VALUE: [413, 'field_too_large'],
  LIMIT_PART_COUNT: [413, 'too_many_parts'],
  LIMIT_FIELD_COUNT: [413, 'too_many_fields'],
  LIMIT_FIELD_KEY: [400, 'field_name_too_long'],
  LIMIT_UNEXPECTED_FILE: [400, 'unexpected_file'],
  MISSING_FIELD_NAME: [400, 'missing_field_name'],
};

/**
 * The one place where errors become HTTP answers: every typed error of the server, `geometry`,
 * `convert` and the multipart reader gets its status and a problem document naming the field at
 * fault. Anything else is a bug of ours: 500 with no internals in the body (the log has them).
 *
 * @example
 * ```ts
 * problemFromError(new ApiError(401, 'api_key_missing', 'X-API-Key is required')).status; // → 401
 * ```
 */
export function problemFromError(err: unknown): { problem: Problem; headers: Record<string, string> } {
  const make = (status: number, code: string, detail: string, errors: FieldError[] = [], extra: Pick<Problem, 'reason' | 'file'> = {}) => ({
    problem: { type: PROBLEM_TYPE_BASE + code, title: TITLES[status] ?? 'Error', status, detail, code, errors, ...extra },
    headers: {} as Record<string, string>,
  });
  if (err instanceof ApiError) {
    const out = make(err.status, err.code, err.message, [...err.errors]);
    return { ...out, headers: { ...err.headers } };
  }
  if (err instanceof multer.MulterError) {
    const [status, code] = MULTER_STATUS[err.code] ?? [400, 'invalid_multipart'];
    const field = err.field ?? 'body';
    return make(status, code, `${field}: ${err.message}`, [{ field, message: err.message }]);
  }
  if (err instanceof UnsupportedFormatError)
    return make(415, err.code, err.message, [{ field: err.field, message: err.message }], fileOf(err));
  if (err instanceof ConvertError) {
    return make(422, err.code, err.message, [{ field: err.field, message: err.message }], fileOf(err));
  }
  if (err instanceof GeometryValidationError) {
    const extra = err instanceof DoorNotFoundError ? { reason: err.reason } : {};
    return make(
      422,
      err.code,
      err.message,
      err.problems.map((p) => ({ field: p.field, message: p.message, code: p.code })),
      extra,
    );
  }
  if (err instanceof URIError && (err as URIError & { status?: unknown }).status === 400) {
    // The router could not percent-decode a path segment (`%E0%A4%A`): the client's URL, not our bug.
    return make(400, 'malformed_path', `the request path cannot be decoded: ${err.message}`, [
      { field: 'path', message: 'malformed percent-encoding' },
    ]);
  }
  if (isClientHttpError(err)) {
    // body-parser and friends (http-errors): a 4xx they decided, with a message safe to show.
    const code = err.status === 413 ? 'body_too_large' : err.status === 415 ? 'unsupported_body_encoding' : 'malformed_body';
    return make(err.status, code, `the request body cannot be read: ${err.message}`, [{ field: 'body', message: err.message }]);
  }
  if (isMultipartStreamError(err)) {
    return make(400, 'invalid_multipart', `the multipart body cannot be read: ${err.message}`, [{ field: 'body', message: err.message }]);
  }
  return make(500, 'internal_error', 'the server failed on this request; it has been logged under the request id');
}

function fileOf(err: ConvertError): Pick<Problem, 'file'> {
  return err.fileName !== undefined ? { file: err.fileName } : {};
}

function isClientHttpError(err: unknown): err is Error & { status: number } {
  if (!(err instanceof Error)) return false;
  const { status, expose } = err as { status?: unknown; expose?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500 && expose === true;
}

/** busboy's errors on a broken body (no class of their own). */
function isMultipartStreamError(err: unknown): err is Error {
  return err instanceof Error && /multipart|unexpected end of form|malformed part header|boundary/i.test(err.message);
}
