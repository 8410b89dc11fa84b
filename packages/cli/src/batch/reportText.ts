import type { ConvertedReport, FileReport } from './convertFile.js';

/**
 * One line for a model of a batch on a terminal: where it went and what it holds, or why it was refused.
 *
 * @example
 * ```ts
 * io.stdout.write(`${reportLine(report)}\n`);
 * ```
 */
export function reportLine(r: FileReport): string {
  if (r.status === 'refused') return `✗ ${r.input}: ${r.error.code}: ${r.error.message}`;
  const warnings = r.warnings.length ? ` · ${r.warnings.length} warning${r.warnings.length > 1 ? 's' : ''}` : '';
  return `✓ ${r.input} → ${r.outputs.usdz.path} (${describeStats(r)}, ${r.seconds.toFixed(2)} s${warnings})`;
}

/**
 * The counts of a converted model in words.
 *
 * @example
 * ```ts
 * describeStats(report); // → '1,098 triangles, 35 mesh nodes, 38 draw calls, 7 materials, 0 textures'
 * ```
 */
export function describeStats(r: ConvertedReport): string {
  const s = r.stats;
  return `${s.triangles.toLocaleString('en-US')} triangles, ${s.meshNodes} mesh nodes, ${s.drawCalls} draw calls, ${s.materials} materials, ${s.textures} textures`;
}
