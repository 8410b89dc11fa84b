import type { CategoryFigures } from './ArBudget.js';
import { BUDGET_CATEGORIES } from './BudgetCategory.js';

/**
 * What each category gave up over two budget stages one after the other (the stream's reduction,
 * then the budget's own): the first's source, the second's delivery, deviations added (each stage
 * is within its figure of the one before, so the sum bounds both: Hausdorff's triangle
 * inequality), and the elements either stage boxed or left out.
 *
 * @example
 * ```ts
 * chainCategories(scene.streamReduced.categories, simplified.categories);
 * ```
 */
export function chainCategories(first: readonly CategoryFigures[], second: readonly CategoryFigures[]): CategoryFigures[] {
  return BUDGET_CATEGORIES.flatMap((category) => {
    const a = first.find((c) => c.category === category),
      b = second.find((c) => c.category === category);
    if (!a || !b) return a ? [a] : b ? [b] : [];
    const leftOut = new Map<string, number>();
    for (const { ifcClass, elements } of [...a.leftOut, ...b.leftOut]) leftOut.set(ifcClass, (leftOut.get(ifcClass) ?? 0) + elements);
    return [
      {
        category,
        sourceTriangles: a.sourceTriangles,
        deliveredTriangles: b.deliveredTriangles,
        maxDeviation: a.maxDeviation + b.maxDeviation,
        maxUncovered: a.maxUncovered + b.maxUncovered,
        proxiedElements: a.proxiedElements + b.proxiedElements,
        leftOut: [...leftOut]
          .map(([ifcClass, elements]) => ({ ifcClass, elements }))
          .sort((x, y) => y.elements - x.elements || x.ifcClass.localeCompare(y.ifcClass)),
      },
    ];
  });
}
