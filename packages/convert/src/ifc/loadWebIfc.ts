import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { cachedDataVersionTag } from 'node:v8';
import { Script } from 'node:vm';
import type * as WebIfc from 'web-ifc';
import { deferSchemaNamespaces } from './deferSchemaNamespaces.js';

/** web-ifc's module: `IfcAPI` and the IFC type codes. */
export type WebIfcModule = typeof WebIfc;

let loaded: WebIfcModule | undefined;
/** web-ifc's schema namespaces used so far in this thread (deferred ones fill on first use). */
const schemasFilled: string[] = [];

/**
 * Loads web-ifc's Node build (CommonJS, 6 MB of JavaScript) with a V8 code cache. Imported the
 * usual way it costs ~500 ms a thread — an ES `import` of CommonJS first scans the whole file for
 * its export names, and compiling it takes ~150 ms more — which was most of a small conversion's
 * time as a process. Required directly and compiled from a cache kept under `~/.cache/arsession`
 * (`$XDG_CACHE_HOME`), it loads in ~80 ms, and in ~50 ms with its schema namespaces deferred
 * ({@link deferSchemaNamespaces}). The cache is keyed by web-ifc's version and V8's tag,
 * written atomically, rebuilt when V8 rejects it, and skipped when it cannot be written.
 *
 * @example
 * ```ts
 * const { IfcAPI, IFCDOOR } = loadWebIfc();
 * ```
 */
export function loadWebIfc(): WebIfcModule {
  if (loaded) return loaded;
  const file = createRequire(import.meta.url).resolve('web-ifc');
  const { source, deferred } = deferSchemaNamespaces(readFileSync(file, 'utf8'));
  const version = (JSON.parse(readFileSync(join(dirname(file), 'package.json'), 'utf8')) as { version: string }).version;
  // V8's tag covers its version, its flags and the CPU: a process run with other flags (the CLI's
  // tiering budget) keeps a cache of its own instead of rejecting and rewriting the other's.
  const cacheFile = join(
    cacheDir(),
    `web-ifc-${version}${deferred.length ? '-lazy-schemas' : ''}` +
      `-node${process.version}-${process.arch}-${cachedDataVersionTag().toString(16)}.v8cache`,
  );
  const cachedData = readIfPresent(cacheFile);
  // The CommonJS wrapper on the source's first line, so stack traces keep their line numbers.
  const script = new Script(`(function (exports, require, module, __filename, __dirname, __arsessionSchemaFilled) {${source}\n})`, {
    filename: file,
    ...(cachedData && { cachedData }),
  });
  const module = { exports: {} as WebIfcModule };
  const filled = (name: string) => schemasFilled.push(name);
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file), filled);
  // Written once web-ifc has started (saveWebIfcCodeCache), so that the cache also holds the
  // functions its start compiles.
  if (!cachedData || script.cachedDataRejected) pendingCache = { script, file: cacheFile };
  loaded = module.exports;
  return loaded;
}

let pendingCache: { script: Script; file: string } | undefined;

/**
 * Writes web-ifc's code cache when this thread compiled web-ifc without one (first run, another
 * Node or other V8 flags): called once web-ifc has started, so that the functions its start-up
 * compiled are cached too. Does nothing otherwise.
 *
 * @example
 * ```ts
 * await api.Init();
 * saveWebIfcCodeCache();
 * ```
 */
export function saveWebIfcCodeCache(): void {
  if (!pendingCache) return;
  writeAtomically(pendingCache.file, pendingCache.script.createCachedData());
  pendingCache = undefined;
}

/**
 * The schema namespaces of web-ifc (`IFC2X3`, `IFC4`, `IFC4X3`) defined so far in this thread:
 * with their definition deferred ({@link deferSchemaNamespaces}), a conversion defines none.
 *
 * @example
 * ```ts
 * webIfcSchemasDefined(); // → [] after reading a model
 * ```
 */
export function webIfcSchemasDefined(): readonly string[] {
  return schemasFilled;
}

function cacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'arsession');
}

function readIfPresent(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** A cache is an optimisation: a read-only home or a full disk only means the next load compiles again. */
function writeAtomically(path: string, data: Buffer): void {
  const partial = `${path}.${process.pid}.${threadId}.partial`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(partial, data);
    renameSync(partial, path);
  } catch {
    // not written; see above (and nothing left half-written)
    rmSync(partial, { force: true });
  }
}
