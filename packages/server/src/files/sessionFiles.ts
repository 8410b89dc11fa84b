import { join } from 'node:path';

/**
 * The name of a session's file in the sessions directory: `<session id>.<file name>`, e.g.
 * `q3Zb…Q.0.usdz`. Why one flat directory: making (and later removing) a directory per session
 * cost an inode, a 4 kB block and, under load, more time than the session's commit.
 *
 * @example
 * ```ts
 * sessionFileName('q3ZbT0x8ypVUu1N8fDL5nA', '0.usdz'); // → 'q3ZbT0x8ypVUu1N8fDL5nA.0.usdz'
 * ```
 */
export function sessionFileName(sessionId: string, name: string): string {
  return `${sessionId}.${name}`;
}

/** Where a session's file is: {@link sessionFileName} in `sessionsDir`. */
export function sessionFilePath(sessionsDir: string, sessionId: string, name: string): string {
  return join(sessionsDir, sessionFileName(sessionId, name));
}

/** The session an entry of the sessions directory belongs to (ids are base64url: no dot). */
export function sessionOfEntry(entry: string): string {
  const dot = entry.indexOf('.');
  return dot < 0 ? entry : entry.slice(0, dot);
}
