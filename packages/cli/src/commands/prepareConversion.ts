import { statSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { warmConversionPool } from '@arsession/convert/pool';
import { isDynamicPattern } from 'tinyglobby';

/** The flags of `arsession convert`. */
export const CONVERT_OPTIONS = {
  out: { type: 'string', short: 'o' }, glb: { type: 'string' }, timeout: { type: 'string' }, jobs: { type: 'string', short: 'j' }, json: { type: 'boolean' },
} as const;

/** Whether the inputs make a batch: several of them, a folder or a glob among them, or a folder (or `…/`) to write to. */
export function isBatch(inputs: readonly string[], out: string): boolean {
  return inputs.length > 1 || out.endsWith('/') || isFolder(out) || inputs.some((p) => isDynamicPattern(p) || isFolder(p));
}

/**
 * Gets the conversion worker going as soon as the command knows what it converts, so its start-up
 * — a thread, the readers, web-ifc for an IFC — overlaps the CLI reading the file.
 * A single model is one pass through web-ifc, so V8's optimising WASM compiler is held back: it
 * would only compete for the cores and, at exit, be waited for (~150 ms on a small IFC). A batch
 * keeps it, as its workers run web-ifc's hot loops over and over. Arguments it cannot make sense
 * of are left for the command to refuse.
 *
 * @example
 * ```ts
 * prepareConversion(['house.ifc'], 'house.usdz');
 * ```
 */
export function prepareConversion(inputs: readonly string[], out: string): void {
  if (inputs.length === 0 || isBatch(inputs, out)) return;
  setFlagsFromString('--wasm-tiering-budget=2000000000');
  warmConversionPool({ workers: 1, preloadIfc: /\.ifc(zip)?$/i.test(inputs[0]!) });
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
