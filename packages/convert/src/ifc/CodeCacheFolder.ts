import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';

/** Options of {@link CodeCacheFolder}. */
export interface CodeCacheFolderOptions {
  /** The folder: `$XDG_CACHE_HOME/arsession`, else `~/.cache/arsession` (as the environment is when made). */
  dir: string;
  /** Caches not loaded for this long are removed when another is written. */
  maxUnusedDays: number;
  /** At most this many caches are kept, the most recently loaded. */
  maxFiles: number;
}

/**
 * Defaults of {@link CodeCacheFolder}. Every set of V8 flags, Node version and web-ifc version has
 * a cache of its own (~0.3 MB each, beside web-ifc's rewritten source, 6 MB, one per web-ifc): a
 * profiled run, a raised heap or an upgrade each leave one, which nothing would ever use again. A
 * few are kept for the runtimes in use, the rest go.
 */
export const CODE_CACHE_FOLDER_DEFAULTS: Readonly<Omit<CodeCacheFolderOptions, 'dir'>> = {
  maxUnusedDays: 30,
  maxFiles: 8,
};

/** The caches this folder manages (code caches, and web-ifc's source as `loadWebIfc` rewrote it); anything else in it is left alone. */
const CACHE_FILE = /^web-ifc-.+\.(v8cache|js)$/;

/**
 * The folder of V8 code caches for web-ifc, and of its source as `loadWebIfc` rewrote it: read
 * (marking the cache as used), written atomically,
 * and kept small. A cache is an optimisation: a read-only home or a full disk only means the next
 * load compiles again, never an error.
 *
 * @example
 * ```ts
 * const folder = new CodeCacheFolder();
 * const cached = folder.read('web-ifc-0.0.78-….v8cache'); // undefined the first time
 * folder.write('web-ifc-0.0.78-….v8cache', script.createCachedData());
 * ```
 */
export class CodeCacheFolder {
  private readonly opts: CodeCacheFolderOptions;

  constructor(options: Partial<CodeCacheFolderOptions> = {}) {
    this.opts = {
      dir: join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'arsession'),
      ...CODE_CACHE_FOLDER_DEFAULTS,
      ...options,
    };
  }

  /** The cache named `name`, its modification time set to now (its last use), or undefined. */
  read(name: string): Buffer | undefined {
    const path = join(this.opts.dir, name);
    try {
      const data = readFileSync(path);
      touch(path);
      return data;
    } catch {
      return undefined;
    }
  }

  /** Writes the cache `name` (no reader ever sees it half-written), then removes the caches of no further use. */
  write(name: string, data: Buffer, now = new Date()): void {
    const path = join(this.opts.dir, name);
    const partial = `${path}.${process.pid}.${threadId}.partial`;
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(partial, data);
      renameSync(partial, path);
    } catch {
      remove(partial);
      return;
    }
    this.prune(basename(path), now);
  }

  /**
   * Removes the caches other than `keep` unused for `maxUnusedDays`, and the least recently used
   * beyond `maxFiles`. Files it does not manage are left, and so is any it cannot remove.
   */
  prune(keep: string, now = new Date()): void {
    let names: string[];
    try {
      names = readdirSync(this.opts.dir).filter((name) => CACHE_FILE.test(name) && name !== keep);
    } catch {
      return;
    }
    const oldest = now.getTime() - this.opts.maxUnusedDays * 86_400_000;
    const used = names
      .flatMap((name) => {
        try {
          return [{ name, at: statSync(join(this.opts.dir, name)).mtimeMs }];
        } catch {
          return [];
        }
      })
      .sort((a, b) => b.at - a.at);
    used.forEach(({ name, at }, i) => {
      // `keep` is one of the files kept.
      if (at < oldest || i + 1 >= this.opts.maxFiles) remove(join(this.opts.dir, name));
    });
  }
}

/** Marks a file as just used; where that is not allowed (a read-only cache), it stays as it was. */
function touch(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // see above
  }
}

/** Removes a file if it can: one another process removed first, or a folder that forbids it, is no error. */
function remove(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // see above
  }
}
