import type { Vec3 } from '@arsession/geometry';
import { chooseOffset, RECENTRE_BEYOND } from './chooseOffset.js';
import type { SceneData, SceneElementRange, SceneMesh, SceneNode } from './SceneData.js';
import { isStoreyNode } from './SceneLevel.js';
import { determinant3, normalMatrix } from './normalMatrix.js';
import { isIdentityMatrix, newIdentityMatrix } from './identityMatrix.js';
import { drawCalls, sceneStats, worldMatrices } from './sceneStats.js';

/** Options of {@link mergeByMaterial}. */
export interface MergeByMaterialOptions {
  /** Merge only scenes that would otherwise need more draw calls than this. */
  minDrawCalls: number;
  /**
   * Metadata key whose value groups nodes (IFC: `storey`); geometry is merged per group and
   * material. Nodes without it, and every node when the key is absent (`''`: one mesh per
   * material), fall in one group.
   */
  groupBy: string;
  /**
   * The group of each node (by index), when it is not in the nodes' metadata (a spatial cell);
   * the merged nodes carry it under `groupBy`.
   */
  groups?: readonly string[];
  /**
   * Meshes (by index) left unmerged: each stays one mesh, drawn at every node that drew it, now
   * a root with that node's world matrix (instanced geometry the USD writer writes once).
   */
  keep?: ReadonlySet<number>;
}

/** Defaults of {@link mergeByMaterial}: a phone handles a few hundred draw calls at AR frame rates. */
export const MERGE_BY_MATERIAL_DEFAULTS: Readonly<MergeByMaterialOptions> = { minDrawCalls: 300, groupBy: 'storey' };

/**
 * Merges all geometry that shares a material (per group, e.g. per storey) into one mesh, baked
 * into world space, so the draw-call count stays low on a phone. Element identity survives as
 * triangle ranges (`SceneMesh.elements`) carrying each element's metadata. Scenes under
 * `minDrawCalls` come back unchanged.
 *
 * @example
 * ```ts
 * const delivered = mergeByMaterial(await readIfc(bytes));
 * delivered.stats.meshNodes; // ≈ storeys × colours instead of thousands
 * ```
 */
