import type { StreamReductionOptions } from './StreamReduction.js';

/**
 * Triangles up to which a model is read in full: what was always read so before the AR budget
 * started reducing models as they are read (1 M, or ten times a larger budget). A model reduced
 * as it was read is read again in full up to this for door detection, and its parts are read at
 * this level (see {@link partsLevel}).
 *
 * @example
 * ```ts
 * fullReadTriangles(100_000); // → 1_000_000
 * ```
 */
export function fullReadTriangles(budgetTriangles: number): number {
  return Math.max(1_000_000, 10 * budgetTriangles);
}

/**
 * The richer level a model over the budget is read at for its parts (`readIfc`'s
 * `partsReduction`), each part then brought within the budget on its own: as many triangles as
 * a full read, and at least the envelope's own and a quarter again, so that a project whose walls
 * alone pass that (the restaurant merged 18 times draws 1.5 M) keeps them as read where the user
 * stands. What a conversion writing parts reads, and what a tool finding a part's elements must read.
 *
 * @example
 * ```ts
 * const partsReduction = new StreamReduction(partsLevel(100_000)); // 1 M triangles, or 1.25 per envelope triangle
 * ```
 */
export function partsLevel(budgetTriangles: number): Pick<StreamReductionOptions, 'triangles' | 'startTriangles' | 'perEnvelopeTriangle'> {
  const triangles = fullReadTriangles(budgetTriangles);
  return { triangles, startTriangles: triangles, perEnvelopeTriangle: 1.25 };
}
