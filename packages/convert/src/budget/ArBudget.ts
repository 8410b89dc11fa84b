import type { BudgetCategory } from './BudgetCategory.js';

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

/** The figures a budget limits, of one scene. */
export interface BudgetFigures {
  triangles: number;
  meshPrims: number;
  /** Longest side of the largest texture in pixels; 0 without textures. */
  largestTexture: number;
  /** Bytes: of the upload for the source, of the USDZ package for the delivered files (once written). */
  bytes?: number;
}

/**
 * How far one mesh's delivered surface and its full one lie apart each way (m, at the largest
 * scale it is drawn at), in the category it was counted in: upper bounds, each at most its
 * category's figure (a measurement stops refining once it cannot raise that).
 */
export interface MeshStray {
  category: BudgetCategory;
  deviation: number;
  uncovered: number;
}

/**
 * What one budget category (see `BudgetCategory`) gave up: triangles drawn before and after, how
 * far its delivered surface strays from its full one each way, and the elements it lost.
 */
export interface CategoryFigures {
  category: BudgetCategory;
  /** Triangles its elements draw in the full model. */
  sourceTriangles: number;
  /** Triangles its elements draw as delivered (boxes counted). */
  deliveredTriangles: number;
  /** Farthest (m) its delivered surface lies from its full one (a box: the box's diagonal); 0 when untouched. */
  maxDeviation: number;
  /** Farthest (m) its full surface lies from its delivered one (an element left out: its own size). */
  maxUncovered: number;
  /** Elements drawn as a stand-in in place of their shape: the box around them, its top face, or (envelope detail) a sheet or a rim. */
  proxiedElements: number;
  /** Elements left out, counted by IFC class (`mesh` for a model that names none), most first. */
  leftOut: Array<{ ifcClass: string; elements: number }>;
}

/**
 * What was done to bring a model within its budget. The steps run simplify, textures, merge
 * (`defaultBudgetSteps`); a report lists them in this type's fixed order, not the order they ran.
 */
export type BudgetStep = 'merged' | 'materials_merged' | 'simplified' | 'textures_resized';

/** What {@link fitArBudget} did, for the detail record, the CLI report and the benchmark. */
export interface BudgetReport {
  budget: ArBudget;
  source: BudgetFigures;
  delivered: BudgetFigures;
  /** The steps taken, in a fixed order (`merged`, `simplified`, `textures_resized`: see `BudgetLedger.steps`); empty when none was. */
  steps: BudgetStep[];
  /**
   * Largest distance in metres from the delivered surface to the full model's: an upper bound
   * over whole triangles (`DeviationProbe.bound`), not a sample; 0 when no vertex moved.
   */
  maxDeviation: number;
  /**
   * The other side: largest distance in metres from the full model's surface to the delivered
   * one, an upper bound too. Parts simplified away count here: pruned pieces by their distance to what is left of
   * their mesh, a mesh left out whole (below the smaller of 0.5 m and a thousandth of the model's diagonal, or
   * clutter left out to fit) by its own size.
   */
  maxUncovered: number;
  /** Whether the delivered figures are all within the budget. */
  withinBudget: boolean;
  /** What each category gave up, envelope first; empty when no triangle was simplified. */
  categories: CategoryFigures[];
}

/** Whether a scene's figures are within a budget (package bytes are checked once written). */
export function withinBudget(figures: BudgetFigures, budget: ArBudget): boolean {
  return figures.triangles <= budget.triangles && figures.meshPrims <= budget.meshPrims && figures.largestTexture <= budget.textureSize;
}
