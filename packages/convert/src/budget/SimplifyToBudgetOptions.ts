import { SIMPLIFICATION_POLICY_DEFAULTS, type SimplificationPolicy } from './SimplificationPolicy.js';

/** Options of `simplifyToBudget` (and of the `SceneSimplification` it drives): its rounds, and the policy's thresholds. */
export interface SimplifyToBudgetOptions extends SimplificationPolicy {
  /** Triangles drawn at most (a mesh drawn at several nodes counts at each). */
  triangles: number;
  /**
   * Error of the first round, in metres: 2 mm, below what a phone shows of a building (and the full model's first round is the
   * costliest).
   */
  firstError: number;
  /** Factor by which each further round allows more error. */
  growth: number;
  /** Halvings of the last step when it went far below the budget. */
  refinements: number;
  /** Triangles sampled on each side to measure what was taken away, over the whole scene. */
  samples: number;
  /**
   * Farthest (m) a part may stray from the full model, when the triangles allow: parts that stray
   * farther (and farther than `STRAY_PER_ERROR` times the error) are kept finer.
   */
  maxDeviation: number;
}

/**
 * Defaults of `simplifyToBudget`. Kept beside the options, not the operation: a conversion that
 * never simplifies (a model within the budget) reads them without loading the simplifier.
 */
export const SIMPLIFY_TO_BUDGET_DEFAULTS: Readonly<SimplifyToBudgetOptions> = {
  triangles: 100_000,
  firstError: 0.002,
  growth: 2,
  refinements: 1,
  samples: 20_000,
  maxDeviation: 0.02,
  ...SIMPLIFICATION_POLICY_DEFAULTS,
};
