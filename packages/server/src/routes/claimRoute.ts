import type { Request, Response } from 'express';
import { clientKey } from '../admission/UploadGate.js';
import type { ServerContext } from '../app/ServerContext.js';
import { ApiError, badField } from '../errors/ApiError.js';
import { deeplinkOf } from '../session/createSession.js';

/**
 * `POST /api/vision/v1/session/claim/`: trades a one-time code (form or JSON) for its session,
 * once. Guessing is throttled twice: per client address, and across all clients on failures, so a
 * botnet cannot sweep the 10⁶ codes either.
 */
export function claimRoute(ctx: ServerContext) {
  return async (req: Request, res: Response): Promise<void> => {
    try {
      await claim(ctx, req, res);
      ctx.metrics.claim('claimed');
    } catch (err) {
      ctx.metrics.claim(err instanceof ApiError ? err.code : 'error');
      throw err;
    }
  };
}

async function claim(ctx: ServerContext, req: Request, res: Response): Promise<void> {
  // An IPv6 host holds a whole /64: it is one client however many of its addresses it uses.
  const client = clientKey(req.ip);
  const { perClient, failures } = ctx.claimThrottle;
  const wait = Math.max(await perClient.hit(client), await failures.blockedFor('all'));
  if (wait > 0) {
    throw new ApiError(429, 'too_many_claims', `too many one-time-code attempts; retry in ${wait} s`, [{ field: 'onetime_code', message: 'throttled' }], { 'Retry-After': String(wait) });
  }
  const body = (req.body ?? {}) as Record<string, unknown>;
  const code = body.onetime_code;
  if (code === undefined) throw badField('onetime_code', 'is required', 'missing_field');
  if (typeof code !== 'string' || !/^\d{6}$/.test(code)) throw badField('onetime_code', 'must be 6 digits as a string, e.g. "042917"', 'wrong_type');
  const outcome = await ctx.sessions.claim(code);
  if (!outcome.ok) {
    await failures.hit('all');
    throw new ApiError(404, 'code_not_found', 'no live session has this one-time code (unknown, already used, or expired)', [{ field: 'onetime_code', message: 'unknown, used or expired' }]);
  }
  const { id, expiresAt } = outcome.session;
  res.set('Cache-Control', 'no-store').json({ session_id: id, deeplink: deeplinkOf(ctx.config.deeplinkScheme, id), expires_at: new Date(expiresAt).toISOString() });
}
