import type { Vec3 } from '@arsession/geometry';
import type { Schema } from '../openapi/components.js';
import { enumField, numberField, pointsField, requireFields, textField, vectorField } from './fieldValues.js';
import type { Form } from './readMultipartForm.js';

/**
 * A field of a session endpoint's form, declared once: its name, whether it must be sent, its
 * OpenAPI property (what it holds and means) and how its value is read and judged. An endpoint's
 * accepted fields, its file parts, its required list and the document's request body all come
 * from its declarations; what a schema cannot state (two modes that exclude each other, a
 * frame's geometry) stays in the placement method.
 */
export interface FormField<T = unknown> {
  name: string;
  required: boolean;
  /** A file part (a model, the reference image), not a text field. */
  file: boolean;
  /** The field's property in the request body's schema. */
  schema: Schema;
  /** Its value, read and judged (a bad one is refused by name, 400); `undefined` when not sent. */
  read(form: Form, limit: number): T | undefined;
}

/** How a field is declared: whether it must be sent (default: not). */
interface FieldOptions {
  required?: boolean;
}

// A form field holding JSON says what the JSON is (contentSchema): @arsession/client types such a
// field as that value or its text, so a 2-vector or a number array sent as "0,1,0" fails to compile.
const XYZ: Schema = { type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3 };
const jsonArray = (description: string, contentSchema: Schema): Schema => ({
  type: 'string',
  contentMediaType: 'application/json',
  contentSchema,
  description: `${description} (a JSON array sent as a string)`,
});

const text = <T>(name: string, schema: Schema, read: FormField<T>['read'], { required = false }: FieldOptions): FormField<T> => ({
  name,
  required,
  file: false,
  schema,
  read,
});

/** A point of the submitted model: `[x, y, z]`, metres, each within the coordinate limit. */
export function pointField(name: string, description: string, options: FieldOptions = {}): FormField<Vec3> {
  const schema = jsonArray(`${description}: [x, y, z], metres, in the submitted model's frame`, XYZ);
  return text(name, schema, (form, limit) => vectorField(form, name, limit), options);
}

/** A direction: `[x, y, z]`, any length but zero (judged by the geometry that uses it). */
export function directionField(name: string, description: string, options: FieldOptions = {}): FormField<Vec3> {
  const schema = jsonArray(`${description}: [x, y, z]; need not be unit length`, XYZ);
  return text(name, schema, (form, limit) => vectorField(form, name, limit), options);
}

/** `count` points of the submitted model, each `[x, y, z]`. */
export function pointListField(name: string, count: number, description: string, options: FieldOptions = {}): FormField<Vec3[]> {
  const schema = jsonArray(description, { type: 'array', items: XYZ, minItems: count, maxItems: count });
  return text(name, schema, (form, limit) => pointsField(form, name, count, limit), options);
}

/** A number sent as JSON (metres), within the coordinate limit. */
export function metresField(name: string, description: string, options: FieldOptions = {}): FormField<number> {
  const schema: Schema = {
    type: 'string',
    contentMediaType: 'application/json',
    contentSchema: { type: 'number' },
    description: `${description} (a JSON number)`,
  };
  return text(name, schema, (form, limit) => numberField(form, name, limit), options);
}

/** One of `values`; `extra` adds to its property (a default, a description). */
export function choiceField<const T extends string>(
  name: string,
  values: readonly T[],
  extra: Schema,
  options: FieldOptions = {},
): FormField<T> {
  return text(name, { type: 'string', enum: [...values], ...extra }, (form) => enumField(form, name, values), options);
}

/** The axis convention of a form's coordinates: `y-up` (the default) or `z-up`. */
export function upAxisField(name: string): FormField<'y-up' | 'z-up'> {
  return choiceField(
    name,
    ['y-up', 'z-up'],
    { default: 'y-up', description: 'axis convention of the coordinates sent; z-up (x, y, z) becomes (x, z, −y)' },
    { required: false },
  );
}

/** A text field read as it was sent (its own reader judges it: the conversion block). */
export function plainField(name: string, schema: Schema, options: FieldOptions = {}): FormField<string> {
  return text(name, schema, (form) => textField(form, name), options);
}

/** A file part; its parts are read from the form's files by the endpoint (there may be rules on how many). */
export function fileField(name: string, schema: Schema, options: FieldOptions = {}): FormField<never> {
  return { name, required: options.required ?? false, file: true, schema, read: () => undefined };
}

/**
 * The properties and required list of a request body made of `fields`, as the OpenAPI document
 * states a `multipart/form-data` schema.
 *
 * @example
 * ```ts
 * formSchema([pointField('anchor.center', 'centre', { required: true })]);
 * // → { type: 'object', properties: { 'anchor.center': … }, required: ['anchor.center'] }
 * ```
 */
export function formSchema(fields: readonly FormField[]): Schema {
  const required = fields.filter((f) => f.required).map((f) => f.name);
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f.name, f.schema])),
    ...(required.length > 0 && { required }),
  };
}

/** The names of `fields` that are text fields, and of those that are file parts. */
export function fieldNames(fields: readonly FormField[]): { text: string[]; files: string[] } {
  return { text: fields.filter((f) => !f.file).map((f) => f.name), files: fields.filter((f) => f.file).map((f) => f.name) };
}

/**
 * Every required text field of `fields` must be present: a form missing some is one 400 that
 * lists them all, before any value is judged for geometry (422).
 */
export function requireTextFields(form: Form, fields: readonly FormField[]): void {
  requireFields(
    form,
    fields.filter((f) => f.required && !f.file).map((f) => f.name),
  );
}
