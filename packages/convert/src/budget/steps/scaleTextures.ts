import type { BudgetTransform } from '../BudgetTransform.js';
import { resizeTextures } from '../resizeTextures.js';

/**
 * The AR budget's texture step: every texture longer than the target's side scaled down to it
 * (`resizeTextures`, sharp); the rest as they are. It takes no options: the size is the budget's.
 *
 * @example
 * ```ts
 * await fitArBudget(scene, { textureSize: 1024 }, { steps: [scaleTextures()] });
 * ```
 */
export function scaleTextures(): BudgetTransform {
  return async (scene, ledger) => {
    const resized = await resizeTextures(
      scene,
      ledger.targets.textureSize,
      ledger.fileName === undefined ? {} : { fileName: ledger.fileName },
    );
    ledger.texturesResized(resized.resized);
    return resized.scene;
  };
}
