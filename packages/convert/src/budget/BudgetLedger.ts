import type { BudgetStep, CategoryFigures } from './ArBudget.js';

/** What the steps of an AR budget aim at in one pass: tightened by `fitArBudget` while the package is too big. */
export interface BudgetTargets {
  /** Triangles drawn at most. */
  triangles: number;
  /** Longest texture side at most (px). */
  textureSize: number;
  /** Mesh prims at most. */
  meshPrims: number;
}

/**
 * What one pass of an AR budget's steps did, kept as they go: the targets they aim at, and a verb
 * for each thing a step can do to a scene. `fitArBudget` reports from it (steps in their fixed
 * order, the deviation, the categories), whatever order the steps ran in.
 *
 * @example
 * ```ts
 * const ledger = new BudgetLedger({ triangles: 100_000, textureSize: 2048, meshPrims: 200 });
 * ledger.texturesResized(3);
 * ledger.steps(); // → ['textures_resized']
 * ```
 */
export class BudgetLedger {
  private merging: { steps: BudgetStep[]; grouping: string } = { steps: [], grouping: '' };
  private simplification: { maxDeviation: number; maxUncovered: number; categories: CategoryFigures[] } | undefined;
  private resized = 0;

  constructor(
    readonly targets: Readonly<BudgetTargets>,
    readonly fileName?: string,
  ) {}

  /** Triangles were simplified: how far the surface moved each way (m) and what each category gave up. */
  simplified(result: { maxDeviation: number; maxUncovered: number; categories: CategoryFigures[] }): void {
    this.simplification = { maxDeviation: result.maxDeviation, maxUncovered: result.maxUncovered, categories: result.categories };
  }

  /** `count` textures were scaled down. */
  texturesResized(count: number): void {
    this.resized += count;
  }

  /** Mesh prims were merged (`steps` empty when nothing was), grouped as `grouping` says. */
  merged(result: { steps: BudgetStep[]; grouping: string }): void {
    this.merging = { steps: [...result.steps], grouping: result.grouping };
  }

  /** Whether any triangle was simplified. */
  get trianglesSimplified(): boolean {
    return this.simplification !== undefined;
  }

  /** Textures scaled down. */
  get texturesScaled(): number {
    return this.resized;
  }

  /** How the merged prims were grouped (`''` when none were merged). */
  get grouping(): string {
    return this.merging.grouping;
  }

  /** The distances the simplification moved the surface (0 when it did not run). */
  get deviation(): { maxDeviation: number; maxUncovered: number } {
    return { maxDeviation: this.simplification?.maxDeviation ?? 0, maxUncovered: this.simplification?.maxUncovered ?? 0 };
  }

  /** What each category gave up to the simplification (empty when it did not run). */
  get categories(): CategoryFigures[] {
    return this.simplification?.categories ?? [];
  }

  /**
   * What was done, in the report's order: merging, then simplifying, then textures.
   * `simplifiedAlready`: the scene came simplified (a reader reduced it as it streamed).
   */
  steps({ simplifiedAlready = false }: { simplifiedAlready?: boolean } = {}): BudgetStep[] {
    const simplified = this.simplification !== undefined || simplifiedAlready;
    return [...this.merging.steps, ...(simplified ? ['simplified' as const] : []), ...(this.resized ? ['textures_resized' as const] : [])];
  }
}
