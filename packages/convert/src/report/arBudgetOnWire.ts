import type { BudgetFigures, BudgetReport, BudgetStep, CategoryFigures } from '../budget/ArBudget.js';
import type { BudgetCategory } from '../budget/BudgetCategory.js';

/** Figures of a model the AR budget limits, as the detail record states them. */
export interface BudgetFiguresOnWire {
  triangles: number;
  mesh_prims: number;
  /** Longest side of the largest texture (px); 0 without textures. */
  largest_texture_px: number;
  /** The upload's bytes (source), the USDZ package's (delivered). */
  bytes: number | null;
}

/** What the AR budget did to one model: the limits, the figures before and after, what it cost. */
export interface ArBudgetOnWire {
  within_budget: boolean;
  /** What was done, cheapest loss first; empty when the model was delivered as read. */
  steps: BudgetStep[];
  limits: { triangles: number; mesh_prims: number; texture_px: number; package_bytes: number };
  source: BudgetFiguresOnWire;
  delivered: BudgetFiguresOnWire;
  /** Largest distance from the delivered surface to the full model's (m), measured; 0 when nothing moved. */
  max_deviation_m: number;
  /** Largest distance from the full model's surface to the delivered one (m): parts simplified away count here. */
  max_uncovered_m: number;
  /** What each category of element gave up, envelope first; absent for sessions made before it was reported. */
  categories?: CategoryOnWire[];
}

/** What one category of element (envelope, furniture, MEP, other) gave up to the AR budget. */
export interface CategoryOnWire {
  category: BudgetCategory;
  source_triangles: number;
  delivered_triangles: number;
  max_deviation_m: number;
  max_uncovered_m: number;
  /** Elements drawn as a stand-in: the box around them, its top face, or (envelope detail) a sheet or a rim. */
  proxied_elements: number;
  /** Elements left out, by IFC class. */
  left_out: Array<{ ifc_class: string; elements: number }>;
}

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
