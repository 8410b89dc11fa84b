import type { IfcAPI } from 'web-ifc';
import { loadWebIfc } from './loadWebIfc.js';
import type { StepFile } from './step/StepFile.js';
import { stepReferences } from './step/StepValue.js';
import { deleteHandle } from './webIfcHeap.js';

// Attribute positions (0-based), the same in IFC2X3, IFC4 and IFC4X3.
/** Relating/related of the relationships read here. */
export const REL = { first: 4, second: 5 };

/** The ids of every entity of class `type` (web-ifc's type code), with its subclasses' when `inherited`. */
export function ids(api: IfcAPI, model: number, type: number, inherited = false): number[] {
  const v = api.GetLineIDsWithType(model, type, inherited);
  try {
    const out: number[] = [];
    for (let i = 0; i < v.size(); i++) out.push(v.get(i));
    return out;
  } finally {
    deleteHandle(v);
  }
}

/** The references in attribute `position` (0-based) of entity `id`. */
export function references(file: StepFile, id: number, position: number): number[] {
  return stepReferences(file.attribute(id, position));
}

/** Where each element lies: its spatial container, and each object's aggregation parent. */
export interface SpatialStructure {
  /** An element's container (a storey, a space, a building, a site). */
  storeyOf: Map<number, number>;
  /** An object's aggregation parent (a space's storey, a storey's building). */
  parentOf: Map<number, number>;
}

/**
 * Storey of every element: direct containment, inherited through aggregation (parts of stairs,
 * roofs, …); and the aggregation parent of every object (a space's storey, a storey's building).
 *
 * @example
 * ```ts
 * const { storeyOf } = spatialStructure(api, model, file);
 * storeyOf.get(wall); // → the storey's express id
 * ```
 */
export function spatialStructure(api: IfcAPI, model: number, file: StepFile): SpatialStructure {
  const storeyOf = new Map<number, number>();
  for (const rel of ids(api, model, loadWebIfc().IFCRELCONTAINEDINSPATIALSTRUCTURE)) {
    const s = references(file, rel, REL.second)[0]; // RelatingStructure
    if (s === undefined) continue;
    for (const e of references(file, rel, REL.first)) storeyOf.set(e, s); // RelatedElements
  }
  const parentOf = new Map<number, number>();
  for (const rel of ids(api, model, loadWebIfc().IFCRELAGGREGATES)) {
    const parent = references(file, rel, REL.first)[0]; // RelatingObject
    if (parent === undefined) continue;
    for (const o of references(file, rel, REL.second)) parentOf.set(o, parent); // RelatedObjects
  }
  for (const child of parentOf.keys()) {
    if (storeyOf.has(child)) continue;
    let p = parentOf.get(child);
    for (let depth = 0; p !== undefined && depth < 8; depth++) {
      const s = storeyOf.get(p);
      if (s !== undefined) {
        storeyOf.set(child, s);
        break;
      }
      p = parentOf.get(p);
    }
  }
  return { storeyOf, parentOf };
}
