/** One request field at fault, as problem+json's `errors` lists it. */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * An HTTP failure the server decided on (form rules, authentication, limits, state). Errors from
 * `geometry` and `convert` keep their own classes; `problemFromError` maps them all in one place.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** Stable, machine-readable; the last segment of the problem `type`. */
    readonly code: string,
    message: string,
    readonly errors: readonly FieldError[] = [],
    /** Extra response headers, e.g. `Retry-After`. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** 400 naming one field. */
export function badField(field: string, message: string, code = 'invalid_field'): ApiError {
  return new ApiError(400, code, `${field}: ${message}`, [{ field, message }]);
}
