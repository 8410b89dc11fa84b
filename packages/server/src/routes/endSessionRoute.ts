import type { Request, Response } from 'express';
import type { ServerContext } from '../app/ServerContext.js';
import { authenticate } from '../auth/authenticate.js';
import { ApiError } from '../errors/ApiError.js';
import { SESSION_ID } from './sessionLookup.js';

/**
 * `DELETE /api/vision/v1/session/{session_id}/`: the key that made a session ends it before its
 * expiry (204): its one-time code can no longer be claimed, its files are deleted, its id answers
 * 410 from then on. A session made without a key, or by another account, is 403 `not_your_session`:
 * the id alone is a capability to read, not to end.
 */
export function endSessionRoute(ctx: ServerContext) {
  return async (req: Request, res: Response): Promise<void> => {
    const account = (await authenticate(ctx.sessions, req, true))!;
    const id = String(req.params.id);
    const outcome = SESSION_ID.test(id)
      ? await ctx.sessions.endSession(id, account.id)
      : { ended: false as const, reason: 'unknown' as const };
    if (!outcome.ended) {
      const field = [{ field: 'session_id', message: outcome.reason.replace('_', ' ') }];
      if (outcome.reason === 'unknown') throw new ApiError(404, 'session_not_found', 'no session has this id', field);
      if (outcome.reason === 'expired') throw new ApiError(410, 'session_expired', 'the session has expired (or was ended) already', field);
      throw new ApiError(
        403,
        'not_your_session',
        `the session was not made with a key of the account ${account.name}; only that account's keys can end it`,
        field,
      );
    }
    await ctx.objects.deleteSession(id, outcome.files);
    await ctx.sessions.markFilesDeleted(id);
    res.status(204).end();
  };
}
