/**
 * What a model states about one element, as the session's element records and the CLI give it:
 * an app answers "what is this?" with it when the element is tapped. Names and values are the
 * file's own; numbers are in the file's units.
 */
export interface ElementRecord {
  /**
   * What the delivered files name the element by on its triangles (see `elementIdOf`): its IFC
   * GlobalId; for a GLB its node's pointer (`/nodes/<index>`); for a USDZ its prim path.
   */
  id: string;
  /** The IFC GlobalId; `null` for a GLB or USDZ element. */
  global_id: string | null;
  /** Its IFC class; `null` for a GLB or USDZ element. */
  ifc_class: string | null;
  /** Its name: the IFC `Name`, a glTF node's name, a USD prim's. */
  name: string;
  /** The element's type (`IfcRelDefinesByType`), with the property sets stated on it; `null` when it has none. */
  type: { ifc_class: string; name: string; property_sets: PropertySets } | null;
  /** The storey (or other spatial container) that holds it; `null` when none does. */
  storey: string | null;
  /** Its materials' names (`IfcRelAssociatesMaterial`: a material, its layers or constituents), in the file's order. */
  materials: string[];
  /**
   * Property sets by name, each its properties by name. A GLB's are `extras` (the node's) and
   * `mesh extras`; a USDZ prim's `customData` and `assetInfo`: nested keys joined with dots.
   */
  property_sets: PropertySets;
  /** Quantity sets (`IfcElementQuantity`) by name, each its quantities by name. */
  quantities: Record<string, Record<string, number>>;
}

/** Property sets by name, each its properties by name. */
export type PropertySets = Record<string, Record<string, PropertyValue>>;

/**
 * A property's value as the file states it: text, a number, a truth value (`null` for IFC's
 * unknown), or a list of them (an enumerated or list value).
 */
export type PropertyValue = string | number | boolean | null | Array<string | number | boolean | null>;

/** Every element's record, by its id: the file a session serves them from. */
export interface ElementRecords {
  /** The IFC schema the file is written in; `glTF 2.0` for a GLB, `USD` for a USDZ. */
  schema: string;
  elements: Record<string, ElementRecord>;
}
