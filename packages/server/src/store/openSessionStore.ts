import type { Logger } from 'pino';
import type { DataPaths } from '../app/ServerContext.js';
import type { ServerConfig } from '../config/ServerConfig.js';
import type { SessionStore } from './SessionStore.js';
import { openPostgresSessionStore } from './postgres/openPostgresSessionStore.js';
import { openSqliteSessionStore } from './sqlite/openSqliteSessionStore.js';

/** How the store is used: by a server (threads for commits) or by a command-line tool (inline). */
export type SessionStoreUse = 'server' | 'tool';

/**
 * The session store the configuration names: PostgreSQL when `ARSESSION_DATABASE_URL` is set,
 * else SQLite in the data directory (the embedded default).
 *
 * @example
 * ```ts
 * const store = await openSessionStore(config, dataPaths(config.dataDir), 'tool');
 * ```
 */
export async function openSessionStore(config: ServerConfig, paths: DataPaths, use: SessionStoreUse, log?: Logger): Promise<SessionStore> {
  if (config.databaseUrl)
    return openPostgresSessionStore({ url: config.databaseUrl, sessionsDir: paths.sessions, maxConnections: use === 'server' ? 10 : 1 });
  return openSqliteSessionStore({
    databasePath: paths.database,
    sessionsDir: paths.sessions,
    mode: use === 'server' ? 'thread' : 'inline',
    ...(log && { onCheckpointError: (err: Error) => log.error({ err }, 'WAL checkpointer failed; restarting it') }),
  });
}
