import type { Bounds } from '@arsession/geometry';
import type { SceneData } from '../scene/SceneData.js';
import type { SceneLevel, SceneStorey } from '../scene/SceneLevel.js';
import { emptyBounds, growBounds, unionBounds } from '../scene/growBounds.js';
import { worldMatrices } from '../scene/sceneStats.js';
import { AR_BUDGET_DEFAULTS } from '../budget/ArBudget.js';
import { categoryOfIfcClass } from '../budget/categoryOfIfcClass.js';
import type { ScenePart } from './ScenePart.js';

/** Options of {@link splitIntoParts}. */
export interface SplitIntoPartsOptions {
  /**
   * Triangles one part may weigh as read: a storey over it is cut into cells that each weigh at
   * most this. The envelope weighs what it draws; other elements `clutterWeight` of it.
   */
  triangles: number;
  /**
   * What a triangle of furniture, services and the like weighs beside one of the envelope: the
   * budget simplifies them first, so a part may draw more of them as read and still keep its
   * walls, slabs and roofs as they are.
   */
  clutterWeight: number;
}

/**
 * Defaults of {@link splitIntoParts}: parts whose envelope fits the AR budget as read, with up to
 * four times as much of everything else (simplified into the rest of the budget).
 */
export const SPLIT_INTO_PARTS_DEFAULTS: Readonly<SplitIntoPartsOptions> = { triangles: AR_BUDGET_DEFAULTS.triangles, clutterWeight: 1 / 4 };

/** One element node as the split sees it. */
interface Element {
  node: number;
  triangles: number;
  /** Its triangles as they count towards a part's size (see {@link SplitIntoPartsOptions.clutterWeight}). */
  weight: number;
  box: Bounds;
}

/**
 * Splits a scene along what the model offers: one part per storey (`levels`: an IFC's spatial
 * containers, a space counted with its storey), bottom up, then one for the elements no
 * container holds. A
 * group drawing more than `triangles` is cut in two at the triangle-weighted median of its
 * elements' centres, across its longer horizontal side, until every cell is within it (or is one
 * element): a storey of a large building becomes neighbouring cells a device loads where the user
 * stands. Every element node is in exactly one part. A scene without levels (a GLB) is cut the same
 * way as one group. An element weighs as envelope by its own IFC class only (the budget also reads
 * merged runs and, without a class, the shape: a GLB's walls weigh as clutter here).
 *
 * @example
 * ```ts
 * const parts = splitIntoParts(scene, scene.levels, { triangles: 100_000 });
 * parts.map((p) => p.name); // → ['Level 1', 'Level 2 · 1/2', 'Level 2 · 2/2', 'Roof']
 * ```
 */
export function splitIntoParts(
  scene: Pick<SceneData, 'nodes' | 'meshes'>,
  levels: readonly SceneLevel[] = [],
  options: Partial<SplitIntoPartsOptions> = {},
): ScenePart[] {
  const { triangles, clutterWeight } = { ...SPLIT_INTO_PARTS_DEFAULTS, ...options };
  const levelOf = containerOfEachNode(scene.nodes, levels);
  // Containers of one storey (the storey, its spaces) make one group; a storey the file gives no id is its own.
  const storeys = new Map<string, SceneStorey | null>();
  const groupOfLevel = new Map<number, string>();
  for (const level of levels) {
    const key = level.storey.globalId || `#${level.node}`;
    if (!storeys.has(key)) storeys.set(key, level.storey);
    groupOfLevel.set(level.node, key);
  }
  storeys.set('', null);
  const groups = new Map<string, Element[]>([...storeys.keys()].map((k) => [k, []]));
  const world = worldMatrices(scene.nodes);
  scene.nodes.forEach((node, i) => {
    if (node.meshes.length === 0) return;
    const box = emptyBounds();
    let drawn = 0;
    for (const m of node.meshes) {
      const mesh = scene.meshes[m]!;
      growBounds(box, mesh.positions, 3, world[i]!);
      drawn += mesh.indices.length / 3;
    }
    const ifcClass = node.metadata.ifcClass;
    const weight = ifcClass !== undefined && categoryOfIfcClass(ifcClass) === 'envelope' ? drawn : drawn * clutterWeight;
    groups.get(groupOfLevel.get(levelOf[i]!) ?? '')!.push({ node: i, triangles: drawn, weight, box });
  });
  const parts: ScenePart[] = [];
  // Storeys bottom up (those that state no elevation after, in file order), then the unplaced.
  const sameName = new Map<string, number>();
  const order = [...groups.keys()].sort((a, b) => Math.sign(rank(storeys.get(a)) - rank(storeys.get(b))) || 0);
  for (const key of order) {
    const elements = groups.get(key)!;
    if (elements.length === 0) continue;
    const storey = storeys.get(key) ?? null;
    const cells = cutToSize(elements, triangles);
    // Storeys of the same name (each building of a campus has a Level 1) are told apart by number.
    const named = storey ? storey.name || storey.ifcClass : 'Unplaced';
    const seen = (sameName.get(named) ?? 0) + 1;
    sameName.set(named, seen);
    const base = seen === 1 ? named : `${named} (${seen})`;
    cells.forEach((cell, k) => {
      parts.push({
        name: cells.length === 1 ? base : `${base} · ${k + 1}/${cells.length}`,
        storey,
        cell: cells.length === 1 ? null : [k, cells.length],
        nodes: cell.map((e) => e.node).sort((a, b) => a - b),
        triangles: cell.reduce((n, e) => n + e.triangles, 0),
        bounds: cell.reduce((b, e) => unionBounds(b, e.box), emptyBounds()),
      });
    });
  }
  return parts;
}

/** Where a group goes in the order: by elevation; a container without one after those with; the unplaced last. */
function rank(storey: SceneStorey | null | undefined): number {
  if (!storey) return Number.POSITIVE_INFINITY;
  return storey.elevation ?? Number.MAX_VALUE;
}

/** The level node each node sits under (itself for a level), or −1. Parents precede children. */
function containerOfEachNode(nodes: SceneData['nodes'], levels: readonly SceneLevel[]): Int32Array {
  const isLevel = new Set(levels.map((l) => l.node));
  const out = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((node, i) => {
    out[i] = isLevel.has(i) ? i : node.parent >= 0 ? out[node.parent]! : -1;
  });
  return out;
}

/** Cells of at most `limit` weight each (or single elements), neighbours kept together. */
function cutToSize(elements: Element[], limit: number): Element[][] {
  const total = elements.reduce((n, e) => n + e.weight, 0);
  if (total <= limit || elements.length === 1) return [elements];
  const centre = (e: Element, axis: 0 | 2) => (e.box.min[axis] + e.box.max[axis]) / 2;
  const spread = (axis: 0 | 2) => {
    let lo = Infinity,
      hi = -Infinity;
    for (const e of elements) {
      lo = Math.min(lo, centre(e, axis));
      hi = Math.max(hi, centre(e, axis));
    }
    return hi - lo;
  };
  const axis = spread(0) >= spread(2) ? 0 : 2;
  const sorted = [...elements].sort((a, b) => centre(a, axis) - centre(b, axis) || a.node - b.node);
  let half = 0,
    at = 0;
  while (at < sorted.length - 1 && half + sorted[at]!.weight <= total / 2) half += sorted[at++]!.weight;
  // The first element alone may be over half: it still makes a cell of its own.
  const cut = Math.max(1, at);
  return [...cutToSize(sorted.slice(0, cut), limit), ...cutToSize(sorted.slice(cut), limit)];
}
