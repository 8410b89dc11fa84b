import type { Bounds } from '@arsession/geometry';
import type { SceneData } from '../scene/SceneData.js';
import { emptyBounds, growBounds } from '../scene/growBounds.js';
import { worldMatrices } from '../scene/sceneStats.js';

/**
 * The centre of what each node draws, in the delivered frame: x, y, z per node, NaN for nodes
 * that draw nothing. Taken once and then cut into cells at several sizes by {@link spatialCells}.
 *
 * @example
 * ```ts
 * const centres = drawnCentres(scene);
 * spatialCells(centres, scene.bounds, 4); // → ['', '0_3', '1_3', …]
 * ```
 */
export function drawnCentres(scene: Pick<SceneData, 'nodes' | 'meshes'>): Float64Array {
  const centres = new Float64Array(scene.nodes.length * 3).fill(Number.NaN);
  const world = worldMatrices(scene.nodes);
  scene.nodes.forEach((node, i) => {
    if (node.meshes.length === 0) return;
    const box = emptyBounds();
    for (const m of node.meshes) growBounds(box, scene.meshes[m]!.positions, 3, world[i]!);
    for (let k = 0; k < 3; k++) centres[i * 3 + k] = (box.min[k]! + box.max[k]!) / 2;
  });
  return centres;
}

/**
 * The cell of each node on a `divisions` × `divisions` grid laid over the model's ground plan
 * (x and z: the delivered frame is Y-up, and buildings and tracks spread out more than up), as
 * `'i_j'`; `''` for a node that draws nothing. Geometry merged per cell still lets the phone skip
 * what is out of view, as storeys do for a building that has them.
 *
 * @example
 * ```ts
 * spatialCells(drawnCentres(scene), scene.bounds, 2); // → ['', '0_0', '1_0', '1_1', …]
 * ```
 */
export function spatialCells(centres: Float64Array, bounds: Bounds, divisions: number): string[] {
  const cell = (v: number, k: 0 | 2) => {
    const size = bounds.max[k] - bounds.min[k];
    return size > 0 ? Math.min(divisions - 1, Math.max(0, Math.floor(((v - bounds.min[k]) / size) * divisions))) : 0;
  };
  const cells: string[] = [];
  for (let i = 0; i < centres.length; i += 3) {
    cells.push(Number.isNaN(centres[i]!) ? '' : `${cell(centres[i]!, 0)}_${cell(centres[i + 2]!, 2)}`);
  }
  return cells;
}
