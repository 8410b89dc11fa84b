import type { ClaimResponse } from '../records/SessionResponse.js';
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { clientKey } from '../admission/UploadGate.js';
import type { ServerContext } from '../app/ServerContext.js';
import { ApiError, badField } from '../errors/ApiError.js';
import { deeplinkOf } from '../session/createSession.js';
import { ONETIME_CODE_DIGITS, readOnetimeCode } from '../session/onetimeCode.js';

/**
 * Seconds within which the client that claimed a code gets the same answer again: its answer may
 * have been lost on a site's flaky network, and without it the session is out of its reach.
 */
export const CLAIM_RETRY_SECONDS = 300;

/**
 * `POST /api/vision/v1/session/claim/`: trades a one-time code (form or JSON; twelve digits,
 * spaces or dashes between groups allowed) for its session, once, while the code lives
 * (ARSESSION_CODE_TTL_S); the client that claimed it, retrying within {@link CLAIM_RETRY_SECONDS},
 * gets the same answer, anyone else 404. Guessing is held per client (its address, or its IPv6
 * /64): attempts a minute, failures an hour and a day. Nothing is counted across clients: failures
 * by others never make a valid code fail (docs/SECURITY.md has the figure that makes guessing not
 * pay; a retry answers only a code its client had already).
 */
export function claimRoute(ctx: ServerContext) {
  return async (req: Request, res: Response): Promise<void> => {
    try {
      ctx.metrics.claim(await claim(ctx, req, res));
    } catch (err) {
      ctx.metrics.claim(err instanceof ApiError ? err.code : 'error');
      throw err;
    }
  };
}

/** Claims the code the request gives; resolves to how (`claimed`, or `retried` by the client that had). */
async function claim(ctx: ServerContext, req: Request, res: Response): Promise<'claimed' | 'retried'> {
  // An IPv6 host holds a whole /64: it is one client however many of its addresses it uses.
  const client = clientKey(req.ip);
  const { perClient, failedPerHour, failedPerDay } = ctx.claimThrottle;
  const wait = Math.max(await perClient.hit(client), await failedPerHour.blockedFor(client), await failedPerDay.blockedFor(client));
  if (wait > 0) {
    throw new ApiError(
      429,
      'too_many_claims',
      `too many one-time-code attempts from this client; retry in ${wait} s`,
      [{ field: 'onetime_code', message: 'throttled' }],
      { 'Retry-After': String(wait) },
    );
  }
  const body = (req.body ?? {}) as Record<string, unknown>;
  const given = body.onetime_code;
  if (given === undefined) throw badField('onetime_code', 'is required', 'missing_field');
  const code = typeof given === 'string' ? readOnetimeCode(given) : undefined;
  if (code === undefined)
    throw badField(
      'onetime_code',
      `must be the ${ONETIME_CODE_DIGITS} digits of the code as a string, e.g. "042199371180" or "0421 9937 1180"`,
      'wrong_type',
    );
  const now = Date.now();
  // The client as a digest: the store keeps who claimed a code, not where they were.
  const claimant = {
    key: createHash('sha256').update(`claimant:${client}`).digest('hex').slice(0, 32),
    retrySince: now - CLAIM_RETRY_SECONDS * 1000,
  };
  const issuedAfter = now - Math.min(ctx.config.codeTtlSeconds, ctx.config.sessionTtlSeconds) * 1000;
  const outcome = await ctx.sessions.claim(code, now, issuedAfter, claimant);
  if (!outcome.ok) {
    await Promise.all([failedPerHour.hit(client), failedPerDay.hit(client)]);
    throw new ApiError(404, 'code_not_found', 'no live session has this one-time code (unknown, already used, or expired)', [
      { field: 'onetime_code', message: 'unknown, used or expired' },
    ]);
  }
  const { id, expiresAt } = outcome.session;
  res.set('Cache-Control', 'no-store').json({
    session_id: id,
    deeplink: deeplinkOf(ctx.config.deeplinkScheme, id),
    expires_at: new Date(expiresAt).toISOString(),
  } satisfies ClaimResponse);
  return outcome.retried ? 'retried' : 'claimed';
}
