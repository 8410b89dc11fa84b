import type { Request } from 'express';
import { ApiError } from '../errors/ApiError.js';
import { authenticateApiKey, type Account } from '../store/apiKeys.js';
import type { Db } from '../store/openDatabase.js';

const CHALLENGE = { 'WWW-Authenticate': 'ApiKey header="X-API-Key"' };

/**
 * The account behind `X-API-Key`. A missing key is a 401 only where one is required (all but
 * by_plane); a key that is sent but not valid is always a 401 — never quietly anonymous.
 */
export function authenticate(db: Db, req: Request, required: boolean): Account | undefined {
  const key = req.get('X-API-Key');
  if (key === undefined || key === '') {
    if (!required) return undefined;
    throw new ApiError(401, 'api_key_missing', 'this endpoint needs an API key in the X-API-Key header', [{ field: 'X-API-Key', message: 'missing' }], CHALLENGE);
  }
  const account = authenticateApiKey(db, key);
  if (!account) throw new ApiError(401, 'api_key_invalid', 'the API key in X-API-Key is not valid (unknown or revoked)', [{ field: 'X-API-Key', message: 'unknown or revoked key' }], CHALLENGE);
  return account;
}
