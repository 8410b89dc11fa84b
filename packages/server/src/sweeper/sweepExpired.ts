import { readdir, rename, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataPaths } from '../app/ServerContext.js';
import { sessionFilePath, sessionOfEntry } from '../files/sessionFiles.js';
import type { ObjectStore } from '../objects/ObjectStore.js';
import type { SessionStore } from '../store/SessionStore.js';

/** Expired sessions answer 410 for this long after their files are gone, then 404. */
export const EXPIRED_RETENTION_MS = 7 * 24 * 3600 * 1000;

/**
 * Deletes the files of expired sessions (the row stays, so the id answers 410), and forgets
 * sessions long expired.
 *
 * @returns how many sessions lost their files.
 */
export async function sweepExpired(store: SessionStore, objects: ObjectStore, now = Date.now()): Promise<number> {
  const expired = await store.expiredWithFiles(now);
  for (const { id, files } of expired) {
    await objects.deleteSession(id, files);
    await store.markFilesDeleted(id);
  }
  await store.forgetOldSessions(EXPIRED_RETENTION_MS, now);
  return expired.length;
}

/** What {@link removeObjectOrphans} removed. */
export interface RemovedObjects {
  /** Sessions whose files no row owned. */
  sessions: string[];
  /** Saved models no row names. */
  savedModels: string[];
  /** Scratch objects of jobs long over. */
  scratch: string[];
}

/**
 * Objects in a shared store that nothing owns any more, left by a node killed mid-request: files of
 * sessions that have no row, saved models no row names (both older than `graceMs`: a request still
 * committing has them without a row yet), and scratch objects older than `scratchGraceMs` (a job
 * in flight has its own). Deleted.
 *
 * @example
 * ```ts
 * const removed = await removeObjectOrphans(store, objects, { graceMs: 3600_000, scratchGraceMs: 3600_000 });
 * ```
 */
export async function removeObjectOrphans(
  store: SessionStore,
  objects: ObjectStore,
  { graceMs, scratchGraceMs }: { graceMs: number; scratchGraceMs: number },
  now = Date.now(),
): Promise<RemovedObjects> {
  const found = await objects.sessionsWithFiles();
  const owned = found.size === 0 ? new Set<string>() : await store.existingSessions([...found.keys()]);
  const orphans = [...found].filter(([id, { newestAt }]) => !owned.has(id) && newestAt < now - graceMs);
  for (const [id, { names }] of orphans) await objects.deleteSession(id, names);

  const models = await objects.savedModelObjects();
  const named = models.size === 0 ? new Set<string>() : await store.savedModelFiles();
  const savedModels = [...models].filter(([storedAs, at]) => !named.has(storedAs) && at < now - graceMs).map(([storedAs]) => storedAs);
  if (savedModels.length) await objects.deleteSavedModels(savedModels);

  const scratch = [...(await objects.scratchObjects())].filter(([, at]) => at < now - scratchGraceMs).map(([key]) => key);
  if (scratch.length) await objects.deleteScratch(scratch);
  return { sessions: orphans.map(([id]) => id), savedModels, scratch };
}

/**
 * Start-up clean-up after a crash: uploads in progress and files staged for sessions (both in
 * uploads/), and session files or saved model files that no database row owns (a kill between
 * the moves and the commit) are removed. Nothing a 201 promised is touched: its row exists.
 * Sessions stored by older versions, a directory each, are moved to the flat layout.
 *
 * @returns the paths removed.
 */
export async function removeOrphans(store: SessionStore, paths: DataPaths): Promise<string[]> {
  const removed: string[] = [];
  const drop = async (path: string) => {
    await rm(path, { recursive: true, force: true });
    removed.push(path);
  };
  for (const entry of await readdir(paths.uploads)) await drop(join(paths.uploads, entry));
  const entries = await readdir(paths.sessions, { withFileTypes: true });
  // Every session found is looked up once, all in one question.
  const owned = await store.existingSessions([...new Set(entries.map((e) => (e.isDirectory() ? e.name : sessionOfEntry(e.name))))]);
  const isOwned = (id: string) => owned.has(id);
  for (const entry of entries) {
    const path = join(paths.sessions, entry.name);
    if (entry.isDirectory()) {
      // Data directories before the flat layout: a directory per session. Its files move out
      // under their flat names; a directory no row owns goes.
      if (!isOwned(entry.name)) await drop(path);
      else await flattenSessionDirectory(paths.sessions, entry.name);
    } else if (!isOwned(sessionOfEntry(entry.name))) {
      await drop(path);
    }
  }
  const savedFiles = await store.savedModelFiles();
  // Saved models are files in models/ (older data directories: models/<account id>/<file>).
  for (const entry of await readdir(paths.models, { withFileTypes: true })) {
    if (!entry.isDirectory()) {
      if (!savedFiles.has(entry.name)) await drop(join(paths.models, entry.name));
      continue;
    }
    for (const file of await readdir(join(paths.models, entry.name))) {
      if (!savedFiles.has(`${entry.name}/${file}`)) await drop(join(paths.models, entry.name, file));
    }
  }
  return removed;
}

/** Moves the files of an older data directory's `sessions/<id>/` to their flat names, then removes it. */
async function flattenSessionDirectory(sessionsDir: string, id: string): Promise<void> {
  const dir = join(sessionsDir, id);
  for (const name of await readdir(dir)) await rename(join(dir, name), sessionFilePath(sessionsDir, id, name));
  await rmdir(dir);
}
