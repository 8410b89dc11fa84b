import { MeshoptSimplifier } from 'meshoptimizer/simplifier';
import type { SceneData } from '../scene/SceneData.js';
import { SceneSimplification } from './SceneSimplification.js';
import type { SimplifiedScene } from './SimplifiedScene.js';
import { SIMPLIFY_TO_BUDGET_DEFAULTS, type SimplifyToBudgetOptions } from './SimplifyToBudgetOptions.js';

export type { SimplifiedScene } from './SimplifiedScene.js';
export { SIMPLIFY_TO_BUDGET_DEFAULTS, type SimplifyToBudgetOptions } from './SimplifyToBudgetOptions.js';

/**
 * How far beyond its error bound a part may stray before it is kept finer, whatever
 * `maxDeviation`: a model simplified hard (a rail at half a metre) keeps its outliers in line
 * without keeping everything beyond 2 cm at full detail.
 */
export const STRAY_PER_ERROR = 4;

/** Rounds after parts were kept finer, to take back the triangles that cost. */
const BOUND_PASSES = 3;

/**
 * Brings a scene's triangles within a budget, taking them from what a person misses least, in
 * this order: what adds no shape to the envelope (facets within a millimetre); clutter (furniture, MEP, anything outside the envelope; by
 * IFC class, or for a model
 * without classes anything small or not flat-faced) simplified per mesh at an error relative to its
 * own size, growing until the triangles fit (the finely tessellated curves of a chair give up most
 * of theirs unseen); then clutter up to 5 m drawn as boxes, heaviest first; then clutter left
 * out, smallest first;
 * and only then the envelope (walls, slabs, roofs, openings, structure, stairs, railings), every
 * mesh at one error bound in metres (meshoptimizer, borders locked, parts smaller than the error
 * pruned) growing round by round. Every simplified triangle is measured against the full mesh;
 * parts that strayed beyond `maxDeviation` are kept finer, and so are envelope parts whose full
 * surface lies that far from what the rounds left of them (a thin wall folded away to its end),
 * and the rest simplified further if that cost the budget. The envelope's rounds go no further
 * than `maxDeviation` while it has detail by IFC class: past that, it is taken back as read and
 * its detail (doors, windows, members, railings) stands as sheets, rims or boxes, or is left out
 * and named (`SceneSimplification.fitDetail`; an element's several meshes may stand as one), so walls,
 * slabs and roofs are never cut into wedges: they give a few centimetres (`shapeErrors`, no part
 * pruned) only where the detail already lies as far, and more only if they alone are over the
 * budget. If the bound reaches the model's own size first, meshes are reduced
 * whatever the error, the largest first (see `SceneSimplification.reduceToFit`). The room
 * the rounds leave under the budget is then given back: simplified meshes return whole while the
 * total fits, the envelope first (see `SceneSimplification.restoreWithin`). A model whose
 * clutter is enough keeps its envelope exactly as read. Nodes, materials, textures and bounds
 * are the scene's own.
 *
 * @example
 * ```ts
 * const { scene: delivered, maxDeviation, categories } = await simplifyToBudget(scene, { triangles: 100_000 });
 * categories[0]; // → { category: 'envelope', sourceTriangles: 83_000, deliveredTriangles: 83_000, … }
 * ```
 */
export async function simplifyToBudget(scene: SceneData, options: Partial<SimplifyToBudgetOptions> = {}): Promise<SimplifiedScene> {
  const opts = { ...SIMPLIFY_TO_BUDGET_DEFAULTS, ...options };
  await MeshoptSimplifier.ready;
  const simplification = new SceneSimplification(scene, opts);
  const over = () => simplification.drawn > opts.triangles;
  if (over()) simplification.envelopeWithoutShape();
  if (over()) simplification.coarsenClutter(opts, STRAY_PER_ERROR);
  if (over()) simplification.proxyClutter(opts.triangles);
  if (over()) simplification.leaveOutClutter(opts.triangles);
  let error = 0;
  if (over()) {
    // The envelope first gives what stays within `maxDeviation`. If that is not enough and it has
    // detail by IFC class, it is taken back as read, and the detail is stood in for or left out
    // (`fitDetail`) before walls, slabs and roofs give a triangle.
    error = simplification.fitError(opts, opts.maxDeviation);
    const detailFirst = over() && simplification.hasDetail;
    if (detailFirst) {
      simplification.restoreEnvelope();
      simplification.fitDetail(opts.triangles);
    }
    if (over()) error = simplification.fitError({ ...opts, firstError: Math.max(opts.firstError, error * opts.growth) });
    for (let pass = 1; ; pass++) {
      const cap = Math.max(opts.maxDeviation, STRAY_PER_ERROR * error);
      simplification.boundStray(cap, error);
      // With detail stood in for, each wall, slab and roof took a form measured both ways (`fitDetail`).
      if (!detailFirst) simplification.boundUncovered(cap, error);
      if (simplification.drawn <= opts.triangles || pass === BOUND_PASSES || error >= simplification.size) break;
      // What was kept finer is paid for with detail while there is any, not with the walls.
      if (detailFirst && simplification.fitDetail(opts.triangles)) break;
      error *= opts.growth;
      simplification.round(error);
    }
  }
  if (over()) simplification.reduceToFit(opts.triangles);
  simplification.restoreWithin(opts.triangles);
  return simplification.deliver(opts.samples, error);
}
