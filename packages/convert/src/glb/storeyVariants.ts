import { isStoreyNode } from '../scene/SceneLevel.js';
import { glbParts, readGlbChunks } from './glbChunks.js';

/** Options of {@link storeyVariants}. */
export interface StoreyVariantsOptions {
  /** Name of the material a variant draws the other storeys with (cut away: alpha 0 under MASK). */
  hiddenMaterial: string;
}

/** Defaults of {@link storeyVariants}. */
export const STOREY_VARIANTS_DEFAULTS: Readonly<StoreyVariantsOptions> = { hiddenMaterial: 'hidden_storey' };

interface GltfJson {
  nodes?: Array<{ name?: string; mesh?: number; children?: number[]; extras?: Record<string, unknown> }>;
  meshes?: Array<{ primitives: Array<{ extensions?: Record<string, unknown> }> }>;
  materials?: Array<Record<string, unknown>>;
  scenes?: Array<{ nodes?: number[] }>;
  scene?: number;
  extensions?: Record<string, unknown>;
  extensionsUsed?: string[];
}

/**
 * Makes each storey of a GLB one of its `KHR_materials_variants` variants, named after the storey:
 * choosing one draws that storey alone, every primitive of the others with a material that cuts
 * it away (alpha 0 under MASK). No variant chosen draws the model as it was. A storey is a root
 * node the converter marked as one (`extras`: see {@link isStoreyNode}); a primitive drawn in two
 * storeys is drawn in either's variant, and what lies in no storey is always drawn. A GLB without
 * storeys comes back as it came. The binary chunk is not copied.
 *
 * What it is for: a viewer that switches variants (model-viewer's `variantName`) shows one floor.
 *
 * @example
 * ```ts
 * const glb = Buffer.concat(storeyVariants(await writeGlb(scene)));
 * // <model-viewer src=…>.variantName = 'Level 1'
 * ```
 */
export function storeyVariants(glb: Uint8Array, options: Partial<StoreyVariantsOptions> = {}): Uint8Array[] {
  const { hiddenMaterial } = { ...STOREY_VARIANTS_DEFAULTS, ...options };
  const { json, bin } = readGlbChunks<GltfJson>(glb);
  const nodes = json.nodes ?? [];
  const scenes = json.scenes ?? [];
  const roots = (scenes[json.scene ?? 0] ?? scenes[0])?.nodes ?? [];
  const names = new Set<string>();
  const storeys = roots
    .filter((r) => isStoreyNode(nodes[r]?.extras ?? {}))
    .map((root) => ({ name: uniqueName(storeyName(nodes[root]!), names), meshes: meshesUnder(nodes, root) }));
  if (storeys.length === 0) return [glb];

  const hidden =
    (json.materials ??= []).push({ name: hiddenMaterial, alphaMode: 'MASK', pbrMetallicRoughness: { baseColorFactor: [0, 0, 0, 0] } }) - 1;
  // The storeys each mesh is drawn in (by variant index).
  const drawnIn = new Map<number, Set<number>>();
  storeys.forEach((s, v) => {
    for (const m of s.meshes) drawnIn.set(m, (drawnIn.get(m) ?? new Set()).add(v));
  });
  for (const [m, own] of drawnIn) {
    const others = storeys.map((_, v) => v).filter((v) => !own.has(v));
    if (others.length === 0) continue;
    for (const primitive of json.meshes?.[m]?.primitives ?? [])
      primitive.extensions = { ...primitive.extensions, KHR_materials_variants: { mappings: [{ material: hidden, variants: others }] } };
  }
  json.extensions = { ...json.extensions, KHR_materials_variants: { variants: storeys.map((s) => ({ name: s.name })) } };
  json.extensionsUsed = [...new Set([...(json.extensionsUsed ?? []), 'KHR_materials_variants'])];
  return glbParts(json, [bin]);
}

/** What a storey node is called: the storey it groups, or the container's own name. */
function storeyName(node: NonNullable<GltfJson['nodes']>[number]): string {
  const { storey, name } = node.extras ?? {};
  return String(typeof storey === 'string' ? storey : typeof name === 'string' && name ? name : (node.name ?? 'storey'));
}

/** Variant names tell storeys apart: a second "Level 1" is "Level 1 (2)". */
function uniqueName(name: string, taken: Set<string>): string {
  let unique = name;
  for (let n = 2; taken.has(unique); n++) unique = `${name} (${n})`;
  taken.add(unique);
  return unique;
}

/** Every mesh drawn at `root` or below it. */
function meshesUnder(nodes: NonNullable<GltfJson['nodes']>, root: number): number[] {
  const meshes: number[] = [];
  const stack = [root];
  const seen = new Set<number>();
  while (stack.length) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    const node = nodes[n];
    if (!node) continue;
    if (node.mesh !== undefined) meshes.push(node.mesh);
    stack.push(...(node.children ?? []));
  }
  return meshes;
}
