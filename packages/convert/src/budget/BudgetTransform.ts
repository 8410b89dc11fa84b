import type { SceneData } from '../scene/SceneData.js';
import type { BudgetLedger } from './BudgetLedger.js';

/**
 * One step of an AR budget, in glTF-Transform's manner: a function of the scene, returning the
 * scene it makes (or the same one, when there is nothing to do), aiming at `ledger.targets` and
 * saying on the ledger what it did. `fitArBudget` runs a sequence of them; the default is
 * `[simplifyTriangles(), scaleTextures(), mergePrims()]`, and a caller may drop, reorder or add
 * steps of its own.
 *
 * @example
 * ```ts
 * const dropTextures: BudgetTransform = (scene) => ({ ...scene, textures: [] });
 * ```
 */
export type BudgetTransform = (scene: SceneData, ledger: BudgetLedger) => SceneData | Promise<SceneData>;