export function mergeByMaterial(scene: SceneData, options: Partial<MergeByMaterialOptions> = {}): SceneData {
  const opts = { ...MERGE_BY_MATERIAL_DEFAULTS, ...options };
  if (drawCalls(scene) <= opts.minDrawCalls) return scene;

  const world = worldMatrices(scene.nodes);
  // Bucket every drawn mesh by (group, material), in scene order so output is deterministic.
  type Part = { mesh: SceneMesh; matrix: Float64Array; node: SceneNode };
  const buckets = new Map<string, { group: string; material: number; parts: Part[] }>();
  const kept: Array<{ node: number; meshes: number[] }> = [];
  scene.nodes.forEach((node, i) => {
    const keep = opts.keep && node.meshes.filter((m) => opts.keep!.has(m));
    if (keep?.length) kept.push({ node: i, meshes: keep });
    for (const m of node.meshes) {
      if (opts.keep?.has(m)) continue;
      const mesh = scene.meshes[m]!;
      const group = groupOf(node, i, opts);
      const key = `${group}\u0000${mesh.material}`;
      let bucket = buckets.get(key);
      if (!bucket) buckets.set(key, (bucket = { group, material: mesh.material, parts: [] }));
      bucket.parts.push({ mesh, matrix: world[i]!, node });
    }
  });

  // Baking world coordinates into float32 needs them near the origin: a far-away GLB or USDZ
  // (georeferenced, offset never removed) is re-centred here, in float64, like an IFC on reading.
  const centres = new Float64Array(scene.nodes.length * 3);
  let centred = 0;
  const b = scene.bounds;
  if ([...b.min, ...b.max].some((v) => Math.abs(v) > RECENTRE_BEYOND)) {
    scene.nodes.forEach((node, i) => {
      if (node.meshes.length === 0) return;
      for (let k = 0; k < 3; k++) centres[centred * 3 + k] = world[i]![12 + k]!;
      centred++;
    });
  }
  const shift = chooseOffset(centres.subarray(0, centred * 3));

  const nodes: SceneNode[] = [];
  const meshes: SceneMesh[] = [];
  const groupNode = new Map<string, number>();
  const identities = opts.groupBy === 'storey' && !opts.groups ? storeyIdentities(scene.nodes) : new Map<string, Record<string, string>>();
  for (const bucket of buckets.values()) {
    let parent = groupNode.get(bucket.group);
    if (parent === undefined) {
      parent = nodes.length;
      groupNode.set(bucket.group, parent);
      nodes.push({
        name: bucket.group ? (opts.groups ? `${opts.groupBy}_${bucket.group}` : bucket.group) : 'model',
        parent: -1,
        matrix: newIdentityMatrix(),
        meshes: [],
        metadata: bucket.group ? { [opts.groupBy]: bucket.group, ...identities.get(bucket.group) } : {},
      });
    }
    nodes[parent]!.meshes.push(meshes.length);
    meshes.push(mergeParts(bucket.parts, bucket.material, scene.materials[bucket.material]!.name, shift));
  }
  // Kept meshes are shared as they were, each node that drew them now a root at its world place.
  const keptIndex = new Map<number, number>();
  for (const { node: i, meshes: drawn } of kept) {
    const matrix = world[i]!.slice();
    for (let k = 0; k < 3; k++) matrix[12 + k] = matrix[12 + k]! - shift[k]!;
    const own = drawn.map((m) => {
      let index = keptIndex.get(m);
      if (index === undefined) {
        keptIndex.set(m, (index = meshes.length));
        meshes.push(scene.meshes[m]!);
      }
      return index;
    });
    // Under its group's node when it has one (identity, so its world place is the same): every
    // prim of a storey then lies under the storey's Xform.
    const parent = groupNode.get(groupOf(scene.nodes[i]!, i, opts)) ?? -1;
    nodes.push({ ...scene.nodes[i]!, parent, matrix, meshes: own });
  }
  const base = { nodes, meshes, materials: scene.materials, textures: scene.textures };
  // Merging moves no vertex in world space: the bounds are the scene's own, less any shift.
  const offset: Vec3 = [scene.offset[0] + shift[0], scene.offset[1] + shift[1], scene.offset[2] + shift[2]];
  const bounds = { min: b.min.map((v, k) => v - shift[k]!) as Vec3, max: b.max.map((v, k) => v - shift[k]!) as Vec3 };
  const warnings = shift.some((v) => v !== 0)
    ? [
        ...scene.warnings,
        {
          code: 'recentred' as const,
          message:
            `geometry was ${Math.round(Math.hypot(...shift))} m from the ` +
            `origin and was re-centred; model_frame.offset states the shift`,
        },
      ]
    : scene.warnings;
  return { ...scene, ...base, offset, bounds, stats: sceneStats(base), warnings };
}

/**
 * The draw calls {@link mergeByMaterial} would leave the scene with under `options`, counted
 * without merging (a merge copies every vertex): one per group and material, one per draw of a
 * kept mesh; the scene's own below `minDrawCalls`.
 *
 * @example
 * ```ts
 * mergedDrawCalls(scene); // → 13 for ISSUE_021 (2,636 as read)
 * ```
 */
export function mergedDrawCalls(scene: Pick<SceneData, 'nodes' | 'meshes'>, options: Partial<MergeByMaterialOptions> = {}): number {
  const opts = { ...MERGE_BY_MATERIAL_DEFAULTS, ...options };
  const calls = drawCalls(scene);
  if (calls <= opts.minDrawCalls) return calls;
  const keys = new Set<string>();
  let kept = 0;
  scene.nodes.forEach((node, i) => {
    for (const m of node.meshes) {
      if (opts.keep?.has(m)) kept++;
      else keys.add(`${groupOf(node, i, opts)}\u0000${scene.meshes[m]!.material}`);
    }
  });
  return keys.size + kept;
}

/** The group node `i`'s geometry merges into: its entry in `groups`, else its `groupBy` metadata; `''` for none. */
function groupOf(node: SceneNode, i: number, opts: MergeByMaterialOptions): string {
  return (opts.groups ? opts.groups[i] : node.metadata[opts.groupBy]) ?? '';
}

