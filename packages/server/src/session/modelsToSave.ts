import type { ServerContext } from '../app/ServerContext.js';
import { ApiError } from '../errors/ApiError.js';
import type { UploadedFile } from '../form/readMultipartForm.js';
import type { Account } from '../store/SessionStore.js';

/**
 * The uploads of a keyed request that its account will keep: one per content it does not keep
 * already (the same file sent again, or twice in one request, is stored once), held to the
 * account's quota before anything is converted — 429 `saved_models_count_quota` past
 * ARSESSION_SAVED_MODELS_PER_ACCOUNT models, 413 `saved_models_bytes_quota` past
 * ARSESSION_SAVED_MODELS_PER_ACCOUNT_MB. Two requests racing can each pass the check; the quota
 * may then be passed by what they carry, never more.
 *
 * @example
 * ```ts
 * const saving = account ? await modelsToSave(ctx, account, uploads) : [];
 * ```
 */
export async function modelsToSave(ctx: ServerContext, account: Account, uploads: readonly UploadedFile[]): Promise<UploadedFile[]> {
  const usage = await ctx.sessions.savedModelUsage(account.id, [...new Set(uploads.map((u) => u.sha256))]);
  const seen = new Set(usage.present);
  const saving = uploads.filter((u) => !seen.has(u.sha256) && seen.add(u.sha256));
  const { savedModelsPerAccount: maxCount, savedModelBytesPerAccount: maxBytes } = ctx.config;
  const bytes = saving.reduce((sum, u) => sum + u.bytes, 0);
  const room = 'delete some (DELETE /api/vision/v1/models/{id}; GET /api/vision/v1/models/ lists them)';
  if (usage.count + saving.length > maxCount) {
    throw new ApiError(
      429,
      'saved_models_count_quota',
      `the key's account ${account.name} keeps ${usage.count} saved models; ${saving.length} ` +
        `more would pass its quota of ${maxCount} (ARSESSION_SAVED_MODELS_PER_ACCOUNT): ${room}`,
      [{ field: 'X-API-Key', message: `over ${maxCount} saved models` }],
    );
  }
  if (usage.bytes + bytes > maxBytes) {
    throw new ApiError(
      413,
      'saved_models_bytes_quota',
      `the key's account ${account.name} keeps ${megabytes(usage.bytes)} of saved models; these ${megabytes(bytes)} ` +
        `would pass its quota of ${megabytes(maxBytes)} (ARSESSION_SAVED_MODELS_PER_ACCOUNT_MB): ${room}`,
      [{ field: saving[0]!.field, message: `over the ${megabytes(maxBytes)} of saved models` }],
    );
  }
  return saving;
}

/** In the unit of ARSESSION_SAVED_MODELS_PER_ACCOUNT_MB (MiB). */
function megabytes(bytes: number): string {
  return `${+(bytes / 1024 / 1024).toFixed(2)} MB`;
}
