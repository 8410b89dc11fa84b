import type { SceneData } from '../scene/SceneData.js';
import type { CategoryFigures, MeshStray } from './ArBudget.js';

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
  /**
   * Each mesh's own figures, by index in the scene simplified: undefined for a mesh delivered as
   * read. A mesh standing with others as one (an element's frame and glass as one sheet) has the
   * figures of the one that stands for them.
   */
  meshStrays: Array<MeshStray | undefined>;
}
