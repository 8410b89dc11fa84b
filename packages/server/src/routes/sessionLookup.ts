import { ApiError } from '../errors/ApiError.js';
import type { SessionRecord, SessionStore } from '../store/SessionStore.js';

/** What a session id looks like (newSessionId): anything else is no session, without asking the store. */
export const SESSION_ID = /^[A-Za-z0-9_-]{22}$/;

/** A live session by id: 404 when unknown, 410 once expired (the id is the capability; no key). */
export async function liveSession(store: SessionStore, id: string, now = Date.now()): Promise<SessionRecord> {
  const session = SESSION_ID.test(id) ? await store.find(id) : undefined;
  if (!session)
    throw new ApiError(404, 'session_not_found', 'no session has this id', [{ field: 'session_id', message: 'unknown session' }]);
  if (session.expiresAt <= now) {
    throw new ApiError(410, 'session_expired', `the session expired at ${new Date(session.expiresAt).toISOString()}; create a new one`, [
      { field: 'session_id', message: 'expired' },
    ]);
  }
  return session;
}
