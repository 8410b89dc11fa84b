import { copyFileSync, linkSync, renameSync, unlinkSync } from 'node:fs';
import type { StagedFile } from '../store/SessionStore.js';
import { sessionFilePath } from './sessionFiles.js';

/**
 * Moves (or, for `link` files, hard-links) a session's staged files into `sessionsDir` under its
 * id ({@link sessionFilePath}) and returns where they went. All or nothing: on a failure what was
 * placed is removed and the error thrown. No existing file is ever replaced: a name already taken
 * fails (a link never replaces a name; a rename would).
 *
 * @example
 * ```ts
 * const placed = placeStagedFiles(paths.sessions, id, [{ from: staged, name: '0.usdz' }]);
 * ```
 */
export function placeStagedFiles(sessionsDir: string, sessionId: string, files: readonly StagedFile[]): string[] {
  const placed: string[] = [];
  try {
    for (const file of files) {
      const to = sessionFilePath(sessionsDir, sessionId, file.name);
      linkRenewing(file.from, to);
      placed.push(to);
      if (!file.link) unlinkSync(file.from);
    }
    return placed;
  } catch (err) {
    removeFiles(placed);
    throw err;
  }
}

/** Removes files, ignoring those already gone (undoing a placement). */
export function removeFiles(paths: readonly string[]): void {
  for (const path of paths) {
    try {
      unlinkSync(path);
    } catch {
      // Already gone: nothing to undo.
    }
  }
}

/**
 * `linkSync(from, to)`, renewing `from` when it has all the names its file system allows (ext4:
 * 65,000): a conversion cache entry shared by that many sessions is replaced, atomically, by a
 * fresh copy of itself, which starts a new count. The sessions already linked keep the old inode.
 */
function linkRenewing(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EMLINK') throw err;
    const fresh = `${from}.renew-${process.pid}`;
    copyFileSync(from, fresh);
    renameSync(fresh, from);
    linkSync(from, to);
  }
}
