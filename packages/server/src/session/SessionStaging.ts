import { unlink } from 'node:fs/promises';
import { sessionFilePath } from '../files/sessionFiles.js';
import type { KeptUpload, ObjectStore } from '../objects/ObjectStore.js';
import type { StagedFile } from '../store/SessionStore.js';

/**
 * Everything a session request has put on disk, from the first upload to the commit: the uploads
 * as they arrive, and the files made for the session (converted, or placed from the conversion
 * cache), staged in uploads/ until the commit. Either the session is committed — its staged files
 * now belong to it, and the uploads it keeps (saved models, the reference image) stay — or the
 * staging is discarded and everything it holds goes.
 *
 * @example
 * ```ts
 * const staging = new SessionStaging(paths.uploads, sessionId);
 * try {
 *   const usdz = staging.stage('0.usdz'); // convert into usdz.from
 *   await staging.commit(objects, (files) => store.commit({ record, saved, files }));
 * } finally {
 *   await staging.close();
 * }
 * ```
 */
export class SessionStaging {
  /** Uploads written for this request (readMultipartForm adds to it as files arrive). */
  readonly uploads: string[] = [];
  private readonly staged: StagedFile[] = [];
  private readonly kept = new Map<string, string | undefined>();
  private committed = false;

  constructor(
    private readonly uploadsDir: string,
    readonly sessionId: string,
  ) {}

  /** A file to be made for the session under `name` (a converter, or the conversion cache, writes to its `from`). */
  stage(name: string): StagedFile {
    const file = { from: sessionFilePath(this.uploadsDir, this.sessionId, name), name };
    this.staged.push(file);
    return file;
  }

  /** An upload itself taken into the session (`name`) at the commit: the reference image. */
  adopt(upload: string, name: string): void {
    this.staged.push({ from: upload, name });
    this.kept.set(upload, undefined);
  }

  /** An upload that outlives the request once it is committed: a model saved to an account, `storedAs` under the models store. */
  keep(upload: string, storedAs: string): void {
    this.kept.set(upload, storedAs);
  }

  /** Takes a staged file back out (a Reality file the compiler failed to make) and removes what it left. */
  async unstage(file: StagedFile): Promise<void> {
    this.staged.splice(this.staged.indexOf(file), 1);
    await unlink(file.from).catch(() => undefined);
  }

  /**
   * Makes the session exist: the object store takes its files (and the uploads kept for its
   * account) together with the rows `writeRows` writes; from then on its files are the session's.
   */
  async commit<T>(objects: ObjectStore, writeRows: (localFiles: readonly StagedFile[]) => Promise<T>): Promise<T> {
    const kept: KeptUpload[] = [...this.kept].flatMap(([path, storedAs]) => (storedAs === undefined ? [] : [{ path, storedAs }]));
    const result = await objects.commitSession(this.sessionId, this.staged, kept, writeRows);
    this.committed = true;
    return result;
  }

  /**
   * Ends the request: without a commit every staged file and upload is removed, after one only
   * the uploads the session did not keep.
   */
  async close(): Promise<void> {
    if (!this.committed) for (const file of this.staged) await unlink(file.from).catch(() => undefined);
    for (const path of this.uploads) if (!this.committed || !this.kept.has(path)) await unlink(path).catch(() => undefined);
  }
}
