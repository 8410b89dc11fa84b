import { INNER_NODE, type Bvh, type TriangleMesh } from './Bvh.js';

/** Options of {@link buildBvh}. */
export interface BuildBvhOptions {
  /** Largest number of triangles in a leaf. */
  maxLeafTriangles: number;
  /** Deepest tree built; deeper subtrees become (large) leaves. */
  maxDepth: number;
}

/** Defaults of {@link buildBvh}, as three-mesh-bvh's default build. */
export const BUILD_BVH_DEFAULTS: Readonly<BuildBvhOptions> = { maxLeafTriangles: 10, maxDepth: 40 };

/**
 * Builds a {@link Bvh} by centre split: each node splits its triangles at the middle of their
 * centroids' extent along the longest axis (the build three-mesh-bvh uses by default: fast, and
 * good enough for first-hit rays). Works in place on flat arrays; no per-triangle objects.
 *
 * @example
 * ```ts
 * const bvh = buildBvh({ positions, indices });
 * raycastFirst(bvh, { positions, indices }, [0, 1.6, 0], [0, 0, -1]);
 * ```
 */
export function buildBvh(mesh: TriangleMesh, options: Partial<BuildBvhOptions> = {}): Bvh {
  const { maxLeafTriangles, maxDepth } = { ...BUILD_BVH_DEFAULTS, ...options };
  const { positions: p, indices } = mesh;
  const count = indices.length / 3;
  // Per-triangle box as exact min and max per axis (x0, x1, y0, y1, z0, z1), computed once and kept
  // in the same order as `triangles` (partitioning swaps both), so scans are sequential. One read
  // serves both the node's bounds (exact: containment must never round inward) and its centroid
  // bounds ((min + max) / 2 on the fly: rounding there only moves the split a hair).
  const box = triangleBoxes(p, indices, count);
  const triangles = new Uint32Array(count);
  for (let t = 0; t < count; t++) triangles[t] = t;
  // A tree over n leaves has at most 2n − 1 nodes; grow on demand, trim at the end.
  const capacity = Math.max(1, Math.ceil((2 * count) / maxLeafTriangles) + 1);
  const tree: TreeUnderConstruction = {
    box,
    triangles,
    bounds: new Float32Array(capacity * 6),
    links: new Uint32Array(capacity * 2),
    nodeCount: 0,
    maxLeafTriangles,
    maxDepth,
  };
  if (count > 0) buildNode(tree, 0, count, 0);
  return { bounds: tree.bounds.slice(0, tree.nodeCount * 6), links: tree.links.slice(0, tree.nodeCount * 2), triangles };
}

/**
 * Each triangle's box (x0, x1, y0, y1, z0, z1). A function of its own: as a loop inside
 * `buildBvh` it was optimised on the stack of one long first build, and every later build left
 * that code at the next line (never run then), 186 times in one project.
 */
function triangleBoxes(p: TriangleMesh['positions'], indices: TriangleMesh['indices'], count: number): Float32Array {
  const box = new Float32Array(count * 6);
  for (let t = 0; t < count; t++) {
    const a = indices[t * 3]! * 3,
      b = indices[t * 3 + 1]! * 3,
      c = indices[t * 3 + 2]! * 3;
    for (let k = 0; k < 3; k++) {
      const va = p[a + k]!,
        vb = p[b + k]!,
        vc = p[c + k]!;
      box[t * 6 + k * 2] = va < vb ? Math.min(va, vc) : Math.min(vb, vc);
      box[t * 6 + k * 2 + 1] = va > vb ? Math.max(va, vc) : Math.max(vb, vc);
    }
  }
  return box;
}

/**
 * The state of one build. The recursion is a module-level function over it rather than a closure
 * made afresh for every build: one function for V8 to optimise across builds, measured about 4%
 * faster in steady state (ISSUE_021, Office_A).
 */
interface TreeUnderConstruction {
  /** Per-triangle boxes (x0, x1, y0, y1, z0, z1), in the order of `triangles`. */
  box: Float32Array;
  triangles: Uint32Array;
  bounds: Float32Array;
  links: Uint32Array;
  nodeCount: number;
  maxLeafTriangles: number;
  maxDepth: number;
}

