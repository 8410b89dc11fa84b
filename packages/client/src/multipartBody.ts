/** A form field's value as the session endpoints take it: text, or a file (several for `model_files`). */
export type FormValue = string | Blob | readonly Blob[] | undefined;

/**
 * The request body as it goes on the wire: a form with a file in it is multipart/form-data (each
 * File under its own name, a Blob under the field's), anything else JSON, which is what the claim
 * takes. The session endpoints read only multipart forms, so a form without a file is still sent
 * as one when it is a `FormData`.
 *
 * @example
 * ```ts
 * const form = multipartBody({ model_file: new File([bytes], 'house.ifc'), 'conversion.mode': 'auto' });
 * form instanceof FormData; // true
 * ```
 */
export function multipartBody(body: unknown): FormData | string {
  if (body instanceof FormData) return body;
  if (!isForm(body)) return JSON.stringify(body);
  const form = new FormData();
  for (const [field, value] of Object.entries(body)) {
    if (value === undefined) continue;
    for (const part of Array.isArray(value) ? value : [value]) {
      if (typeof part === 'string') form.append(field, part);
      else form.append(field, part as Blob, part instanceof File ? part.name : field);
    }
  }
  return form;
}

function isForm(body: unknown): body is Record<string, FormValue> {
  if (typeof body !== 'object' || body === null) return false;
  return Object.values(body).some((v) => v instanceof Blob || (Array.isArray(v) && v.some((p) => p instanceof Blob)));
}
