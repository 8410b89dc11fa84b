import { gunzipSync } from 'node:zlib';
import type { ElementRecords } from '@arsession/convert';
import type { Request, Response } from 'express';
import type { ServerContext } from '../app/ServerContext.js';
import { ApiError } from '../errors/ApiError.js';
import { liveSession } from './sessionLookup.js';

/** Sessions whose element records are kept parsed: a tapping app asks for one element after another. */
const KEPT_SESSIONS = 4;

/** Longest id looked up: an IFC GlobalId has 22 characters, a USD prim path rarely a few hundred. */
const MAX_ID_LENGTH = 1024;

/**
 * `GET /api/vision/v1/session/{id}/elements/{global_id}`: one element's record as the model states
 * it (class, name, type, storey, materials, property sets, quantities), with the `order` of the
 * model it belongs to; 404 `element_not_found` naming the id. The id is what the delivered files
 * carry: a GlobalId, unique across models, or a GLB node pointer or USD prim path, unique only
 * within one, so `?order=` names the model (else the first that has it). Read from the session's
 * element records file (`element_records.url`), kept parsed for the few sessions asked last.
 *
 * @example
 * ```ts
 * app.get(`${API}/session/:id/elements/:globalId`, elementRoute(ctx));
 * ```
 */
export function elementRoute(ctx: ServerContext) {
  const kept = new Map<string, Promise<ElementRecords>>();
  const recordsOf = (sessionId: string, file: string): Promise<ElementRecords> => {
    const key = `${sessionId}/${file}`;
    const records =
      kept.get(key) ??
      ctx.objects.readSessionFile(sessionId, file).then((bytes) => JSON.parse(gunzipSync(bytes).toString('utf8')) as ElementRecords);
    kept.delete(key);
    // Most recently asked last; the oldest goes when more are kept than allowed.
    kept.set(key, records);
    while (kept.size > KEPT_SESSIONS) kept.delete(kept.keys().next().value!);
    records.catch(() => kept.delete(key));
    return records;
  };
  return async (req: Request, res: Response): Promise<void> => {
    const session = await liveSession(ctx.sessions, String(req.params.id));
    const globalId = String(req.params.globalId);
    const order = orderOf(req.query.order, session.assets.length);
    const assets = session.assets.filter((a) => order === undefined || a.order === order);
    for (const asset of globalId.length <= MAX_ID_LENGTH ? assets : []) {
      const file = asset.info.element_records?.file;
      if (!file) continue;
      const { elements } = await recordsOf(session.id, file);
      // Own keys only: `__proto__` or `constructor` name no element.
      const record = Object.hasOwn(elements, globalId) ? elements[globalId] : undefined;
      if (record) {
        res.set('Cache-Control', 'private, max-age=300').json({ order: asset.order, ...record });
        return;
      }
    }
    const named = globalId.length <= MAX_ID_LENGTH ? JSON.stringify(globalId) : `${JSON.stringify(globalId.slice(0, MAX_ID_LENGTH))}…`;
    const where = order === undefined ? 'this session' : `model ${order} of this session`;
    throw new ApiError(404, 'element_not_found', `no element of ${where} has the id ${named}`, [
      { field: 'global_id', message: 'unknown element' },
    ]);
  };
}

/** The `order` query parameter: a model of the session, by its place in `model_assets`. */
function orderOf(raw: unknown, models: number): number | undefined {
  if (raw === undefined) return undefined;
  const order = typeof raw === 'string' && /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(order < models)) {
    throw new ApiError(
      400,
      'out_of_range',
      `order must name one of the session's ${models} models (0…${models - 1}), got ${JSON.stringify(raw)}`,
      [{ field: 'order', message: `expected 0…${models - 1}` }],
    );
  }
  return order;
}
