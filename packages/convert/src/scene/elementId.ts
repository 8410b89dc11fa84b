/**
 * The id an element is known by in the delivered files and the element records, from the
 * metadata its reader gave its node: an IFC GlobalId, else a USD prim path (`usdPath`), else a
 * glTF node's pointer (`gltfNode`, `/nodes/<index>`, the form `KHR_animation_pointer` uses);
 * undefined for a node that names no element. A GlobalId is unique across files; a prim path or
 * node pointer only within its model.
 *
 * @example
 * ```ts
 * elementIdOf({ globalId: '2O2Fr$t4X7Zf8NOew3FLOH', ifcClass: 'IfcDoor' }); // → '2O2Fr$t4X7Zf8NOew3FLOH'
 * elementIdOf({ gltfNode: '/nodes/12' }); // → '/nodes/12'
 * ```
 */
export function elementIdOf(metadata: Readonly<Record<string, string>>): string | undefined {
  return metadata.globalId || metadata.usdPath || metadata.gltfNode || undefined;
}
