import { rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import { sessionFilePath } from '../files/sessionFiles.js';
import { writeParts } from '../files/writeParts.js';
import type { ObjectStore } from '../objects/ObjectStore.js';
import type { SessionFile, SessionRecord, SessionStore } from '../store/SessionStore.js';
import { derivedFileOf, type DerivedFile } from './derivedFiles.js';

/** Options of {@link createFileDeriver}. */
export interface FileDeriverOptions {
  sessions: SessionStore;
  objects: ObjectStore;
  /** Where a derived file is written before the object store takes it. */
  uploadsDir: string;
  log: Logger;
}

/** Gives sessions the files they are due on first request (see derivedFileOf). */
export interface FileDeriver {
  /**
   * The session's file `name`: the one it lists, or, for a file it is due but does not list yet,
   * that file made now and added to it; undefined for a name it neither lists nor is due.
   */
  fileOf(session: SessionRecord, name: string): Promise<SessionFile | undefined>;
}

/**
 * Makes derived files (AR Quick Look packages, the page's preview) when first asked for, once: a
 * second request for the same file while it is being made waits for the same work. The file is
 * written, put in the object store and listed on the session's row, as a commit does; if another
 * node listed it first, the session keeps that one (the same bytes: the work is deterministic).
 *
 * @example
 * ```ts
 * const deriver = createFileDeriver({ sessions, objects, uploadsDir: paths.uploads, log });
 * const file = await deriver.fileOf(session, '0.quicklook.usdz');
 * ```
 */
export function createFileDeriver(options: FileDeriverOptions): FileDeriver {
  const { sessions, objects } = options;
  const inFlight = new Map<string, Promise<SessionFile | undefined>>();

  const derive = async (session: SessionRecord, recipe: DerivedFile): Promise<SessionFile | undefined> => {
    const { name } = recipe;
    const started = performance.now();
    const parts = await recipe.make((file) => objects.readSessionFile(session.id, file));
    const staged = { from: `${sessionFilePath(options.uploadsDir, session.id, name)}.derived`, name };
    try {
      await rm(staged.from, { force: true });
      const { bytes, sha256 } = await writeParts(staged.from, parts);
      const file: SessionFile = { name, contentType: recipe.contentType, bytes, sha256, downloadName: recipe.downloadName };
      const outcome = await objects.commitSession(session.id, [staged], [], (local) => sessions.addFile(session.id, file, local));
      options.log.info({ session: session.id, file: name, bytes, outcome, ms: Math.round(performance.now() - started) }, 'derived file');
      if (outcome === 'added') return file;
      // Put in the store for a session that is gone meanwhile: nothing will ever serve it.
      if (outcome === 'gone') {
        await objects.deleteSession(session.id, [name]).catch(() => undefined);
        return undefined;
      }
      return (await sessions.find(session.id))?.files.find((f) => f.name === name);
    } finally {
      await rm(staged.from, { force: true });
    }
  };

  return {
    async fileOf(session, name) {
      const listed = session.files.find((f) => f.name === name);
      const recipe = !listed && !session.filesDeleted ? derivedFileOf(session, name) : undefined;
      if (!recipe) return listed;
      const key = `${session.id}/${name}`;
      let work = inFlight.get(key);
      if (!work) {
        work = derive(session, recipe).finally(() => inFlight.delete(key));
        inFlight.set(key, work);
      }
      return work;
    },
  };
}
