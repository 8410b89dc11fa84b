/**
 * What part of a building an element is, as far as the AR budget cares: the order in which it
 * gives up triangles. `envelope` is what makes the building itself (walls, slabs, roofs, openings,
 * structure, stairs, railings) and keeps its shape to the last; `furniture`, `mep` and `other`
 * are what a person misses least, coarsened first.
 */
export type BudgetCategory = 'envelope' | 'furniture' | 'mep' | 'other';

/** Every {@link BudgetCategory}, envelope first: the order reports list them in. */
export const BUDGET_CATEGORIES: readonly BudgetCategory[] = ['envelope', 'furniture', 'mep', 'other'];
