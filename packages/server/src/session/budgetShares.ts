import type { ArBudget } from '@arsession/convert';

/**
 * The share of a session's mesh prims split equally among its models, the rest following their
 * triangles: a draw call costs the same whatever it draws, and a small model needs a few to keep
 * its materials apart (a balcony model's green slabs from its blue fixings, not one colour for all).
 */
const PRIMS_SHARED_EQUALLY = 0.5;

/** Options of {@link budgetShares}. */
export interface BudgetSharesOptions {
  /**
   * The least share of the session's budget a model gets, as a fraction of an equal share, when
   * its elements are not known: a small model still has room.
   */
  leastOfEqualShare: number;
  /**
   * Triangles that keep one element in sight: the box the budget stands it in as, its coarsest form
   * before it is left out.
   */
  trianglesPerElement: number;
}

/** Defaults of {@link budgetShares}. */
export const BUDGET_SHARES_DEFAULTS: Readonly<BudgetSharesOptions> = { leastOfEqualShare: 1 / 4, trianglesPerElement: 12 };

/** An upload of the session, as its share is made: its bytes, and its elements when they could be counted (`estimateElements`). */
export interface ShareInput {
  bytes: number;
  elements?: number | undefined;
}

/**
 * The AR budget of each model of a session. The budget holds for what a device loads together,
 * and a session's models are loaded together, in the one frame they share: a federation of
 * discipline models (architecture, structure, services) shares one budget. One model has the
 * whole budget, as it always had.
 *
 * Each model has one triangle first, the least a conversion runs with. The rest go first where
 * they keep elements in sight: each model is owed a box's triangles for each of its elements (the
 * least its elements can be drawn with), so a masonry model of a thousand blocks is not cut to a
 * quarter while a steel model spends its share on bolts; what is left goes by bytes. A model
 * whose elements are not known is owed a quarter of an equal share. When what is owed is more
 * than the budget, each gets its part of it. Package bytes follow the triangle shares (none
 * below a quarter of an equal share); half the mesh prims are shared equally and half so; the
 * texture size is per image and stays.
 *
 * @example
 * ```ts
 * budgetShares(AR_BUDGET_DEFAULTS, [{ bytes: 3e6, elements: 40 }, { bytes: 1e5, elements: 5000 }]).map((b) => b.triangles);
 * // → [38724, 61275]: the many small elements are kept; the large file has most of the rest
 * ```
 */
export function budgetShares(budget: ArBudget, uploads: readonly ShareInput[], options: Partial<BudgetSharesOptions> = {}): ArBudget[] {
  if (uploads.length <= 1) return uploads.map(() => budget);
  const { leastOfEqualShare, trianglesPerElement } = { ...BUDGET_SHARES_DEFAULTS, ...options };
  const least = leastOfEqualShare / uploads.length;
  const owed = uploads.map((u) => (u.elements === undefined ? least * budget.triangles : u.elements * trianglesPerElement));
  // Each model has one triangle before any is shared: a conversion needs a budget to run with,
  // and a model owed nothing beside one owed everything still gets it without the sum going over.
  const triangles = share(Math.max(0, budget.triangles - uploads.length), owed, uploads).map((t) => 1 + Math.floor(t));
  const fractions = triangles.map((t) => Math.max(least, t / budget.triangles));
  const sum = fractions.reduce((n, f) => n + f, 0);
  return uploads.map((_, i) => ({
    triangles: triangles[i]!,
    meshPrims: Math.max(
      1,
      Math.floor(budget.meshPrims * (PRIMS_SHARED_EQUALLY / uploads.length + ((1 - PRIMS_SHARED_EQUALLY) * fractions[i]!) / sum)),
    ),
    textureSize: budget.textureSize,
    packageBytes: Math.max(1, Math.floor((budget.packageBytes * fractions[i]!) / sum)),
  }));
}

/** `total` split: what each is owed first (scaled down when it is more than the total), the rest by bytes. */
function share(total: number, owed: readonly number[], uploads: readonly ShareInput[]): number[] {
  const owedSum = owed.reduce((n, o) => n + o, 0);
  if (owedSum >= total) return owed.map((o) => (total * o) / owedSum);
  const bytes = uploads.reduce((n, u) => n + u.bytes, 0);
  const rest = total - owedSum;
  return owed.map((o, i) => o + (bytes > 0 ? (rest * uploads[i]!.bytes) / bytes : rest / uploads.length));
}
