import { join } from 'node:path';
import { largeModels } from '../budgetBench.js';
import { CORPUS_DIR, corpusFiles } from '../corpus.js';
import { jsonOfChild } from '../jsonOfChild.js';
import type { FidelityResult } from './measureFidelity.js';

/** One model's fidelity, measured in a process of its own, with that process's peak memory. */
export interface FidelityRow extends FidelityResult {
  large: boolean;
  peakRssMb: number;
}

const CLI = new URL('./fidelityCli.js', import.meta.url).pathname;

/**
 * Every corpus IFC and every large model: the budgeted delivery against the full model, both ways,
 * by IFC class category (`fidelityCli`, one fresh process a model: a large model's full read and
 * tree take gigabytes). GLB has no IFC classes (everything would be "other"): the CLI measures one
 * on request. A model the CLI fails on is left out, with its error on stderr.
 *
 * @example
 * ```ts
 * const rows = benchFidelity((f) => f.startsWith('AC20'));
 * ```
 */
export function benchFidelity(only?: (file: string) => boolean): FidelityRow[] {
  const files = [
    ...corpusFiles('ifc')
      .filter((f) => f.endsWith('.ifc'))
      .map((f) => ({ path: join(CORPUS_DIR, 'ifc', f), large: false })),
    ...largeModels()
      .filter((f) => /\.ifc$/i.test(f))
      .map((path) => ({ path, large: true })),
  ].filter((f) => !only || only(f.path.split('/').pop()!));
  const rows: FidelityRow[] = [];
  for (const { path, large } of files) {
    console.error(`  ${path.split('/').pop()}`);
    const result = fidelityInProcess(path);
    if (result) rows.push({ ...result, large });
  }
  return rows;
}

/**
 * One model's fidelity (see `measureFidelity`) in a fresh process of its own, with that process's
 * peak memory; undefined, with the error on stderr, when the process fails.
 *
 * @example
 * ```ts
 * fidelityInProcess('merged2.ifc')?.coverage.categories.envelope.median; // → 0
 * ```
 */
export function fidelityInProcess(path: string): (FidelityResult & { peakRssMb: number }) | undefined {
  return jsonOfChild<Array<FidelityResult & { peakRssMb: number }>>(CLI, [path], 'fidelity')?.[0];
}
