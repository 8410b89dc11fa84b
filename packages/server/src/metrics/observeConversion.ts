import { ConvertError, type ConversionResult } from '@arsession/convert';
import type { ServerMetrics } from './ServerMetrics.js';
import { recordConversionSteps } from '../tracing/spans.js';

/**
 * Runs a conversion and tells `metrics` how it went: its source format (the result's, or for a
 * refusal the file name's), its outcome (`converted`, or the refusal's code), its time, and the
 * AR budget's triangles; a conversion done also places its steps on the active trace
 * (`recordConversionSteps`). The one place every engine observes a conversion; its own result or
 * error passes through untouched.
 *
 * @example
 * ```ts
 * const result = await observeConversion(metrics, upload.name, () => convertModel(bytes, options));
 * ```
 */
export async function observeConversion<T extends ConversionResult>(
  metrics: ServerMetrics | undefined,
  fileName: string,
  run: () => Promise<T>,
): Promise<T> {
  const started = process.hrtime.bigint();
  const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
  try {
    const result = await run();
    const budget = result.budget && { source: result.budget.source.triangles, delivered: result.budget.delivered.triangles };
    metrics?.conversion(result.format, 'converted', seconds(), budget);
    recordConversionSteps(result.timings);
    return result;
  } catch (err) {
    // Only the converter's own codes label a series: anything else is one outcome, `error`.
    metrics?.conversion(formatOfName(fileName), err instanceof ConvertError ? err.code : 'error', seconds());
    throw err;
  }
}

/** A model's format as its name says, in the result's terms (`ifc`, `ifczip`, `glb`, `usdz`); `unknown` when it says none we read. */
function formatOfName(name: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  return ext === 'ifc' || ext === 'ifczip' || ext === 'glb' || ext === 'usdz' ? ext : 'unknown';
}
