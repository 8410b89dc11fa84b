import { basename, join } from 'node:path';
import { largeModels } from '../budgetBench.js';
import { BENCH_DIR, CORPUS_DIR, corpusFiles } from '../corpus.js';
import { jsonOfChild } from '../jsonOfChild.js';
import type { RenderedModel } from './renderModel.js';

/** One model's pictures, rendered in a process of its own, with that process's peak memory. */
export interface RenderRow extends RenderedModel {
  large: boolean;
  peakRssMb: number;
}

const CLI = new URL('./renderCli.js', import.meta.url).pathname;

/**
 * Every large model and every corpus IFC, large models first: each
 * rendered in full and as delivered within the default AR budget from the three fixed views
 * (`renderCli`, one fresh process a model: a large model's full read takes gigabytes; a line such as
 * a railway from the views of `lineViews`), the PNGs
 * in bench/renders/. A model the CLI fails on is left out, with its error on stderr.
 *
 * @example
 * ```ts
 * const rows = benchRender((f) => f.startsWith('revit2012'));
 * rows[0]!.views.map((v) => v.image); // → ['renders/revit2012_janesville_restaurant-outside.png', …]
 * ```
 */
export function benchRender(only?: (file: string) => boolean): RenderRow[] {
  const files = [
    ...largeModels().map((path) => ({ path, large: true })),
    ...corpusFiles('ifc')
      .filter((f) => f.endsWith('.ifc'))
      .map((f) => ({ path: join(CORPUS_DIR, 'ifc', f), large: false })),
  ].filter((f) => !only || only(basename(f.path)));
  const rows: RenderRow[] = [];
  for (const { path, large } of files) {
    console.error(`  ${basename(path)}`);
    const row = renderOne(path, large);
    if (row) rows.push(row);
  }
  return rows;
}

/**
 * One model rendered full beside delivered, in a process of its own (`renderCli`), its PNGs in
 * bench/renders/; undefined, with the error on stderr, when the CLI fails on it.
 *
 * @example
 * ```ts
 * renderOne('/tmp/restaurant-merged8.ifc', true)?.views[0]?.image; // → 'renders/restaurant-merged8-outside.png'
 * ```
 */
export function renderOne(path: string, large: boolean): RenderRow | undefined {
  return renderInChild([path], 'render', large);
}

/**
 * Part `index` of a model's parts archive beside the same elements of the model as read, in a
 * process of its own (`renderCli --part`); undefined, with the error on stderr, when it fails.
 *
 * @example
 * ```ts
 * renderPartOf('/tmp/restaurant-merged8.ifc', '/tmp/parts.zip', 0)?.views[0]?.image;
 * ```
 */
export function renderPartOf(path: string, partsPath: string, index: number): RenderRow | undefined {
  return renderInChild(['--part', partsPath, '--index', String(index), path], 'part render', true);
}

/** The one model `renderCli` renders with `args` into bench/renders/, as a row; `what` names a failure. */
function renderInChild(args: readonly string[], what: string, large: boolean): RenderRow | undefined {
  const result = jsonOfChild<Array<RenderedModel & { peakRssMb: number }>>(CLI, ['--out', join(BENCH_DIR, 'renders'), ...args], what)?.[0];
  return result && { ...result, large };
}
