import { ApiError } from '../../errors/ApiError.js';

// Node's socket errors, and PostgreSQL's classes 08 (connection exception) and 57P0x (shutdown).
const UNREACHABLE = /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|08...|57P0[1-3])$/;
const UNREACHABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed/i;

/** Seconds a client is asked to wait while the database is out of reach. */
export const STORE_RETRY_AFTER_S = 5;

/**
 * A database that cannot be reached is the service's trouble, not the request's: it becomes a 503
 * `store_unavailable` with `Retry-After`. Any other error is returned as it is.
 */
export function storeUnavailable(err: unknown): unknown {
  const code = (err as { code?: unknown })?.code;
  const message = (err as { message?: unknown })?.message;
  const unreachable =
    (typeof code === 'string' && UNREACHABLE.test(code)) || (typeof message === 'string' && UNREACHABLE_MESSAGE.test(message));
  if (!unreachable || err instanceof ApiError) return err;
  return new ApiError(503, 'store_unavailable', 'the session store cannot be reached; retry shortly', [], {
    'Retry-After': String(STORE_RETRY_AFTER_S),
  });
}
