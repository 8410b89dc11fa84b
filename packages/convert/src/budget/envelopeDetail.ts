import type { SceneData } from '../scene/SceneData.js';
import type { BudgetCategory } from './BudgetCategory.js';
import { baseIfcClass } from './categoryOfIfcClass.js';
import { ifcClassOfNode } from './meshCategories.js';

/**
 * Envelope classes that are detail on the building's shape rather than the shape itself: doors,
 * windows, their frames and mullions (members, plates), railings, stairs and ramps, shading
 * devices, beams. When the envelope itself must give triangles, these give them first (coarsened,
 * then drawn as their outline sheet or box, then left out and named), so walls, slabs and roofs,
 * few triangles each and the building's silhouette, are never cut into wedges.
 */
const ENVELOPE_DETAIL_CLASSES = new Set([
  'IFCDOOR',
  'IFCWINDOW',
  'IFCMEMBER',
  'IFCPLATE',
  'IFCRAILING',
  'IFCSTAIR',
  'IFCSTAIRFLIGHT',
  'IFCRAMP',
  'IFCRAMPFLIGHT',
  'IFCSHADINGDEVICE',
  'IFCBEAM',
]);

/**
 * Whether an IFC class, in any letter case and its `…StandardCase` subtypes, is envelope detail
 * (see {@link ENVELOPE_DETAIL_CLASSES}).
 *
 * @example
 * ```ts
 * isEnvelopeDetail('IfcWindow'); // → true
 * isEnvelopeDetail('IfcWallStandardCase'); // → false
 * ```
 */
export function isEnvelopeDetail(ifcClass: string | undefined): boolean {
  return ifcClass !== undefined && ENVELOPE_DETAIL_CLASSES.has(baseIfcClass(ifcClass));
}

/** What an envelope mesh is to the building: its shape (walls, slabs, roofs), or detail on it. */
export type EnvelopeRole = 'shape' | 'detail';

/**
 * The {@link EnvelopeRole} of each mesh, from the IFC classes of the elements that draw it:
 * detail when every one of them is of a detail class, shape when any is not. Undefined for a
 * mesh outside the envelope, or one that no class names (a GLB's meshes: the budget treats them
 * as it always has).
 *
 * @example
 * ```ts
 * envelopeRoles(scene, categories); // → ['shape', 'shape', 'detail', undefined, …]: the third is a window
 * ```
 */
export function envelopeRoles(
  scene: Pick<SceneData, 'nodes' | 'meshes'>,
  categories: readonly BudgetCategory[],
): Array<EnvelopeRole | undefined> {
  const roles = new Array<EnvelopeRole | undefined>(scene.meshes.length);
  const see = (m: number, ifcClass: string | undefined) => {
    if (ifcClass === undefined || roles[m] === 'shape') return;
    roles[m] = isEnvelopeDetail(ifcClass) ? 'detail' : 'shape';
  };
  scene.nodes.forEach((node, n) => {
    if (node.meshes.length === 0) return;
    const ifcClass = ifcClassOfNode(scene.nodes, n);
    for (const m of node.meshes) {
      const elements = scene.meshes[m]!.elements;
      if (elements?.some((e) => e.metadata.ifcClass)) for (const e of elements) see(m, e.metadata.ifcClass);
      else see(m, ifcClass);
    }
  });
  return roles.map((role, m) => (categories[m] === 'envelope' ? role : undefined));
}
