import { ApiError, badField } from '../errors/ApiError.js';
import type { Form } from './readMultipartForm.js';

/** A text field, or `undefined` when absent. Present but empty counts as absent-with-a-value error. */
export function textField(form: Form, name: string): string | undefined {
  const v = form.fields.get(name);
  if (v !== undefined && v.trim() === '') throw badField(name, 'is empty', 'empty_field');
  return v;
}

/**
 * Every one of `names` must be present: a form missing some is a 400 that lists them all at once
 * (the contract's "missing fields"), before any value is judged for geometry (422).
 */
export function requireFields(form: Form, names: readonly string[]): void {
  const missing = names.filter((name) => !form.fields.has(name));
  if (missing.length === 0) return;
  throw new ApiError(
    400,
    'missing_field',
    `missing required field${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`,
    missing.map((field) => ({ field, message: 'is required' })),
  );
}

/** Parses a JSON value; a field that is not JSON is a 400 naming it. */
function parseJson(name: string, text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badField(
      name,
      `must be ${what} as JSON, e.g. ${what === 'a number' ? '0.9' : '[1.2, 0, -3.4]'}; got ${preview(text)}`,
      'malformed_json',
    );
  }
}

/**
 * A vector of three finite numbers sent as a JSON array, each within `limit` (m) of zero: larger
 * ones are refused by name (`out_of_range`), so no product of them overflows into a pose.
 */
export function vectorField(form: Form, name: string, limit: number): [number, number, number] | undefined {
  const text = textField(form, name);
  if (text === undefined) return undefined;
  return asVector(name, parseJson(name, text, 'an array of 3 numbers'), limit, text);
}

/** A list of `count` points, each three finite numbers within `limit` (m) of zero (JSON). */
export function pointsField(form: Form, name: string, count: number, limit: number): Array<[number, number, number]> | undefined {
  const text = textField(form, name);
  if (text === undefined) return undefined;
  const value = parseJson(name, text, `an array of ${count} points`);
  if (!Array.isArray(value) || value.length !== count) {
    throw badField(name, `must be an array of ${count} points [x, y, z]; got ${describe(value, text)}`, 'wrong_type');
  }
  return value.map((p, i) => asVector(`${name}[${i}]`, p, limit, text, name));
}

/** A finite number (JSON number text) within `limit` of zero. */
export function numberField(form: Form, name: string, limit: number): number | undefined {
  const text = textField(form, name);
  if (text === undefined) return undefined;
  const value = parseJson(name, text, 'a number');
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw badField(name, `must be a finite number; got ${preview(text)}`, 'wrong_type');
  if (Math.abs(value) > limit)
    throw badField(name, `must be within ±${limit} (ARSESSION_MAX_COORDINATE_M); got ${preview(text)}`, 'out_of_range');
  return value;
}

/** One of a fixed set of strings. */
export function enumField<T extends string>(form: Form, name: string, values: readonly T[]): T | undefined {
  const text = textField(form, name);
  if (text === undefined) return undefined;
  if (!(values as readonly string[]).includes(text))
    throw badField(name, `must be one of ${values.join(', ')}; got ${preview(text)}`, 'unknown_value');
  return text as T;
}

/**
 * Refuses fields this endpoint does not read (a typo such as `alignment.point1` must not be
 * ignored). A text field named like one of its `fileFields` is a file sent as its path (curl's
 * `-F model_file=house.ifc`, without the `@`): said so.
 */
export function refuseUnknownFields(
  form: Form,
  known: ReadonlySet<string>,
  knownPrefixes: readonly string[] = [],
  fileFields: readonly string[] = [],
): void {
  const asText = [...form.fields.keys()].find((k) => fileFields.includes(k));
  if (asText !== undefined) {
    const message =
      `${asText} must be a file part, not text (got ${preview(form.fields.get(asText) ?? '')}); ` +
      `with curl, -F ${asText}=@path/to/file (the @ sends the file)`;
    throw new ApiError(400, 'file_sent_as_text', message, [{ field: asText, message: 'must be a file part' }]);
  }
  const unknown = [...form.fields.keys()].filter((k) => !known.has(k) && !knownPrefixes.some((p) => k.startsWith(p)));
  if (unknown.length > 0) {
    throw new ApiError(
      400,
      'unknown_field',
      `this endpoint does not take ${unknown.map((u) => JSON.stringify(u)).join(', ')}`,
      unknown.map((field) => ({ field, message: 'not a field of this endpoint' })),
    );
  }
}

/** `value` as three finite numbers within `limit`; `text`, the field as sent, is what an error quotes. */
function asVector(name: string, value: unknown, limit: number, text: string, parent = name): [number, number, number] {
  if (!Array.isArray(value) || value.length !== 3 || !value.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    throw new ApiError(400, 'wrong_type', `${name}: must be 3 finite numbers [x, y, z]; got ${describe(value, text)}`, [
      { field: parent, message: `${name} must be 3 finite numbers [x, y, z]; got ${describe(value, text)}` },
    ]);
  }
  if (value.some((v: number) => Math.abs(v) > limit)) {
    const message = `${name} must be 3 numbers within ±${limit} (ARSESSION_MAX_COORDINATE_M); got ${describe(value, text)}`;
    throw new ApiError(400, 'out_of_range', message, [{ field: parent, message }]);
  }
  return [value[0], value[1], value[2]];
}

/**
 * A value as an error quotes it: as sent when the field's text is at hand (re-serialised, a
 * number beyond a double such as 1e400 would show as null), else re-serialised.
 */
function describe(value: unknown, text?: string): string {
  if (text !== undefined) return preview(text);
  try {
    return preview(JSON.stringify(value) ?? String(value));
  } catch {
    // JSON.parse reads any depth; JSON.stringify recurses, and 32,000 nested arrays overflow its stack.
    return Array.isArray(value) ? 'an array nested too deeply to show' : 'a value nested too deeply to show';
  }
}

function preview(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}
