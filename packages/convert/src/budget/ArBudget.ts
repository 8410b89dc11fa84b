/**
 * What an AR client can draw smoothly: the limits a delivered model is brought within. Figures
 * from Apple's guidance for AR Quick Look and RealityKit (WWDC23 10274, "Creating USD files for
 * Apple devices"): about 100k triangles, at most 200 mesh prims (load time grows with prims far
 * more than with triangles), textures of at most 2048 px, a package of at most 25 MB.
 */
export interface ArBudget {
  /** Triangles drawn (instances count each time they are drawn). */
  triangles: number;
  /** Mesh prims in the USDZ (draw calls: one per mesh per node). */
  meshPrims: number;
  /** Longest side of any texture, in pixels. */
  textureSize: number;
  /** Bytes of the delivered USDZ package. */
  packageBytes: number;
}

/** The default {@link ArBudget}: what an iPhone's AR Quick Look opens smoothly. */
export const AR_BUDGET_DEFAULTS: Readonly<ArBudget> = {
  triangles: 100_000,
  meshPrims: 200,
  textureSize: 2048,
  packageBytes: 25 * 1024 * 1024,
};

/** A budget that never changes anything: the model delivered as it is read. */
export const NO_AR_BUDGET: Readonly<ArBudget> = {
  triangles: Number.POSITIVE_INFINITY,
  meshPrims: Number.POSITIVE_INFINITY,
  textureSize: Number.POSITIVE_INFINITY,
  packageBytes: Number.POSITIVE_INFINITY,
};

/** The figures a budget limits, of one scene. */
export interface BudgetFigures {
  triangles: number;
  meshPrims: number;
  /** Longest side of the largest texture in pixels; 0 without textures. */
  largestTexture: number;
  /** Bytes: of the upload for the source, of the USDZ package for the delivered files (once written). */
  bytes?: number;
}

/** What was done to bring a model within its budget, cheapest loss first. */
export type BudgetStep = 'merged' | 'materials_merged' | 'simplified' | 'textures_resized';

/** What {@link fitArBudget} did, for the detail record, the CLI report and the benchmark. */
export interface BudgetReport {
  budget: ArBudget;
  source: BudgetFigures;
  delivered: BudgetFigures;
  /** The steps taken, in order; empty when the model was within budget and delivered as read. */
  steps: BudgetStep[];
  /**
   * Largest distance in metres from the delivered surface to the full model's, measured by
   * sampling against the full model (a one-sided Hausdorff estimate); 0 when no vertex moved.
   */
  maxDeviation: number;
  /**
   * The other side: largest distance in metres from the full model's surface to the delivered
   * one. Parts simplified away count here: pruned pieces by their distance to what is left of
   * their mesh, a part left out whole (smaller than a hundredth of the model) by its own size.
   */
  maxUncovered: number;
  /** Whether the delivered figures are all within the budget. */
  withinBudget: boolean;
}

/** Whether a scene's figures are within a budget (package bytes are checked once written). */
export function withinBudget(figures: BudgetFigures, budget: ArBudget): boolean {
  return figures.triangles <= budget.triangles && figures.meshPrims <= budget.meshPrims && figures.largestTexture <= budget.textureSize;
}
