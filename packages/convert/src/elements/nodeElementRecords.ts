import { elementIdOf } from '../scene/elementId.js';
import type { SceneData, SceneNode } from '../scene/SceneData.js';
import type { ElementRecord, PropertySets } from './ElementRecord.js';

/**
 * The element records of a model without IFC semantics (a GLB, a USDZ): one per element id (see
 * `elementIdOf`) of a node that draws, with what the file carries: the node's name, its meshes'
 * materials' names, and the property sets `propertiesOf` reads from the file (extras, customData),
 * empty sets left out. `nameOf`: the element's name as the file states it, where the scene's node
 * name may be one made up to tell nodes apart (default: the node's name). No class, type, storey or quantities: such a file states none.
 *
 * @example
 * ```ts
 * nodeElementRecords(scene, () => ({}))[0]; // → { id: '/nodes/0', global_id: null, name: 'Chair', materials: ['Oak'], … }
 * ```
 */
export function nodeElementRecords(
  scene: Pick<SceneData, 'nodes' | 'meshes' | 'materials'>,
  propertiesOf: (node: SceneNode) => PropertySets,
  nameOf: (node: SceneNode) => string = (node) => node.name,
): ElementRecord[] {
  const records = new Map<string, ElementRecord>();
  for (const node of scene.nodes) {
    const id = elementIdOf(node.metadata);
    if (id === undefined || node.meshes.length === 0 || records.has(id)) continue;
    const sets = Object.entries(propertiesOf(node)).filter(([, set]) => Object.keys(set).length > 0);
    records.set(id, {
      id,
      global_id: null,
      ifc_class: null,
      name: nameOf(node),
      type: null,
      storey: null,
      materials: [...new Set(node.meshes.map((m) => scene.materials[scene.meshes[m]!.material]?.name ?? ''))].filter(Boolean),
      property_sets: Object.fromEntries(sets),
      quantities: {},
    });
  }
  return [...records.values()];
}
