import type { Request } from 'express';
import { ApiError } from '../errors/ApiError.js';
import type { Account, SessionStore } from '../store/SessionStore.js';

const CHALLENGE = { 'WWW-Authenticate': 'ApiKey header="X-API-Key"' };

/**
 * The account behind `X-API-Key`. A missing key is a 401 only where one is required (all but
 * by_plane); a key that is sent but not valid is always a 401 — never quietly anonymous.
 */
export async function authenticate(
  store: Pick<SessionStore, 'authenticate'>,
  req: Request,
  required: boolean,
): Promise<Account | undefined> {
  const key = req.get('X-API-Key');
  if (key === undefined || key === '') {
    if (!required) return undefined;
    throw new ApiError(
      401,
      'api_key_missing',
      'this endpoint needs an API key in the X-API-Key header',
      [{ field: 'X-API-Key', message: 'missing' }],
      CHALLENGE,
    );
  }
  const account = await store.authenticate(key);
  if (!account)
    throw new ApiError(
      401,
      'api_key_invalid',
      'the API key in X-API-Key is not valid (unknown or revoked)',
      [{ field: 'X-API-Key', message: 'unknown or revoked key' }],
      CHALLENGE,
    );
  return account;
}
