import type { FileReport } from './convertFile.js';

/**
 * The table printed at the end of a batch: per input format, files converted and refused,
 * megabytes in and out, triangles and conversion time; then every refused file with the reason.
 *
 * @example
 * ```ts
 * io.stdout.write(summaryTable(reports, 12.3));
 * ```
 */
export function summaryTable(reports: readonly FileReport[], wallSeconds: number): string {
  const rows = new Map<
    string,
    { converted: number; refused: number; inBytes: number; outBytes: number; triangles: number; seconds: number }
  >();
  const row = (key: string) => {
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { converted: 0, refused: 0, inBytes: 0, outBytes: 0, triangles: 0, seconds: 0 }));
    return r;
  };
  for (const report of reports) {
    const r = row(report.status === 'converted' ? report.format.toUpperCase() : 'refused');
    r.inBytes += report.bytes;
    r.seconds += report.seconds;
    if (report.status === 'converted') {
      r.converted++;
      r.outBytes += report.outputs.usdz.bytes + (report.outputs.glb?.bytes ?? 0);
      r.triangles += report.stats.triangles;
    } else r.refused++;
  }
  const total = [...rows.values()].reduce(
    (t, r) => ({
      converted: t.converted + r.converted,
      refused: t.refused + r.refused,
      inBytes: t.inBytes + r.inBytes,
      outBytes: t.outBytes + r.outBytes,
      triangles: t.triangles + r.triangles,
      seconds: t.seconds + r.seconds,
    }),
    { converted: 0, refused: 0, inBytes: 0, outBytes: 0, triangles: 0, seconds: 0 },
  );
  const header = ['', 'converted', 'refused', 'MB in', 'MB out', 'triangles', 'CPU s'];
  const cells = [...rows, ['total', total] as const].map(([name, r]) => [
    name,
    String(r.converted),
    String(r.refused),
    (r.inBytes / 1e6).toFixed(1),
    (r.outBytes / 1e6).toFixed(1),
    r.triangles.toLocaleString('en-US'),
    r.seconds.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  const out = [line(header), ...cells.map(line), `${reports.length} files in ${wallSeconds.toFixed(1)} s`];
  const refused = reports.filter((r) => r.status === 'refused');
  if (refused.length) {
    out.push('', 'refused:');
    for (const r of refused) if (r.status === 'refused') out.push(`  ${r.input}: ${r.error.code}: ${r.error.message}`);
  }
  return `${out.join('\n')}\n`;
}
