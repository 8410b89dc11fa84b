import type { Bounds } from '@arsession/geometry';
import type { SceneStorey } from '../scene/SceneLevel.js';

/**
 * One part of a project too large for one AR file: the elements of one storey, or of one cell of
 * it when even that is over the budget (cut at weighted medians, not on a fixed grid), or a cell of
 * the elements no container holds. Plain data: node indices into the scene it was split from.
 */
export interface ScenePart {
  /** What a person reads: the storey's name, with its cell when it was split (`Level 1 · 2/4`). */
  name: string;
  /** The storey it belongs to (or the container standing for one); `null` for elements no container holds. */
  storey: SceneStorey | null;
  /** The cell of its container, `[index, count]`, when the container was split; `null` when it is whole. */
  cell: [number, number] | null;
  /** Element nodes it draws (indices into the scene's nodes), in scene order. */
  nodes: number[];
  /** Triangles those nodes draw. */
  triangles: number;
  /** Bounds of what it draws, in the delivered frame. */
  bounds: Bounds;
}
