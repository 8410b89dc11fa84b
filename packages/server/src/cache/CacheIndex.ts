import type { CachedConversion } from './CachedConversion.js';

/** How much a conversion cache may keep. */
export interface CacheLimits {
  /** Most entries kept; 0 keeps none. */
  maxEntries: number;
  /** Most bytes kept (the files of every entry). */
  maxBytes: number;
}

/**
 * Which converted models the conversion cache keeps, and when each was last used: one role, an
 * engine per folder (`memory/`: this process's own, the embedded default; `postgres/`: a table
 * every node of a cluster shares). The entries' files live in the object store.
 */
export interface CacheIndex {
  /** Which engine this is (`memory`, `postgres`). */
  readonly engine: string;
  /** The entry kept under `key`, now counted as the most recently used; `undefined` when none. */
  lookup(key: string): Promise<CachedConversion | undefined>;
  /** Records an entry whose files are in place; false when the key had one already. */
  record(key: string, entry: CachedConversion, bytes: number): Promise<boolean>;
  /** Removes the least recently used entries beyond `limits`; resolves to their keys (their files are the caller's to delete). */
  evict(limits: CacheLimits): Promise<string[]>;
  /** Forgets an entry (its files turned out to be gone). */
  forget(key: string): Promise<void>;
  /** Every key recorded: files under any other key belong to no entry. */
  keys(): Promise<Set<string>>;
  close(): Promise<void>;
}
