import {
  createConversionPool,
  type ConversionPool,
  type ConversionPoolOptions,
  type ConversionPoolStats,
  type ConvertModelOptions,
  type WarmConversionPoolOptions,
} from './createConversionPool.js';
import type { ConversionResult } from './protocol.js';

// The process's own pool, for callers that need only one (the server, the CLI): made on first use.
let shared: ConversionPool | undefined;
let sharedOptions: SharedPoolOptions = {};
const pool = () => (shared ??= createConversionPool(sharedOptions));

/** What {@link configureConversionPool} may set of the shared pool. */
export type SharedPoolOptions = Partial<Pick<ConversionPoolOptions, 'workerScript' | 'isolation' | 'memoryLimitMb'>>;

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
 * Sets how the shared pool runs its workers (the worker script, `undefined`: the real one; thread
 * or process isolation; a process's memory bound). When that changes, a new pool takes over and
 * the old one's idle workers stop, so no later job reaches them. Fault tests wrap the real worker;
 * the server runs conversions in processes.
 *
 * @example
 * ```ts
 * configureConversionPool({ isolation: 'process', memoryLimitMb: 2048 });
 * ```
 */
export function configureConversionPool(options: SharedPoolOptions): void {
  const same =
    sharedOptions.workerScript?.href === options.workerScript?.href &&
    sharedOptions.isolation === options.isolation &&
    sharedOptions.memoryLimitMb === options.memoryLimitMb;
  if (shared && same) return;
  void shared?.close();
  shared = undefined;
  sharedOptions = { ...options };
}
