import { BUDGET_CATEGORIES } from '@arsession/convert';
import type { FidelityDirection, FidelityResult } from './measureFidelity.js';
import type { DistanceSummary } from './summarizeDistances.js';

const mm = (m: number | null) => (m === null ? '—' : m === Number.POSITIVE_INFINITY ? '∞' : (m * 1000).toFixed(1));
const pct = (share: number | null) => (share === null ? '—' : `${(share * 100).toFixed(share > 0 && share < 0.001 ? 3 : 1)}%`);

/** What {@link fidelityTable}'s columns mean, to print once above the tables. */
export const FIDELITY_LEGEND: readonly string[] = [
  'Left, deviation: points on the delivered surface, distance to the nearest point of the whole full model; right, coverage: points on',
  "the full surface, distance to the nearest point of the whole delivered model. Area: the category's share of the surface sampled",
  '(its triangles\' area). Distances in mm; "> 2 cm", "> 10 cm": share of the category\'s points farther than that.',
];

/**
 * One model's fidelity as Markdown: a line of figures, then a table with a row per category and
 * one overall, both directions side by side (distances in mm), and the budget's reported figures
 * beside the sampled maxima. What the CLI prints and RESULTS.md shows.
 *
 * @example
 * ```ts
 * console.error(fidelityTable(await measureFidelity(path)).join('\n'));
 * ```
 */
export function fidelityTable(r: FidelityResult & { peakRssMb?: number }): string[] {
  const n = (v: number) => v.toLocaleString('en-US');
  const row = (name: string, a: DistanceSummary, b: DistanceSummary) =>
    `| ${name} | ${pct(a.areaShare)} | ${mm(a.median)} | ${mm(a.p99)} | ${mm(a.max)} | ${pct(a.over2cm)} | ${pct(a.over10cm)} | ` +
    `${pct(b.areaShare)} | ${mm(b.median)} | ${mm(b.p99)} | ${mm(b.max)} | ${pct(b.over2cm)} | ${pct(b.over10cm)} |`;
  const sameFrame = r.offsets.full.every((v, k) => v === r.offsets.delivered[k]);
  return [
    `**${r.file}**: ${n(r.triangles.full)} → ${n(r.triangles.delivered)} triangles (${r.steps.join(', ') || 'delivered as read'}), ` +
      `${n(r.samples)} points each way; ${(r.ms.total / 1000).toFixed(1)} ` +
      `s${r.peakRssMb === undefined ? '' : `, peak ${n(Math.round(r.peakRssMb))} MB`}` +
      (sameFrame
        ? ''
        : `; offsets differ (full ${r.offsets.full.join(', ')}, ` +
          `delivered ${r.offsets.delivered.join(', ')}), ` +
          'delivered moved into the full frame') +
      '.',
    '',
    `Reported by the budget: maxDeviation ${mm(r.deviation.reported)} mm ` +
      `(sampled max ${mm(r.deviation.overall.max)}: ${bound(r.deviation)}), ` +
      `maxUncovered ${mm(r.coverage.reported)} mm (sampled max ${mm(r.coverage.overall.max)}: ${bound(r.coverage)}).`,
    '',
    '| category | delivered area | median | p99 | max | > 2 cm | > 10 cm | full area | median | p99 | max | > 2 cm | > 10 cm |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...BUDGET_CATEGORIES.map((c) => row(c, r.deviation.categories[c], r.coverage.categories[c])),
    row('**all**', r.deviation.overall, r.coverage.overall),
    '',
  ];
}

function bound(d: FidelityDirection): string {
  return d.bounded ? 'an upper bound' : '**not an upper bound**';
}
