import { unlinkSync } from 'node:fs';
import type { StagedFile } from '../store/SessionStore.js';
import { linkRenewing } from './linkRenewing.js';
import { sessionFilePath } from './sessionFiles.js';

/**
 * Moves a session's staged files into `sessionsDir` under its id ({@link sessionFilePath}) and
 * returns where they went. All or nothing: on a failure what was placed is removed and the error
 * thrown. No existing file is ever replaced: a name already taken fails (each is linked under its
 * new name, which never replaces a name as a rename would, then unlinked from the old one).
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
      unlinkSync(file.from);
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
