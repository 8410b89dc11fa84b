import type { SceneData } from '../../scene/SceneData.js';
import { isStoreyNode } from '../../scene/SceneLevel.js';

/** A root node standing for a storey, with the elevation its file states (a finite number) or `null`. */
export interface StoreyRoot {
  node: number;
  elevation: number | null;
}

/**
 * The root nodes of a scene that stand for a storey or another container (see `isStoreyNode`),
 * bottom up; those without an elevation last, in scene order. The one order in which the detail
 * record lists storeys and the USDZ's `storey` variant set offers them.
 *
 * @example
 * ```ts
 * storeyRoots(scene); // → [{ node: 3, elevation: -3 }, { node: 0, elevation: 0 }, …]
 * ```
 */
export function storeyRoots(scene: SceneData): StoreyRoot[] {
  const roots: StoreyRoot[] = [];
  scene.nodes.forEach((n, node) => {
    if (n.parent >= 0 || !isStoreyNode(n.metadata)) return;
    const stated = n.metadata.elevation === undefined ? null : Number(n.metadata.elevation);
    roots.push({ node, elevation: stated !== null && Number.isFinite(stated) ? stated : null });
  });
  const key = (s: StoreyRoot) => s.elevation ?? Number.POSITIVE_INFINITY;
  return roots.sort((a, b) => (key(a) === key(b) ? 0 : key(a) - key(b)));
}
