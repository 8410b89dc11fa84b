/**
 * A form field's value as the session endpoints take it: text; a JSON value (a point, four corners,
 * a number), sent as its JSON text; or a file (several for `model_files`).
 */
export type FormValue = string | number | JsonArray | { readonly [key: string]: unknown } | Blob | readonly Blob[] | undefined;
type JsonArray = readonly (number | JsonArray)[];

/**
 * The request body as it goes on the wire: a session form — one that names its model by a file or
 * a saved model's `model_id` — is multipart/form-data (each File under its own name, a Blob under
 * the field's, a value that is not text as its JSON text); anything else is JSON, which is what the
 * claim takes. A `FormData` goes as it is.
 *
 * @example
 * ```ts
 * const form = multipartBody({ model_file: new File([bytes], 'house.ifc'), 'alignment.point_1': [7.65, 1.2, -5] });
 * form instanceof FormData; // true; alignment.point_1 is "[7.65,1.2,-5]"
 * ```
 */
export function multipartBody(body: unknown): FormData | string {
  if (body instanceof FormData) return body;
  if (!isForm(body)) return JSON.stringify(body);
  const form = new FormData();
  for (const [field, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (value instanceof Blob) form.append(field, value, value instanceof File ? value.name : field);
    else if (Array.isArray(value) && value.some((p) => p instanceof Blob)) {
      for (const part of value as readonly Blob[]) form.append(field, part, part instanceof File ? part.name : field);
    } else form.append(field, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form;
}

function isForm(body: unknown): body is Record<string, FormValue> {
  if (typeof body !== 'object' || body === null) return false;
  return 'model_id' in body || Object.values(body).some((v) => v instanceof Blob || (Array.isArray(v) && v.some((p) => p instanceof Blob)));
}
