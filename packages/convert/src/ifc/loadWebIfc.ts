import { isAscii } from 'node:buffer';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { cachedDataVersionTag } from 'node:v8';
import { Script } from 'node:vm';
import type * as WebIfc from 'web-ifc';
import { CodeCacheFolder } from './CodeCacheFolder.js';
import { DEFERRED_SCHEMA_CODE, deferSchemaCode, type DeferredSource } from './deferSchemaCode.js';

/** web-ifc's module: `IfcAPI` and the IFC type codes. */
export type WebIfcModule = typeof WebIfc;

let loaded: WebIfcModule | undefined;
/** web-ifc's schema namespaces and tables used so far in this thread (deferred ones fill on first use). */
const schemasFilled: string[] = [];

/**
 * Loads web-ifc's Node build (CommonJS, 6 MB of JavaScript) with a V8 code cache. Imported the
 * usual way it costs ~500 ms a thread — an ES `import` of CommonJS first scans the whole file for
 * its export names, and compiling it takes ~150 ms more — which was most of a small conversion's
 * time as a process. Required directly and compiled from a cache kept under `~/.cache/arsession`
 * (`$XDG_CACHE_HOME`), it loads in ~80 ms, and faster still with its schema code deferred
 * ({@link deferSchemaCode}). The cache is keyed by web-ifc's version and V8's tag,
 * written atomically, rebuilt when V8 rejects it, and skipped when it cannot be written; caches
 * of other keys are removed once unused for a month ({@link CodeCacheFolder}).
 *
 * @example
 * ```ts
 * const { IfcAPI, IFCDOOR } = loadWebIfc();
 * ```
 */
export function loadWebIfc(): WebIfcModule {
  if (loaded) return loaded;
  const file = createRequire(import.meta.url).resolve('web-ifc');
  const version = (JSON.parse(readFileSync(join(dirname(file), 'package.json'), 'utf8')) as { version: string }).version;
  const folder = new CodeCacheFolder();
  const { source, deferred } = deferredSource(file, version, folder);
  // V8's tag covers its version, its flags and the CPU: a process run with other flags (the CLI's
  // tiering budget) keeps a cache of its own instead of rejecting and rewriting the other's.
  const cacheFile =
    `web-ifc-${version}${deferred.length ? '-lazy-schema-code' : ''}` +
    `-node${process.version}-${process.arch}-${cachedDataVersionTag().toString(16)}.v8cache`;
  const cachedData = folder.read(cacheFile);
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
  if (!cachedData || script.cachedDataRejected) pendingCache = { script, folder, file: cacheFile };
  loaded = module.exports;
  return loaded;
}

let pendingCache: { script: Script; folder: CodeCacheFolder; file: string } | undefined;

/**
 * web-ifc's source with its schema code deferred ({@link deferSchemaCode}), kept in the cache
 * folder beside the code caches: rewriting 6 MB takes ~40 ms a process, reading it back ~5. Kept
 * by web-ifc's version and its file's size and time, so a patched web-ifc is rewritten again.
 * Only an ASCII source is kept (it reads back as Latin-1, the same text); any other is rewritten
 * each time.
 */
function deferredSource(file: string, version: string, folder: CodeCacheFolder): DeferredSource {
  const { size, mtimeMs } = statSync(file);
  const name = `web-ifc-${version}-${size}-${Math.trunc(mtimeMs)}-lazy-schema-code.js`;
  const kept = folder.read(name);
  if (kept) return { source: kept.toString('latin1'), deferred: DEFERRED_SCHEMA_CODE };
  // web-ifc's bytes are ASCII, which read as Latin-1 is the same text, four times faster than as UTF-8.
  const bytes = readFileSync(file);
  const ascii = isAscii(bytes);
  const rewritten = deferSchemaCode(bytes.toString(ascii ? 'latin1' : 'utf8'));
  if (ascii && rewritten.deferred.length > 0) folder.write(name, Buffer.from(rewritten.source, 'latin1'));
  return rewritten;
}

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
  pendingCache.folder.write(pendingCache.file, pendingCache.script.createCachedData());
  pendingCache = undefined;
}

/**
 * The schema namespaces (`IFC2X3`, `IFC4`, `IFC4X3`) and tables (`FromRawLineData[2]`, …) of
 * web-ifc defined so far in this thread: with their definition deferred ({@link deferSchemaCode}),
 * a conversion defines none.
 *
 * @example
 * ```ts
 * webIfcSchemasDefined(); // → [] after reading a model
 * ```
 */
export function webIfcSchemasDefined(): readonly string[] {
  return schemasFilled;
}
