import type { BudgetFigures, BudgetReport, CategoryFigures } from '../budget/ArBudget.js';
import type { ArBudgetOnWire, BudgetFiguresOnWire } from './wireSchemas.js';

export type { ArBudgetOnWire, BudgetFiguresOnWire, CategoryOnWire } from './wireSchemas.js';

/** Metres as the wire states them: to 0.1 mm. */
export const metresOnWire = (m: number): number => Math.round(m * 1e4) / 1e4;

/**
 * A conversion's budget report as the detail record states it (snake case, metres rounded to
 * 0.1 mm).
 *
 * @example
 * ```ts
 * arBudgetOnWire(result.budget).delivered.triangles; // ≤ limits.triangles
 * ```
 */
export function arBudgetOnWire(report: BudgetReport): ArBudgetOnWire {
  const figures = (f: BudgetFigures): BudgetFiguresOnWire => ({
    triangles: f.triangles,
    mesh_prims: f.meshPrims,
    largest_texture_px: f.largestTexture,
    bytes: f.bytes ?? null,
  });
  return {
    within_budget: report.withinBudget,
    steps: report.steps,
    limits: {
      triangles: report.budget.triangles,
      mesh_prims: report.budget.meshPrims,
      texture_px: report.budget.textureSize,
      package_bytes: report.budget.packageBytes,
    },
    source: figures(report.source),
    delivered: figures(report.delivered),
    max_deviation_m: metresOnWire(report.maxDeviation),
    max_uncovered_m: metresOnWire(report.maxUncovered),
    categories: report.categories.map((c: CategoryFigures) => ({
      category: c.category,
      source_triangles: c.sourceTriangles,
      delivered_triangles: c.deliveredTriangles,
      max_deviation_m: metresOnWire(c.maxDeviation),
      max_uncovered_m: metresOnWire(c.maxUncovered),
      proxied_elements: c.proxiedElements,
      left_out: c.leftOut.map((l) => ({ ifc_class: l.ifcClass, elements: l.elements })),
    })),
  };
}
