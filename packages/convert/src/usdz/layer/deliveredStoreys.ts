import type { SceneData } from '../../scene/SceneData.js';
import { isStoreyNode } from '../../scene/SceneLevel.js';
import { rootPrimPaths, type DescribeLayerOptions } from './describeLayer.js';

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
  /** The path of its Xform in the delivered USDZ (`/Model/Level_1`): every prim of the storey lies under it. */
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
  const storeys: DeliveredStorey[] = [];
  for (const [i, prim] of paths) {
    const { ifcClass, storey, storeyClass, name, elevation } = scene.nodes[i]!.metadata;
    const stated = elevation === undefined ? null : Number(elevation);
    const at = stated !== null && Number.isFinite(stated) ? stated : null;
    if (!isStoreyNode(scene.nodes[i]!.metadata)) continue;
    if (ifcClass === undefined) storeys.push({ name: storey!, ifcClass: storeyClass ?? null, elevation: at, prim });
    else storeys.push({ name: name ?? scene.nodes[i]!.name, ifcClass, elevation: at, prim });
  }
  const key = (s: DeliveredStorey) => s.elevation ?? Number.POSITIVE_INFINITY;
  return storeys.sort((a, b) => (key(a) === key(b) ? 0 : key(a) - key(b)));
}
