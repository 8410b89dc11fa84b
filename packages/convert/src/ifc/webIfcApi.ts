import type { IfcAPI } from 'web-ifc';
import { fullCollection } from './fullCollection.js';
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
 * model just read. Disposed, it is garbage; {@link returnWebIfcHeap} has V8 return it at once. The
 * next read starts a fresh instance (about 25 ms, nothing beside such a read).
 */
export function finishWebIfcRead(instance: IfcAPI, bytes: number): void {
  reading--;
  releasePending ||= bytes >= RELEASE_WEB_IFC_FROM_BYTES;
  if (!releasePending || reading > 0) return;
  releasePending = false;
  api = undefined;
  const module: object | undefined = instance.wasmModule;
  if (module) {
    const heapBytes = (module as { HEAPF32?: Float32Array }).HEAPF32?.buffer.byteLength ?? 0;
    disposedHeap = { bytes: heapBytes, returned: new Promise((resolve) => heapsDisposed.register(module, resolve)) };
  }
  try {
    // Dropped from the instance itself: whatever still holds the instance then holds no WASM memory.
    instance.Dispose();
  } catch {
    // Its models are closed already; an instance that cannot say so is dropped all the same.
  }
}

/** Options of {@link returnWebIfcHeap}. */
export interface ReturnWebIfcHeapOptions {
  /**
   * Heaps from this size (bytes) are waited for: a 111 MB model leaves ~240 MB, a 223 MB one
   * ~630 MB; a 27 MB one's 76 MB is not worth the collections (~0.1 s, 1.5% of its conversion).
   */
  fromBytes: number;
  /** Full collections at most. */
  rounds: number;
}

/** Defaults of {@link returnWebIfcHeap}. */
export const RETURN_WEB_IFC_HEAP_DEFAULTS: Readonly<ReturnWebIfcHeapOptions> = { fromBytes: 128 * 1024 * 1024, rounds: 6 };

/** Resolves the promise of each disposed instance's module as V8 collects it. */
const heapsDisposed = new FinalizationRegistry<() => void>((resolve) => resolve());
/** The heap of the instance last disposed, until returned. */
let disposedHeap: { bytes: number; returned: Promise<void> } | undefined;

/**
 * Returns the heap of the web-ifc instance {@link finishWebIfcRead} just disposed, when large, to
 * the system before the caller goes on. Disposed, it is garbage, but V8 frees it only after a few
 * full collections with tasks between them (its instance is torn down in stages), and a
 * conversion's reduction runs as one long task with none: the heap would stay resident beside it
 * and set the process's peak (×1.45–1.62 of web-ifc's own at 223 MB; ×1.33 returned). Each round
 * is a full collection and a turn of the event loop (~0.1 s at 223 MB, three rounds); it stops
 * once the heap is gone.
 *
 * @returns the bytes returned; 0 when no heap was waiting, it was smaller than `fromBytes`, or
 *   full collections cannot be had.
 * @example
 * ```ts
 * finishWebIfcRead(api, bytes.length);
 * await returnWebIfcHeap();
 * ```
 */
export async function returnWebIfcHeap(options: Partial<ReturnWebIfcHeapOptions> = {}): Promise<number> {
  const { fromBytes, rounds } = { ...RETURN_WEB_IFC_HEAP_DEFAULTS, ...options };
  const heap = disposedHeap;
  const collect = fullCollection();
  if (!heap || heap.bytes < fromBytes || !collect) return 0;
  disposedHeap = undefined;
  const gone = heap.returned.then(() => true);
  for (let round = 0; round < rounds; round++) {
    collect();
    // V8 runs finalizers as tasks of its own, not always before the next immediate: a short timer lets them run.
    if (await Promise.race([gone, new Promise<false>((resolve) => setTimeout(resolve, 10, false))])) return heap.bytes;
  }
  return 0;
}
