import { ModelUnreadableError } from '../errors/ConvertError.js';
import type { GltfJson } from './readGlbJson.js';

/** Deepest node hierarchy accepted; the USDZ reader stops at the same depth. */
export const MAX_NODE_DEPTH = 256;

/**
 * Checks that a glTF's nodes form a forest, as the spec requires, before any decoder walks it:
 * every child and scene root exists, no node has two parents, no node is its own ancestor, and no
 * chain is deeper than {@link MAX_NODE_DEPTH}. The glTF reader quietly breaks cycles (delivering a
 * different model than the file describes) and pays for depth quadratically (a 300 KB chain of
 * 20 000 nodes holds a worker until its deadline), so such files are refused here, from the JSON.
 *
 * @example
 * ```ts
 * checkGlbNodeTree({ nodes: [{ children: [0] }] }, 'loop.glb'); // throws: node 0 is its own ancestor
 * ```
 */
export function checkGlbNodeTree(json: GltfJson, fileName?: string): void {
  const fail = (why: string) => new ModelUnreadableError(`${fileName ?? 'GLB'}: ${why}`, fileName === undefined ? {} : { fileName });
  const nodes = json.nodes ?? [];
  const parentOf = new Array<number>(nodes.length).fill(-1);
  nodes.forEach((node: unknown, i) => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) throw fail(`node ${i} is not an object`);
    const children = (node as { children?: unknown }).children;
    if (children === undefined) return;
    if (!Array.isArray(children)) throw fail(`node ${i} has "children" that is not an array`);
    for (const child of children as unknown[]) {
      if (!isIndex(child, nodes.length))
        throw fail(`node ${i} lists child ${JSON.stringify(child)}, which does not exist (${nodes.length} nodes)`);
      if (child === i) throw fail(`node ${i} is its own child (a cycle in the node graph)`);
      if (parentOf[child] !== -1) throw fail(`node ${child} has two parents (nodes ${parentOf[child]} and ${i}); glTF nodes form a tree`);
      parentOf[child] = i;
    }
  });
  // Depth of each node by walking up to its root; memoised, so linear overall. A walk that runs
  // longer than there are nodes has gone round a cycle.
  const depth = new Array<number>(nodes.length).fill(0);
  for (let i = 0; i < nodes.length; i++) {
    const chain: number[] = [];
    let at = i;
    while (at !== -1 && depth[at] === 0) {
      chain.push(at);
      if (chain.length > nodes.length) throw fail(`node ${i} is its own ancestor (a cycle in the node graph)`);
      at = parentOf[at]!;
    }
    let d = at === -1 ? 0 : depth[at]!;
    for (let k = chain.length - 1; k >= 0; k--) {
      depth[chain[k]!] = ++d;
      if (d > MAX_NODE_DEPTH) throw fail(`the node hierarchy is deeper than ${MAX_NODE_DEPTH} levels (node ${chain[k]})`);
    }
  }
  const scenes = json.scenes ?? [];
  if (!Array.isArray(scenes)) throw fail('"scenes" is not an array');
  scenes.forEach((scene: unknown, s) => {
    const roots = (scene as { nodes?: unknown } | null)?.nodes ?? [];
    if (!Array.isArray(roots)) throw fail(`scene ${s} has "nodes" that is not an array`);
    for (const root of roots as unknown[]) {
      if (!isIndex(root, nodes.length))
        throw fail(`scene ${s} lists node ${JSON.stringify(root)}, which does not exist (${nodes.length} nodes)`);
      if (parentOf[root] !== -1) throw fail(`scene ${s} lists node ${root} as a root, but it is a child of node ${parentOf[root]}`);
    }
  });
  if (json.scene !== undefined && !isIndex(json.scene, scenes.length))
    throw fail(`"scene" is ${JSON.stringify(json.scene)}, but the file has ${scenes.length} scenes`);
}

function isIndex(value: unknown, length: number): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) < length;
}
