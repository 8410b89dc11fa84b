import type { SceneData } from '../../scene/SceneData.js';
import { rootPrimPaths, type DescribeLayerOptions } from './describeLayer.js';
import { storeyRoots } from './storeyRoots.js';

/** A storey of a delivered model: what an app shows, hides and names. */
export interface DeliveredStorey {
  /** Its name as the file states it. */
  name: string;
  /**
   * `IfcBuildingStorey`, or the container standing for one (`IfcSite`, `IfcBuilding`); `null`
   * where merged containers of one name differ.
   */
  ifcClass: string | null;
  /** Metres above the project's datum, as the file states it; `null` when it states none. */
  elevation: number | null;
  /**
   * The path of its Xform in the delivered USDZ (`/Model/Level_1`): every prim of the storey lies
   * under it. The default prim's `storey` variant named as its last element shows it alone.
   */
  prim: string;
}

/**
 * The storeys of a delivered scene, bottom up (those without an elevation last): each root Xform
 * that stands for a storey or another container, merged (a storey group of `mergeByMaterial`) or
 * not (an IFC reader's container node), with the path `describeLayer` gives it under the same
 * options. Empty for a model without storeys (a GLB, a USDZ).
 *
 * @example
 * ```ts
 * deliveredStoreys(fitted.scene, { instanceable: true });
 * // → [{ name: 'Erdgeschoss', ifcClass: 'IfcBuildingStorey', elevation: 0, prim: '/Model/Erdgeschoss' }, …]
 * ```
 */
export function deliveredStoreys(scene: SceneData, options: Partial<DescribeLayerOptions> = {}): DeliveredStorey[] {
  const paths = rootPrimPaths(scene, options);
  return storeyRoots(scene).map(({ node, elevation }) => {
    const { ifcClass, storey, storeyClass, name } = scene.nodes[node]!.metadata;
    const prim = paths.get(node)!;
    if (ifcClass === undefined) return { name: storey!, ifcClass: storeyClass ?? null, elevation, prim };
    return { name: name ?? scene.nodes[node]!.name, ifcClass, elevation, prim };
  });
}
