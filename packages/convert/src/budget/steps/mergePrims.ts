import { MERGE_BY_MATERIAL_DEFAULTS } from '../../scene/mergeByMaterial.js';
import type { BudgetTransform } from '../BudgetTransform.js';
import { MERGE_TO_PRIM_BUDGET_DEFAULTS, mergeToPrimBudget, type MergeToPrimBudgetOptions } from '../mergeToPrimBudget.js';

/** Options of {@link mergePrims}: `mergeToPrimBudget`'s, and a ceiling. */
export interface MergePrimsOptions extends MergeToPrimBudgetOptions {
  /**
   * Mesh prims at most whatever the budget allows: a model gets no more draw calls than the same
   * model without a budget (`mergeByMaterial` merges past 300).
   */
  ceiling: number;
}

/** Defaults of {@link mergePrims}: the ceiling of `mergeByMaterial`'s defaults. */
export const MERGE_PRIMS_DEFAULTS: Readonly<MergePrimsOptions> = {
  ceiling: MERGE_BY_MATERIAL_DEFAULTS.minDrawCalls,
  ...MERGE_TO_PRIM_BUDGET_DEFAULTS,
};

/**
 * The AR budget's prim step: mesh prims merged within the target (`mergeToPrimBudget`: by storey or
 * spatial cell and material, then material, then alike materials), after the triangles were
 * simplified element by element, so a merge never joins what a simplification would then drag.
 *
 * @example
 * ```ts
 * await fitArBudget(scene, { meshPrims: 50 }, { steps: [simplifyTriangles(), mergePrims()] });
 * ```
 */
export function mergePrims(options: Partial<MergePrimsOptions> = {}): BudgetTransform {
  const { ceiling, ...grouping } = { ...MERGE_PRIMS_DEFAULTS, ...options };
  return (scene, ledger) => {
    const merged = mergeToPrimBudget(scene, Math.min(ledger.targets.meshPrims, ceiling), grouping);
    ledger.merged(merged);
    return merged.scene;
  };
}
