import { join } from 'node:path';
import type { ServerContext } from '../app/ServerContext.js';
import { ApiError } from '../errors/ApiError.js';
import type { Form, UploadedFile } from '../form/readMultipartForm.js';
import type { Account } from '../store/SessionStore.js';
import type { SessionStaging } from './SessionStaging.js';

/**
 * A session's model taken from the key's saved models instead of an upload (`model_id`): the
 * account's own model, fetched beside the request's uploads (and removed with them), converted
 * like any upload — or placed from the conversion cache, which knows its bytes. It is not saved
 * again. Without a key, with a model file beside it, or naming no model of the account, it is
 * refused by name.
 *
 * @example
 * ```ts
 * const uploads = form.fields.has('model_id') ? [await savedModelUpload(ctx, form, account, staging)] : readModelUploads(form, maxFiles);
 * ```
 */
export async function savedModelUpload(
  ctx: ServerContext,
  form: Form,
  account: Account | undefined,
  staging: SessionStaging,
): Promise<UploadedFile> {
  const id = form.fields.get('model_id')!;
  const sent = form.files.find((f) => f.field === 'model_file' || f.field === 'model_files');
  if (sent) {
    throw new ApiError(
      400,
      'mutually_exclusive',
      `model_id and ${sent.field} are mutually exclusive: send a saved model's id, or the model itself`,
      [{ field: 'model_id', message: `cannot be sent together with ${sent.field}` }],
    );
  }
  if (!account) {
    throw new ApiError(
      401,
      'api_key_missing',
      'model_id names a saved model: send the X-API-Key of the account that saved it',
      [{ field: 'X-API-Key', message: 'missing' }],
      { 'WWW-Authenticate': 'ApiKey header="X-API-Key"' },
    );
  }
  const model = await ctx.sessions.savedModel(account.id, id);
  if (!model)
    throw new ApiError(
      404,
      'model_not_found',
      `the key's account ${account.name} has no saved model ${JSON.stringify(id)} (GET /api/vision/v1/models/ lists them)`,
      [{ field: 'model_id', message: 'unknown saved model' }],
    );
  const path = join(ctx.paths.uploads, `${staging.sessionId}-saved-model`);
  staging.uploads.push(path);
  await ctx.objects.fetchSavedModel(model.storedAs, path);
  return { field: 'model_id', name: model.sourceName, path, bytes: model.bytes, sha256: model.sha256 };
}
