import type { Request, Response } from 'express';
import type { SessionFile, StagedFile } from '../store/SessionStore.js';

/** An upload an account keeps: where it was written, and its path under the models store. */
export interface KeptUpload {
  path: string;
  storedAs: string;
}

/** What a response for a session's file needs beyond the file record. */
export interface SendOptions {
  /** Seconds a client may cache it (until the session expires). */
  maxAgeSeconds: number;
}

/**
 * Where session files, saved models, conversion-cache files and everything else the server keeps as bytes live: one role,
 * an engine per folder (`files/`: the data directory, the embedded default; `s3/`: any
 * S3-compatible store, shared by every node of a cluster). The request path is written once
 * against this interface.
 */
export interface ObjectStore {
  /** Which engine this is (`files`, `s3`): for the start-up log and readiness. */
  readonly engine: string;
  /**
   * Makes a session's staged files (and the uploads its account keeps) its own together with its
   * rows: `writeRows` is called with the local files the session store must place itself (the
   * files engine places them in the same step as the rows) and writes the rows. All or nothing:
   * when `writeRows` fails, what was put in the store is removed.
   */
  commitSession<T>(
    sessionId: string,
    staged: readonly StagedFile[],
    kept: readonly KeptUpload[],
    writeRows: (localFiles: readonly StagedFile[]) => Promise<T>,
  ): Promise<T>;
  /** Answers a request for a committed session's file: its bytes (ranges, conditional requests) or a redirect. */
  send(req: Request, res: Response, sessionId: string, file: SessionFile, options: SendOptions): Promise<void>;
  /** A committed session's file, whole (what a derived file is made from). */
  readSessionFile(sessionId: string, name: string): Promise<Uint8Array>;
  /** Deletes a session's files (expiry). */
  deleteSession(sessionId: string, names: readonly string[]): Promise<void>;
  /**
   * The sessions that have files in the store: their names and when the newest was written (for
   * the clean-up of what a crashed node left: files no row owns). The files engine answers none:
   * its start-up clean-up walks the data directory itself.
   */
  sessionsWithFiles(): Promise<Map<string, { names: string[]; newestAt: number }>>;
  /**
   * The saved models in the store (by their path under the models store) and when each was written,
   * for the clean-up of what a crashed node left. The files engine answers none: its start-up
   * clean-up walks the data directory itself.
   */
  savedModelObjects(): Promise<Map<string, number>>;
  /** Answers a request for a saved model's file (by its path under the models store), whole, with `headers`. */
  sendSavedModel(res: Response, storedAs: string, bytes: number, headers: Record<string, string>): Promise<void>;
  /** Writes a saved model's file to a local file (a session made from a saved model converts it from there). */
  fetchSavedModel(storedAs: string, path: string): Promise<void>;
  /** Deletes saved models' files (by their path under the models store). */
  deleteSavedModels(storedAs: readonly string[]): Promise<void>;
  /** Puts a local file under a scratch key: a model on its way to a conversion worker, a USDZ on its way back. */
  putScratch(key: string, path: string): Promise<void>;
  /** Writes a scratch object to a local file. */
  fetchScratch(key: string, path: string): Promise<void>;
  deleteScratch(keys: readonly string[]): Promise<void>;
  /** Every scratch object and when it was written (a node killed mid-job leaves its own behind). */
  scratchObjects(): Promise<Map<string, number>>;
  /**
   * Makes a committed session's file `name` the file `cachedName` of conversion-cache entry `key`
   * (the data directory: a hard link; S3: a copy inside the store, no bytes through this node).
   */
  cacheSessionFile(sessionId: string, name: string, key: string, cachedName: string): Promise<void>;
  /** Puts cache entry `key`'s file `cachedName` at a local path (a hard link, or a download); false when it is not there. */
  fetchCached(key: string, cachedName: string, path: string): Promise<boolean>;
  /** Deletes cache entries' files. */
  deleteCached(keys: readonly string[]): Promise<void>;
  /** The cache entries that have files, and when the newest of each was written (to find those no index entry owns). */
  cachedEntries(): Promise<Map<string, number>>;
  /** Throws when the store cannot be written (readiness). */
  ping(): Promise<void>;
}
