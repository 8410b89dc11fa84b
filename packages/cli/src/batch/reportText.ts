import type { PartOnWire } from '@arsession/convert/pool';
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
  return (
    `${s.triangles.toLocaleString('en-US')} triangles, ${s.mesh_nodes} mesh nodes, ${s.draw_calls} draw calls, ` +
    `${s.materials} materials, ${s.textures} textures`
  );
}

/**
 * What the AR budget did to a model, in words; `undefined` when it changed nothing.
 *
 * @example
 * ```ts
 * describeBudget(report); // → 'AR budget: 261,069 → 83,668 triangles, 13 → 13 mesh prims, …; largest deviation 31.9 mm …'
 * ```
 */
export function describeBudget(r: ConvertedReport): string | undefined {
  const b = r.ar_budget;
  if (!b || b.steps.length === 0) return undefined;
  const n = (v: number) => v.toLocaleString('en-US');
  const mb = (v: number | null) => (v === null ? '?' : (v / 1e6).toFixed(1));
  const over = b.within_budget ? '' : ' — still over budget';
  return (
    `AR budget: ${n(b.source.triangles)} → ${n(b.delivered.triangles)} triangles, ` +
    `${n(b.source.mesh_prims)} → ${n(b.delivered.mesh_prims)} mesh prims, ` +
    `largest texture ${b.source.largest_texture_px} → ${b.delivered.largest_texture_px} ` +
    `px, ${mb(b.source.bytes)} → ${mb(b.delivered.bytes)} MB; ` +
    `largest deviation ${(b.max_deviation_m * 1000).toFixed(1)} mm (${b.steps.join(', ')})${over}`
  );
}

/**
 * What each category of element gave up to the AR budget, a line each, envelope first; empty when
 * the budget changed nothing or a category kept all it had.
 *
 * @example
 * ```ts
 * describeCategories(report); // → ['furniture: 8,911,200 → 30,120 triangles, deviation 12.0 mm, 310 as boxes, left out 55
 * IfcFurnishingElement']
 * ```
 */
export function describeCategories(r: ConvertedReport): string[] {
  const b = r.ar_budget;
  if (!b || b.steps.length === 0) return [];
  const n = (v: number) => v.toLocaleString('en-US');
  return (b.categories ?? [])
    .filter((c) => c.delivered_triangles !== c.source_triangles || c.left_out.length > 0 || c.proxied_elements > 0)
    .map(
      (c) =>
        `${c.category}: ${n(c.source_triangles)} → ${n(c.delivered_triangles)} ` +
        `triangles, deviation ${(c.max_deviation_m * 1000).toFixed(1)} mm` +
        (c.proxied_elements ? `, ${n(c.proxied_elements)} as boxes` : '') +
        (c.left_out.length ? `, left out ${c.left_out.map((l) => `${n(l.elements)} ${l.ifc_class}`).join(', ')}` : ''),
    );
}

/**
 * One part of a model over the budget in words: its file, name, storey elevation, figures and the
 * envelope's deviation (what a person checks first: are the walls as read?).
 *
 * @example
 * ```ts
 * describePart(part); // → '01.usdz  Level 1 (0 m): 17,168 triangles, 23 draw calls, as read'
 * ```
 */
export function describePart(p: PartOnWire & { file: string }): string {
  const elevation = p.storey?.elevation_m == null ? '' : ` (${p.storey.elevation_m} m)`;
  const envelope = p.ar_budget.categories?.find((c) => c.category === 'envelope');
  const deviation = envelope ? envelope.max_deviation_m : p.ar_budget.max_deviation_m;
  const shape = deviation === 0 ? 'as read' : `${envelope ? 'envelope' : 'deviation'} within ${Math.round(deviation * 1000)} mm`;
  return `${p.file}  ${p.name}${elevation}: ${p.triangles.toLocaleString('en-US')} triangles, ${p.draw_calls} draw calls, ${shape}`;
}
