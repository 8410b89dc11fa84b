import { access, constants, copyFile, link, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { DataPaths } from '../../app/ServerContext.js';
import { linkRenewing } from '../../files/linkRenewing.js';
import { sessionFilePath } from '../../files/sessionFiles.js';
import type { ObjectStore } from '../ObjectStore.js';

/**
 * The embedded object store: the data directory. A session's files are `sessions/<id>.<name>`,
 * placed by the session store in the same step as its rows; saved models stay where the upload
 * wrote them; conversion-cache files are `cache/<key>/<name>`, hard links of the session files
 * they were made for, so a cache hit costs a link, not a copy, and neither eviction nor the expiry
 * of a session removes the other's bytes. Files are sent by Express with ranges, and the crash
 * clean-up at start (removeOrphans) walks the directories itself.
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
        res.sendFile(
          sessionFilePath(paths.sessions, sessionId, file.name),
          { etag: false, dotfiles: 'deny', acceptRanges: true },
          (err?: Error) => (err && !res.headersSent ? reject(err) : resolve()),
        );
      });
    },
    readSessionFile: async (sessionId, name) => new Uint8Array(await readFile(sessionFilePath(paths.sessions, sessionId, name))),
    async deleteSession(sessionId, names) {
      for (const name of names) await rm(sessionFilePath(paths.sessions, sessionId, name), { force: true });
    },
    // The start-up clean-up reads the directory itself (removeOrphans).
    sessionsWithFiles: async () => new Map(),
    savedModelObjects: async () => new Map(),
    async sendSavedModel(res, storedAs, _bytes, headers) {
      await new Promise<void>((resolve, reject) => {
        res.sendFile(join(paths.models, storedAs), { etag: false, dotfiles: 'deny', acceptRanges: false, headers }, (err?: Error) =>
          err && !res.headersSent ? reject(err) : resolve(),
        );
      });
    },
    async fetchSavedModel(storedAs, path) {
      // A link where the file system allows one: a saved model can be large, and neither copy changes.
      await link(join(paths.models, storedAs), path).catch(() => copyFile(join(paths.models, storedAs), path));
    },
    async deleteSavedModels(storedAs) {
      for (const name of storedAs) await rm(join(paths.models, name), { force: true });
    },
    async scratchObjects() {
      const found = new Map<string, number>();
      const root = join(paths.root, 'scratch');
      for (const entry of await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])) {
        if (!entry.isFile()) continue;
        const path = join(entry.parentPath ?? entry.path, entry.name);
        found.set(
          relative(root, path),
          await stat(path).then(
            (s) => s.mtimeMs,
            () => 0,
          ),
        );
      }
      return found;
    },
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
    async cacheSessionFile(sessionId, name, key, cachedName) {
      await mkdir(join(paths.cache, key), { recursive: true });
      await link(sessionFilePath(paths.sessions, sessionId, name), join(paths.cache, key, cachedName));
    },
    async fetchCached(key, cachedName, path) {
      try {
        linkRenewing(join(paths.cache, key, cachedName), path);
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw err;
      }
    },
    async deleteCached(keys) {
      for (const key of keys) await rm(join(paths.cache, key), { recursive: true, force: true });
    },
    async cachedEntries() {
      const found = new Map<string, number>();
      for (const key of await readdir(paths.cache).catch(() => [])) {
        const names = await readdir(join(paths.cache, key)).catch(() => []);
        const times = await Promise.all(
          names.map((n) =>
            stat(join(paths.cache, key, n)).then(
              (s) => s.mtimeMs,
              () => 0,
            ),
          ),
        );
        found.set(key, Math.max(0, ...times));
      }
      return found;
    },
    async ping() {
      await access(paths.sessions, constants.W_OK);
    },
  };
}
