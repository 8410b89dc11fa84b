import type { Request, Response } from 'express';
import type { ServerContext } from '../app/ServerContext.js';
import { authenticate } from '../auth/authenticate.js';
import { ApiError } from '../errors/ApiError.js';
import type { SavedModel, SavedModelCursor } from '../store/SessionStore.js';
import { contentDisposition } from '../files/downloadName.js';
import type { SavedModelOnWire, SavedModelsOnWire } from '../records/SavedModelOnWire.js';

/** Saved models a page holds when the request does not say. */
export const SAVED_MODELS_PAGE = 100;
/** The most a page may hold. */
export const SAVED_MODELS_PAGE_MAX = 1000;

/**
 * `GET /api/vision/v1/models/?limit=&cursor=`: a page of the models saved to the key's account,
 * newest first. The cursor is opaque to clients: where the page before ended.
 */
export function modelsRoute(ctx: ServerContext) {
  return async (req: Request, res: Response): Promise<void> => {
    const account = (await authenticate(ctx.sessions, req, true))!;
    const limit = pageLimit(req.query.limit);
    const after = cursorOf(req.query.cursor);
    const page = await ctx.sessions.savedModels(account.id, { limit, ...(after && { after }) });
    const body: SavedModelsOnWire = {
      account: account.name,
      models: page.models.map(savedModelOnWire),
      next_cursor: page.next ? Buffer.from(JSON.stringify([page.next.createdAt, page.next.id])).toString('base64url') : null,
    };
    res.set('Cache-Control', 'no-store').json(body);
  };
}

/**
 * `DELETE /api/vision/v1/models/{model_id}`: forgets one of the key's saved models and deletes its
 * file (204). Another account's model is as unknown as one that never was (404), so ids tell
 * nothing about other accounts.
 */
export function deleteModelRoute(ctx: ServerContext) {
  return async (req: Request, res: Response): Promise<void> => {
    const account = (await authenticate(ctx.sessions, req, true))!;
    const storedAs = await ctx.sessions.deleteSavedModel(account.id, String(req.params.id));
    if (storedAs === undefined) {
      throw new ApiError(404, 'model_not_found', `the key's account ${account.name} has no saved model of this id`, [
        { field: 'model_id', message: 'unknown saved model' },
      ]);
    }
    // The row is gone first: a file left by a failure here is an orphan the clean-up removes.
    await ctx.objects.deleteSavedModels([storedAs]);
    res.status(204).end();
  };
}

/** What a saved model is served as, by the format it was read as. */
const MODEL_TYPES: Readonly<Record<string, string>> = {
  ifc: 'application/x-step',
  ifczip: 'application/zip',
  glb: 'model/gltf-binary',
  usdz: 'model/vnd.usdz+zip',
};

/** `GET /api/vision/v1/models/{model_id}`: one of the key's saved models (another account's is unknown, 404). */
export function modelRoute(ctx: ServerContext) {
  return async (req: Request, res: Response): Promise<void> => {
    res.set('Cache-Control', 'no-store').json(savedModelOnWire(await ownModel(ctx, req)));
  };
}

/**
 * `GET /api/vision/v1/models/{model_id}/file`: the saved model's bytes as uploaded, under its own
 * name, with its SHA-256 as a strong ETag; only to its account's keys.
 */
export function modelFileRoute(ctx: ServerContext) {
  return async (req: Request, res: Response): Promise<void> => {
    const model = await ownModel(ctx, req);
    const etag = `"${model.sha256}"`;
    res.set({ ETag: etag, 'Cache-Control': 'private, no-cache' });
    if (req.get('If-None-Match') === etag) {
      res.status(304).end();
      return;
    }
    await ctx.objects.sendSavedModel(res, model.storedAs, model.bytes, {
      'Content-Type': MODEL_TYPES[model.format] ?? 'application/octet-stream',
      'Content-Disposition': contentDisposition(model.sourceName),
    });
  };
}

async function ownModel(ctx: ServerContext, req: Request) {
  const account = (await authenticate(ctx.sessions, req, true))!;
  const model = await ctx.sessions.savedModel(account.id, String(req.params.id));
  if (!model)
    throw new ApiError(404, 'model_not_found', `the key's account ${account.name} has no saved model of this id`, [
      { field: 'model_id', message: 'unknown saved model' },
    ]);
  return model;
}

function savedModelOnWire(m: SavedModel): SavedModelOnWire {
  return {
    id: m.id,
    session_id: m.sessionId,
    source_name: m.sourceName,
    format: m.format,
    bytes: m.bytes,
    sha256: m.sha256,
    created_at: m.createdAt,
  };
}

function pageLimit(raw: unknown): number {
  if (raw === undefined) return SAVED_MODELS_PAGE;
  const limit = typeof raw === 'string' && /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= SAVED_MODELS_PAGE_MAX)) {
    throw new ApiError(400, 'out_of_range', `limit must be a whole number from 1 to ${SAVED_MODELS_PAGE_MAX}, got ${JSON.stringify(raw)}`, [
      { field: 'limit', message: `expected 1…${SAVED_MODELS_PAGE_MAX}` },
    ]);
  }
  return limit;
}

function cursorOf(raw: unknown): SavedModelCursor | undefined {
  if (raw === undefined) return undefined;
  const refused = () =>
    new ApiError(400, 'invalid_cursor', 'cursor must be a next_cursor this endpoint returned, unchanged', [
      { field: 'cursor', message: 'not a cursor this endpoint made' },
    ]);
  if (typeof raw !== 'string' || raw.length > 200) throw refused();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw refused();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || !Number.isSafeInteger(parsed[0]) || typeof parsed[1] !== 'string') throw refused();
  return { createdAt: parsed[0] as number, id: parsed[1] as string };
}
