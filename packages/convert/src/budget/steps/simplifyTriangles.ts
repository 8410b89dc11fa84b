import type { BudgetTransform } from '../BudgetTransform.js';
import { SIMPLIFY_TO_BUDGET_DEFAULTS, type SimplifyToBudgetOptions } from '../SimplifyToBudgetOptions.js';

/** Options of {@link simplifyTriangles}: `simplifyToBudget`'s, but for the triangles, which come from the budget's targets. */
export type SimplifyTrianglesOptions = Omit<SimplifyToBudgetOptions, 'triangles'>;

/** Defaults of {@link simplifyTriangles}: `simplifyToBudget`'s, the triangles aside. */
export const SIMPLIFY_TRIANGLES_DEFAULTS: Readonly<SimplifyTrianglesOptions> = (({ triangles: _triangles, ...rest }) => rest)(
  SIMPLIFY_TO_BUDGET_DEFAULTS,
);

/**
 * The AR budget's triangle step: a scene over the target's triangles simplified element by
 * element, from what a person misses least (`simplifyToBudget`); one within it is left as it is.
 *
 * @example
 * ```ts
 * await fitArBudget(scene, { triangles: 50_000 }, { steps: [simplifyTriangles({ maxDeviation: 0.01, proxyMaxSize: 2 }), mergePrims()] });
 * ```
 */
export function simplifyTriangles(options: Partial<SimplifyTrianglesOptions> = {}): BudgetTransform {
  const opts = { ...SIMPLIFY_TRIANGLES_DEFAULTS, ...options };
  return async (scene, ledger) => {
    if (scene.stats.triangles <= ledger.targets.triangles) return scene;
    // Loaded when a scene is over: one within the budget never loads the simplifier (or meshoptimizer).
    const { simplifyToBudget } = await import('../simplifyToBudget.js');
    const simplified = await simplifyToBudget(scene, { ...opts, triangles: ledger.targets.triangles });
    ledger.simplified(simplified);
    return simplified.scene;
  };
}
