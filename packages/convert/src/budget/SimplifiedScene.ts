import type { SceneData } from '../scene/SceneData.js';
import type { CategoryFigures } from './ArBudget.js';

/** A simplified scene and what it cost: what `simplifyToBudget` returns. */
export interface SimplifiedScene {
  scene: SceneData;
  /** The error bound of the last round, in metres. */
  error: number;
  /** Largest measured distance from the delivered surface to the full model's, in metres. */
  maxDeviation: number;
  /** Largest measured distance from the full model's surface to the delivered one (parts taken away count), in metres. */
  maxUncovered: number;
  /** What each budget category gave up, envelope first. */
  categories: CategoryFigures[];
}
