import type { ArBudget } from '@arsession/convert';

/** Options of {@link budgetShares}. */
export interface BudgetSharesOptions {
  /** The least share of the session's budget one model gets, as a fraction of an equal share: a small model still has room. */
  leastOfEqualShare: number;
}

/** Defaults of {@link budgetShares}. */
export const BUDGET_SHARES_DEFAULTS: Readonly<BudgetSharesOptions> = { leastOfEqualShare: 1 / 4 };

/**
 * The AR budget of each model of a session. The budget holds for what a device loads together,
 * and a session's models are loaded together, in the one frame they share: a federation of
 * discipline models (architecture, structure, services) shares one budget. Each model gets a
 * share of the triangles, mesh prims and package bytes in proportion to its upload's bytes (known
 * before anything is read), at least a quarter of an equal share; the texture size is per image
 * and stays. One model has the whole budget, as it always had.
 *
 * @example
 * ```ts
 * budgetShares(AR_BUDGET_DEFAULTS, [{ bytes: 3e6 }, { bytes: 1e6 }]).map((b) => b.triangles); // → [75000, 25000]
 * ```
 */
export function budgetShares(
  budget: ArBudget,
  uploads: ReadonlyArray<{ bytes: number }>,
  options: Partial<BudgetSharesOptions> = {},
): ArBudget[] {
  if (uploads.length <= 1) return uploads.map(() => budget);
  const { leastOfEqualShare } = { ...BUDGET_SHARES_DEFAULTS, ...options };
  const total = uploads.reduce((n, u) => n + u.bytes, 0);
  const least = leastOfEqualShare / uploads.length;
  const raw = uploads.map((u) => Math.max(least, total > 0 ? u.bytes / total : 1 / uploads.length));
  const sum = raw.reduce((n, s) => n + s, 0);
  return raw.map((r) => {
    const share = r / sum;
    return {
      triangles: Math.max(1, Math.floor(budget.triangles * share)),
      meshPrims: Math.max(1, Math.floor(budget.meshPrims * share)),
      textureSize: budget.textureSize,
      packageBytes: Math.max(1, Math.floor(budget.packageBytes * share)),
    };
  });
}
