import { access, constants, copyFile, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DataPaths } from '../../app/ServerContext.js';
import { sessionFilePath } from '../../files/sessionFiles.js';
import type { ObjectStore } from '../ObjectStore.js';

/**
 * The embedded object store: the data directory. A session's files are `sessions/<id>.<name>`,
 * placed by the session store in the same step as its rows (a rename, or a hard link for a cached
 * conversion); saved models stay where the upload wrote them. Files are sent by Express with
 * ranges, and the crash clean-up at start (removeOrphans) walks the directories itself.
 *
 * @example
 * ```ts
 * const objects = openFilesObjectStore(paths);
 * ```
 */
export function openFilesObjectStore(paths: DataPaths): ObjectStore {
  return {
    engine: 'files',
    commitSession: (_sessionId, staged, _kept, writeRows) => writeRows(staged),
    async send(_req, res, sessionId, file) {
      await new Promise<void>((resolve, reject) => {
        res.sendFile(sessionFilePath(paths.sessions, sessionId, file.name), { etag: false, dotfiles: 'deny', acceptRanges: true }, (err?: Error) => (err && !res.headersSent ? reject(err) : resolve()));
      });
    },
    async deleteSession(sessionId, names) {
      for (const name of names) await rm(sessionFilePath(paths.sessions, sessionId, name), { force: true });
    },
    // The start-up clean-up reads the directory itself (removeOrphans).
    sessionsWithFiles: async () => new Map(),
    // Scratch objects live under the data directory: workers on this machine share it.
    async putScratch(key, path) {
      const to = join(paths.root, 'scratch', key);
      await mkdir(dirname(to), { recursive: true });
      await copyFile(path, to);
    },
    async fetchScratch(key, path) {
      await copyFile(join(paths.root, 'scratch', key), path);
    },
    async deleteScratch(keys) {
      for (const key of keys) await rm(join(paths.root, 'scratch', key), { force: true });
    },
    async ping() {
      await access(paths.sessions, constants.W_OK);
    },
  };
}
