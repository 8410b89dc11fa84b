import {
  createConversionPool, type ConversionPool, type ConversionPoolStats, type ConvertModelOptions, type WarmConversionPoolOptions,
} from './createConversionPool.js';
import type { ConversionResult } from './protocol.js';

// The process's own pool, for callers that need only one (the server, the CLI): made on first use.
let shared: ConversionPool | undefined;
let sharedScript: URL | undefined;
const pool = () => (shared ??= createConversionPool(sharedScript ? { workerScript: sharedScript } : {}));

/**
 * Converts model bytes to an ARKit-ready USDZ in a worker of the process's shared
 * {@link ConversionPool} (see {@link ConversionPool.convert}).
 *
 * @example
 * ```ts
 * const { usdz, stats } = await convertModel(readFileSync('duplex.ifc'), { fileName: 'duplex.ifc' });
 * ```
 */
export function convertModel(bytes: Uint8Array, options: Partial<ConvertModelOptions> = {}): Promise<ConversionResult> {
  return pool().convert(bytes, options);
}

/** Starts idle workers of the shared pool now (see {@link ConversionPool.warm}). */
export function warmConversionPool(options: Partial<WarmConversionPoolOptions> = {}): void {
  pool().warm(options);
}

/** Counts of the shared pool's workers. */
export function conversionPoolStats(): ConversionPoolStats {
  return pool().stats();
}

/** Stops the shared pool's idle workers. */
export async function closeConversionPool(): Promise<void> {
  await shared?.close();
}

/**
 * Sets the worker script of the shared pool (`undefined`: the real one): a new pool takes over and
 * the old one's idle workers stop, so no later job reaches them. Fault tests wrap the real worker.
 *
 * @example
 * ```ts
 * configureConversionPool({ workerScript: new URL('./faultyConversionWorker.mjs', import.meta.url) });
 * ```
 */
export function configureConversionPool(options: { workerScript?: URL }): void {
  if (shared && sharedScript?.href === options.workerScript?.href) return;
  void shared?.close();
  shared = undefined;
  sharedScript = options.workerScript;
}