function newNode(tree: TreeUnderConstruction): number {
  if (tree.nodeCount * 2 === tree.links.length) {
    const bounds = new Float32Array(tree.bounds.length * 2);
    bounds.set(tree.bounds);
    tree.bounds = bounds;
    const links = new Uint32Array(tree.links.length * 2);
    links.set(tree.links);
    tree.links = links;
  }
  return tree.nodeCount++;
}

/** Builds the subtree over `triangles[start … end)` and returns its root node. */
function buildNode(tree: TreeUnderConstruction, start: number, end: number, depth: number): number {
  const node = newNode(tree);
  const { box, triangles } = tree;
  let x0 = Infinity,
    y0 = Infinity,
    z0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity,
    z1 = -Infinity;
  let cx0 = Infinity,
    cy0 = Infinity,
    cz0 = Infinity,
    cx1 = -Infinity,
    cy1 = -Infinity,
    cz1 = -Infinity;
  for (let i = start; i < end; i++) {
    const o = i * 6;
    const ax = box[o]!,
      bx = box[o + 1]!,
      ay = box[o + 2]!,
      by = box[o + 3]!,
      az = box[o + 4]!,
      bz = box[o + 5]!;
    if (ax < x0) x0 = ax;
    if (bx > x1) x1 = bx;
    if (ay < y0) y0 = ay;
    if (by > y1) y1 = by;
    if (az < z0) z0 = az;
    if (bz > z1) z1 = bz;
    const cx = ax + bx,
      cy = ay + by,
      cz = az + bz; // twice the centroid; the split below uses the same doubled units
    if (cx < cx0) cx0 = cx;
    if (cx > cx1) cx1 = cx;
    if (cy < cy0) cy0 = cy;
    if (cy > cy1) cy1 = cy;
    if (cz < cz0) cz0 = cz;
    if (cz > cz1) cz1 = cz;
  }
  const { bounds, links } = tree;
  const o6 = node * 6;
  bounds[o6] = x0;
  bounds[o6 + 1] = y0;
  bounds[o6 + 2] = z0;
  bounds[o6 + 3] = x1;
  bounds[o6 + 4] = y1;
  bounds[o6 + 5] = z1;
  const n = end - start;
  const ex = cx1 - cx0,
    ey = cy1 - cy0,
    ez = cz1 - cz0;
  const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2;
  const extent = axis === 0 ? ex : axis === 1 ? ey : ez;
  if (n <= tree.maxLeafTriangles || depth >= tree.maxDepth || !(extent > 0)) {
    links[node * 2] = start;
    links[node * 2 + 1] = n;
    return node;
  }
  const split = (axis === 0 ? cx0 : axis === 1 ? cy0 : cz0) + extent / 2; // in doubled-centroid units
  // Hoare partition in place, centroids below the split to the left: only pairs on the wrong
  // sides are swapped, boxes with their triangles.
  const ax2 = axis * 2;
  let i = start,
    j = end - 1;
  for (;;) {
    while (i <= j && box[i * 6 + ax2]! + box[i * 6 + ax2 + 1]! < split) i++;
    while (i <= j && box[j * 6 + ax2]! + box[j * 6 + ax2 + 1]! >= split) j--;
    if (i >= j) break;
    const s = triangles[i]!;
    triangles[i] = triangles[j]!;
    triangles[j] = s;
    const a = i * 6,
      b = j * 6;
    const a0 = box[a]!,
      a1 = box[a + 1]!,
      a2 = box[a + 2]!,
      a3 = box[a + 3]!,
      a4 = box[a + 4]!,
      a5 = box[a + 5]!;
    box[a] = box[b]!;
    box[a + 1] = box[b + 1]!;
    box[a + 2] = box[b + 2]!;
    box[a + 3] = box[b + 3]!;
    box[a + 4] = box[b + 4]!;
    box[a + 5] = box[b + 5]!;
    box[b] = a0;
    box[b + 1] = a1;
    box[b + 2] = a2;
    box[b + 3] = a3;
    box[b + 4] = a4;
    box[b + 5] = a5;
    i++;
    j--;
  }
  const mid = i === start || i === end ? (start + end) >> 1 : i; // never an empty side
  buildNode(tree, start, mid, depth + 1);
  const right = buildNode(tree, mid, end, depth + 1);
  // The children may have grown the arrays.
  tree.links[node * 2] = right;
  tree.links[node * 2 + 1] = INNER_NODE;
  return node;
}
