import type { IfcAPI } from 'web-ifc';
import { loadWebIfc, saveWebIfcCodeCache } from './loadWebIfc.js';

let api: Promise<IfcAPI> | undefined;

/**
 * One web-ifc instance per thread: its WASM module takes ~25 ms to start and holds every open
 * model, so it starts once and models are closed after each read; after a large file it is let
 * go (see {@link finishWebIfcRead}) and the next read starts another.
 */
export function webIfcApi(): Promise<IfcAPI> {
  api ??= (async () => {
    const { IfcAPI, LogLevel } = loadWebIfc();
    const instance = new IfcAPI();
    await instance.Init();
    // web-ifc logs to stdout, which would corrupt `--json` output and worker protocols.
    instance.SetLogLevel(LogLevel.LOG_LEVEL_OFF);
    saveWebIfcCodeCache();
    return instance;
  })();
  return api;
}

/**
 * IFC files from this size (bytes) let their thread's web-ifc instance go once read (see
 * {@link finishWebIfcRead}): a 19 MB rail leaves about 40 MB resident, a 27 MB Revit model 76 MB.
 */
export const RELEASE_WEB_IFC_FROM_BYTES = 8 * 1024 * 1024;

/** Reads in this thread between {@link startWebIfcRead} and {@link finishWebIfcRead}. */
let reading = 0;
/** A large file was read while another read was under way: the instance goes when the last ends. */
let releasePending = false;

/**
 * The thread's web-ifc instance for one read, which must end with {@link finishWebIfcRead}.
 *
 * @example
 * ```ts
 * const api = await startWebIfcRead();
 * try { … } finally { finishWebIfcRead(api, bytes.length); }
 * ```
 */
export async function startWebIfcRead(): Promise<IfcAPI> {
  reading++;
  try {
    return await webIfcApi();
  } catch (err) {
    reading--;
    throw err;
  }
}

/**
 * Ends a read of a file of `bytes` (its model closed). After a large one, once no read is under
 * way, the instance is disposed: web-ifc's heap grows to the largest model it has read and never
 * shrinks, so a worker thread would hold it for its life, beside the AR budget's work on the
 * model just read. Disposed, it is returned at V8's next full collection. The next read starts a
 * fresh instance (about 25 ms, nothing beside such a read).
 */
export function finishWebIfcRead(instance: IfcAPI, bytes: number): void {
  reading--;
  releasePending ||= bytes >= RELEASE_WEB_IFC_FROM_BYTES;
  if (!releasePending || reading > 0) return;
  releasePending = false;
  api = undefined;
  try {
    // Dropped from the instance itself: whatever still holds the instance then holds no WASM memory.
    instance.Dispose();
  } catch {
    // Its models are closed already; an instance that cannot say so is dropped all the same.
  }
}
