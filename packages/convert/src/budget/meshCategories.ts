import type { SceneData, SceneNode } from '../scene/SceneData.js';
import type { BudgetCategory } from './BudgetCategory.js';
import { categoryOfIfcClass } from './categoryOfIfcClass.js';
import { categoryOfShape } from './categoryOfShape.js';

/**
 * The IFC class a node stands for: its own, or its nearest ancestor's (a placement of shared
 * geometry under its product); undefined for a model that names none (a GLB, a USDZ).
 *
 * @example
 * ```ts
 * ifcClassOfNode(scene.nodes, 12); // → 'IfcFurnishingElement'
 * ```
 */
export function ifcClassOfNode(nodes: readonly SceneNode[], node: number): string | undefined {
  for (let n = node; n >= 0; n = nodes[n]!.parent) {
    const ifcClass = nodes[n]!.metadata.ifcClass;
    // Storeys are nodes too, with a class, but never draw: a placement's class is its product's.
    if (ifcClass && !/^IfcBuildingStorey$/i.test(ifcClass)) return ifcClass;
  }
  return undefined;
}

/**
 * The {@link BudgetCategory} of each mesh of a scene: from the IFC class of the nodes that draw it
 * (a merged mesh from its elements' classes, `envelope` if any of them is), or for a model that
 * names no classes from its shape at `scale` ({@link categoryOfShape}). A mesh drawn by an
 * element of the envelope anywhere is `envelope`: it keeps its shape wherever it is drawn.
 *
 * @example
 * ```ts
 * meshCategories(scene, scales); // → ['envelope', 'furniture', …], one per mesh
 * ```
 */
export function meshCategories(scene: Pick<SceneData, 'nodes' | 'meshes'>, scale: Float64Array): BudgetCategory[] {
  const named = new Array<BudgetCategory | undefined>(scene.meshes.length);
  const raise = (m: number, category: BudgetCategory) => {
    if (named[m] !== 'envelope') named[m] = category;
  };
  scene.nodes.forEach((node, n) => {
    if (node.meshes.length === 0) return;
    const ifcClass = ifcClassOfNode(scene.nodes, n);
    for (const m of node.meshes) {
      const elements = scene.meshes[m]!.elements;
      if (elements?.some((e) => e.metadata.ifcClass)) for (const e of elements) raise(m, categoryOfIfcClass(e.metadata.ifcClass));
      else if (ifcClass) raise(m, categoryOfIfcClass(ifcClass));
    }
  });
  return scene.meshes.map((mesh, m) => named[m] ?? categoryOfShape(mesh, scale[m]!));
}
