import type { Request, Response } from 'express';
import type { ServerContext } from '../app/ServerContext.js';
import { authenticate } from '../auth/authenticate.js';

/** `GET /api/vision/v1/models/`: the models saved to the key's account, newest first. */
export function modelsRoute(ctx: ServerContext) {
  return async (req: Request, res: Response): Promise<void> => {
    const account = (await authenticate(ctx.sessions, req, true))!;
    const models = (await ctx.sessions.savedModels(account.id)).map((m) => ({
      id: m.id, session_id: m.sessionId, source_name: m.sourceName, format: m.format, bytes: m.bytes, sha256: m.sha256, created_at: m.createdAt,
    }));
    res.set('Cache-Control', 'no-store').json({ account: account.name, models });
  };
}
