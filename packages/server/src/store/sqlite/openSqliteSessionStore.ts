import type { SessionStore } from '../SessionStore.js';
import { authenticateApiKey, createApiKey, listApiKeys, revokeApiKey } from './apiKeys.js';
import { commitSessions } from './commitSessions.js';
import { openDatabase, type Db } from './openDatabase.js';
import { prepared } from './prepared.js';
import { deleteSavedModel, endSession, findSavedModel, listSavedModels, savedModelUsage } from './savedModels.js';
import { addSessionFile, claimOnetimeCode, expiredWithFiles, findSession, forgetOldSessions, markFilesDeleted } from './sessions.js';
import { createStoreThread } from './storeThread.js';
import { startWalCheckpointer, type WalCheckpointer } from './walCheckpointer.js';

/** The embedded engine: its connection is open to whoever holds it (operator tools, tests). */
export interface SqliteSessionStore extends SessionStore {
  readonly engine: 'sqlite';
  readonly db: Db;
}

/** Options of {@link openSqliteSessionStore}. */
export interface SqliteSessionStoreOptions {
  /** The SQLite file (created and migrated when needed). */
  databasePath: string;
  /** Where committed sessions' files go. */
  sessionsDir: string;
  /**
   * `'thread'` (a server): key checks and commits on a store thread of their own connection, and
   * the write-ahead log checkpointed on another; `'inline'` (a command-line tool): everything on
   * this thread.
   */
  mode: 'thread' | 'inline';
  /** Told when the checkpointer thread fails (it restarts). */
  onCheckpointError?(err: Error): void;
}

/**
 * The embedded session store: SQLite in WAL mode in the data directory. Reads run on the calling
 * thread (a primary-key lookup takes microseconds); key checks and commits, which under load took a
 * quarter of the event loop's time per session, run on the store thread (see createStoreThread).
 *
 * @example
 * ```ts
 * const store = openSqliteSessionStore({ databasePath: paths.database, sessionsDir: paths.sessions, mode: 'thread' });
 * const session = await store.find(id);
 * await store.close();
 * ```
 */
export function openSqliteSessionStore(options: SqliteSessionStoreOptions): SqliteSessionStore {
  const threaded = options.mode === 'thread';
  const db = openDatabase(options.databasePath, { checkpoints: threaded ? 'external' : 'automatic' });
  const thread = threaded ? createStoreThread({ databasePath: options.databasePath, sessionsDir: options.sessionsDir }) : undefined;
  const checkpointer: WalCheckpointer | undefined = threaded
    ? startWalCheckpointer({ databasePath: options.databasePath, ...(options.onCheckpointError && { onError: options.onCheckpointError }) })
    : undefined;
  return {
    engine: 'sqlite',
    db,
    async authenticate(key) {
      return thread ? thread.authenticate(key) : authenticateApiKey(db, key);
    },
    async commit(session) {
      if (thread) return thread.commit(session);
      const [outcome] = commitSessions(db, options.sessionsDir, [session]);
      if ('error' in outcome!) throw outcome.error;
      return outcome!.code;
    },
    // Rare (a page's first visit): on this connection, beside the store thread's.
    addFile: async (id, file, staged, now) => addSessionFile(db, options.sessionsDir, id, file, staged, now),
    find: async (id) => findSession(db, id),
    claim: async (code, now, issuedAfter, claimant) => claimOnetimeCode(db, code, now, issuedAfter, claimant),
    savedModels: async (accountId, page) => listSavedModels(db, accountId, page),
    savedModel: async (accountId, id) => findSavedModel(db, accountId, id),
    savedModelUsage: async (accountId, sha256s) => savedModelUsage(db, accountId, sha256s),
    deleteSavedModel: async (accountId, id) => deleteSavedModel(db, accountId, id),
    endSession: async (id, accountId, now) => endSession(db, id, accountId, now),
    createApiKey: async (accountName) => createApiKey(db, accountName),
    revokeApiKey: async (keyOrId) => revokeApiKey(db, keyOrId),
    listApiKeys: async () => listApiKeys(db),
    expiredWithFiles: async (now) => expiredWithFiles(db, now),
    markFilesDeleted: async (id) => markFilesDeleted(db, id),
    forgetOldSessions: async (retainMs, now) => forgetOldSessions(db, retainMs, now),
    async existingSessions(ids) {
      const exists = prepared(db, 'SELECT 1 FROM sessions WHERE id = ?');
      return new Set(ids.filter((id) => exists.get(id) !== undefined));
    },
    savedModelFiles: async () =>
      new Set((prepared(db, 'SELECT stored_as FROM saved_models').all() as Array<{ stored_as: string }>).map((r) => r.stored_as)),
    // One process owns the file: it always leads.
    leadSweep: (work) => work(),
    async ping() {
      prepared(db, 'SELECT 1').get();
    },
    async close() {
      await thread?.close();
      await checkpointer?.close();
      db.close();
    },
  };
}
