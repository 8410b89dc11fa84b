import { ModelUnreadableError } from '../errors/ConvertError.js';
import type { GltfJson } from './readGlbJson.js';

/**
 * Checks that every mesh, accessor and material a glTF's nodes and primitives name exists, and every
 * texture, image and sampler its materials and textures name (extensions' texture slots included).
 * The glTF reader silently drops a dangling reference, or fails inside with a message about its
 * own code, and what it delivers then is not what the file describes: a missing index accessor
 * turns the triangle list into a different, unindexed one; a missing mesh makes a node empty.
 *
 * @example
 * ```ts
 * checkGlbReferences({ nodes: [{ mesh: 3 }], meshes: [] }, 'a.glb'); // throws: node 0 uses mesh 3, which does not exist
 * ```
 */
export function checkGlbReferences(json: GltfJson, fileName?: string): void {
  const fail = (why: string) => new ModelUnreadableError(`${fileName ?? 'GLB'}: ${why}`, fileName === undefined ? {} : { fileName });
  const count = (name: string): number => (Array.isArray(json[name]) ? (json[name] as unknown[]).length : 0);
  const meshes = count('meshes'),
    accessors = count('accessors'),
    materials = count('materials');
  const expectIndex = (value: unknown, length: number, what: string, kind: string) => {
    if (value === undefined) return;
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) >= length) {
      throw fail(`${what} uses ${kind} ${JSON.stringify(value)}, which does not exist (the file has ${length})`);
    }
  };
  (json.nodes ?? []).forEach((node, i) => expectIndex(node.mesh, meshes, `node ${i}`, 'mesh'));
  const meshList = Array.isArray(json.meshes) ? (json.meshes as unknown[]) : [];
  meshList.forEach((mesh, m) => {
    const primitives = (mesh as { primitives?: unknown } | null)?.primitives;
    if (!Array.isArray(primitives)) throw fail(`mesh ${m} has no "primitives" array`);
    primitives.forEach((prim: unknown, p) => {
      if (typeof prim !== 'object' || prim === null) throw fail(`mesh ${m} primitive ${p} is not an object`);
      const { attributes, indices, material, targets } = prim as {
        attributes?: unknown;
        indices?: unknown;
        material?: unknown;
        targets?: unknown;
      };
      const where = `mesh ${m} primitive ${p}`;
      if (typeof attributes !== 'object' || attributes === null) throw fail(`${where} has no "attributes" object`);
      for (const [name, index] of Object.entries(attributes)) expectIndex(index, accessors, `${where} (${name})`, 'accessor');
      expectIndex(indices, accessors, `${where} (indices)`, 'accessor');
      expectIndex(material, materials, where, 'material');
      if (targets !== undefined && !Array.isArray(targets)) throw fail(`${where} has "targets" that is not an array`);
      (targets as unknown[] | undefined)?.forEach((target, t) => {
        for (const [name, index] of Object.entries((target ?? {}) as object))
          expectIndex(index, accessors, `${where} morph target ${t} (${name})`, 'accessor');
      });
    });
  });
  const textures = count('textures'),
    images = count('images'),
    samplers = count('samplers');
  listOf(json, 'materials').forEach((material, i) => {
    for (const { path, index } of textureSlots(material, `material ${i}`)) expectIndex(index, textures, path, 'texture');
  });
  listOf(json, 'textures').forEach((texture, i) => {
    if (typeof texture !== 'object' || texture === null) throw fail(`texture ${i} is not an object`);
    const { source, sampler, extensions } = texture as { source?: unknown; sampler?: unknown; extensions?: unknown };
    expectIndex(source, images, `texture ${i}`, 'image');
    expectIndex(sampler, samplers, `texture ${i}`, 'sampler');
    // KHR_texture_basisu, EXT_texture_webp, EXT_texture_avif, MSFT_texture_dds: each names its own image.
    for (const [name, ext] of Object.entries(typeof extensions === 'object' && extensions !== null ? extensions : {})) {
      expectIndex((ext as { source?: unknown } | null)?.source, images, `texture ${i} (${name})`, 'image');
    }
  });
}

function listOf(json: GltfJson, name: string): unknown[] {
  return Array.isArray(json[name]) ? (json[name] as unknown[]) : [];
}

/** Every textureInfo in a material: core slots and any extension's (`…Texture: { index }`), at any depth. */
function textureSlots(value: unknown, path: string, depth = 0): Array<{ path: string; index: unknown }> {
  if (typeof value !== 'object' || value === null || depth > 8) return [];
  const out: Array<{ path: string; index: unknown }> = [];
  for (const [key, child] of Object.entries(value)) {
    // An application's own data may name anything; only glTF's slots and extensions' are references.
    if (key === 'extras' || typeof child !== 'object' || child === null) continue;
    if (/Texture$/.test(key) && 'index' in child) out.push({ path: `${path} (${key})`, index: (child as { index: unknown }).index });
    else out.push(...textureSlots(child, path, depth + 1));
  }
  return out;
}