function mergeParts(
  parts: ReadonlyArray<{ mesh: SceneMesh; matrix: Float64Array; node: SceneNode }>,
  material: number,
  name: string,
  shift: Vec3,
): SceneMesh {
  let vertexCount = 0,
    indexCount = 0;
  const withNormals = parts.every((p) => p.mesh.normals);
  const withUvs = parts.every((p) => p.mesh.uvs);
  for (const p of parts) {
    vertexCount += p.mesh.positions.length / 3;
    indexCount += p.mesh.indices.length;
  }
  const positions = new Float32Array(vertexCount * 3);
  const normals = withNormals ? new Float32Array(vertexCount * 3) : undefined;
  const uvs = withUvs ? new Float32Array(vertexCount * 2) : undefined;
  const indices = new Uint32Array(indexCount);
  const elements: SceneElementRange[] = [];
  let v0 = 0,
    i0 = 0;
  let lastNode: SceneNode | undefined;
  for (const { mesh, matrix: t, node } of parts) {
    const p = mesh.positions,
      n = mesh.normals,
      count = p.length / 3;
    // IFC geometry arrives baked (identity nodes) and is rarely shifted: then it is a copy.
    const unmoved = isIdentityMatrix(t) && shift[0] === 0 && shift[1] === 0 && shift[2] === 0;
    if (unmoved) {
      positions.set(p, v0 * 3);
      if (normals && n) normals.set(n, v0 * 3);
    } else {
      const nm = normalMatrix(t);
      for (let v = 0; v < count; v++) {
        const x = p[v * 3]!,
          y = p[v * 3 + 1]!,
          z = p[v * 3 + 2]!,
          o = (v0 + v) * 3;
        // float64 until the shift is removed; only then float32.
        positions[o] = t[0]! * x + t[4]! * y + t[8]! * z + t[12]! - shift[0];
        positions[o + 1] = t[1]! * x + t[5]! * y + t[9]! * z + t[13]! - shift[1];
        positions[o + 2] = t[2]! * x + t[6]! * y + t[10]! * z + t[14]! - shift[2];
        if (normals && n) {
          const a = n[v * 3]!,
            b = n[v * 3 + 1]!,
            c = n[v * 3 + 2]!;
          const ox = nm[0]! * a + nm[1]! * b + nm[2]! * c,
            oy = nm[3]! * a + nm[4]! * b + nm[5]! * c,
            oz = nm[6]! * a + nm[7]! * b + nm[8]! * c;
          const l = Math.sqrt(ox * ox + oy * oy + oz * oz) || 1; // not Math.hypot: hot loop
          normals[o] = ox / l;
          normals[o + 1] = oy / l;
          normals[o + 2] = oz / l;
        }
      }
    }
    if (uvs && mesh.uvs) uvs.set(mesh.uvs, v0 * 2);
    const src = mesh.indices;
    // Two loops, not a flip test per index: the plain one is most of every merge.
    if (determinant3(t) < 0) {
      for (let i = 0; i < src.length; i += 3) {
        indices[i0 + i] = src[i]! + v0;
        indices[i0 + i + 1] = src[i + 2]! + v0;
        indices[i0 + i + 2] = src[i + 1]! + v0;
      }
    } else {
      for (let i = 0; i < src.length; i++) indices[i0 + i] = src[i]! + v0;
    }
    // A mesh merged before keeps its own element runs; consecutive parts of one element (a
    // product's several geometries) share one range.
    if (mesh.elements) elements.push(...mesh.elements.map((e) => ({ ...e, firstTriangle: e.firstTriangle + i0 / 3 })));
    else if (lastNode === node) elements[elements.length - 1]!.triangleCount += mesh.indices.length / 3;
    else elements.push({ firstTriangle: i0 / 3, triangleCount: mesh.indices.length / 3, metadata: { name: node.name, ...node.metadata } });
    lastNode = mesh.elements ? undefined : node;
    v0 += count;
    i0 += mesh.indices.length;
  }
  return { name, positions, ...(normals && { normals }), ...(uvs && { uvs }), indices, material, elements };
}

/**
 * What the file states of each storey (by name) beyond its name: its class (`storeyClass`: a site
 * or building stands for a storey where elements lie in one) and its `elevation`, each where every
 * container of that name states the same (copies of a building merged into one project).
 */
function storeyIdentities(nodes: readonly SceneNode[]): Map<string, Record<string, string>> {
  const stated = new Map<string, { storeyClass: string | null; elevation: string | null }>();
  for (const n of nodes) {
    const ifcClass = n.metadata.ifcClass;
    // Containers: a spatial class, and no storey of their own.
    if (ifcClass === undefined || !isStoreyNode(n.metadata)) continue;
    const name = n.metadata.name ?? n.name;
    const was = stated.get(name);
    const elevation = n.metadata.elevation ?? null;
    if (!was) stated.set(name, { storeyClass: ifcClass, elevation });
    else {
      if (was.storeyClass !== ifcClass) was.storeyClass = null;
      if (was.elevation !== elevation) was.elevation = null;
    }
  }
  const out = new Map<string, Record<string, string>>();
  for (const [name, { storeyClass, elevation }] of stated)
    out.set(name, { ...(storeyClass !== null && { storeyClass }), ...(elevation !== null && { elevation }) });
  return out;
}
