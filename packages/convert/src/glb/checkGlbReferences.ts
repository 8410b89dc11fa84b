import { ModelUnreadableError } from '../errors/ConvertError.js';
import type { GltfJson } from './readGlbJson.js';

/**
 * Checks that every mesh, accessor and material a glTF's nodes and primitives name exists. The
 * glTF reader silently drops a dangling reference, and what it delivers then is not what the file
 * describes: a missing index accessor turns the triangle list into a different, unindexed one;
 * a missing mesh makes a node empty.
 *
 * @example
 * ```ts
 * checkGlbReferences({ nodes: [{ mesh: 3 }], meshes: [] }, 'a.glb'); // throws: node 0 uses mesh 3, which does not exist
 * ```
 */
export function checkGlbReferences(json: GltfJson, fileName?: string): void {
  const fail = (why: string) => new ModelUnreadableError(`${fileName ?? 'GLB'}: ${why}`, fileName === undefined ? {} : { fileName });
  const count = (name: string): number => (Array.isArray(json[name]) ? (json[name] as unknown[]).length : 0);
  const meshes = count('meshes'), accessors = count('accessors'), materials = count('materials');
  const expectIndex = (value: unknown, length: number, what: string, kind: string) => {
    if (value === undefined) return;
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) >= length) {
      throw fail(`${what} uses ${kind} ${JSON.stringify(value)}, which does not exist (the file has ${length})`);
    }
  };
  (json.nodes ?? []).forEach((node, i) => expectIndex(node.mesh, meshes, `node ${i}`, 'mesh'));
  const meshList = Array.isArray(json['meshes']) ? (json['meshes'] as unknown[]) : [];
  meshList.forEach((mesh, m) => {
    const primitives = (mesh as { primitives?: unknown } | null)?.primitives;
    if (!Array.isArray(primitives)) throw fail(`mesh ${m} has no "primitives" array`);
    primitives.forEach((prim: unknown, p) => {
      if (typeof prim !== 'object' || prim === null) throw fail(`mesh ${m} primitive ${p} is not an object`);
      const { attributes, indices, material, targets } = prim as { attributes?: unknown; indices?: unknown; material?: unknown; targets?: unknown };
      const where = `mesh ${m} primitive ${p}`;
      if (typeof attributes !== 'object' || attributes === null) throw fail(`${where} has no "attributes" object`);
      for (const [name, index] of Object.entries(attributes)) expectIndex(index, accessors, `${where} (${name})`, 'accessor');
      expectIndex(indices, accessors, `${where} (indices)`, 'accessor');
      expectIndex(material, materials, where, 'material');
      if (targets !== undefined && !Array.isArray(targets)) throw fail(`${where} has "targets" that is not an array`);
      (targets as unknown[] | undefined)?.forEach((target, t) => {
        for (const [name, index] of Object.entries((target ?? {}) as object)) expectIndex(index, accessors, `${where} morph target ${t} (${name})`, 'accessor');
      });
    });
  });
}
