import { mergeByMaterial, mergedDrawCalls, type MergeByMaterialOptions } from '../scene/mergeByMaterial.js';
import { determinant3 } from '../scene/normalMatrix.js';
import { drawCalls, worldMatrices } from '../scene/sceneStats.js';
import { meshArea } from '../scene/meshArea.js';
import type { SceneData, SceneMaterial } from '../scene/SceneData.js';
import type { BudgetStep } from './ArBudget.js';
import { drawnCentres, spatialCells } from './spatialCells.js';
import { alikeMaterials, materialsAfterMerges } from './alikeMaterials.js';

/** Options of {@link mergeToPrimBudget}: how it groups, and when repeated meshes stay shared. */
export interface MergeToPrimBudgetOptions {
  /** Cells per side of the ground plan grids tried for a model without storeys (or with too many), finest first. */
  cellDivisions: readonly number[];
  /** A repeated mesh lighter than this (triangles) costs less merged (copied at each place) than a draw call of its own. */
  instanceMinTriangles: number;
  /**
   * Instances are kept only while the scene stays within this many mesh prims: each is a prim the
   * device loads, and Apple's figure for smooth loading is about 50 (200 at most, the budget's
   * default limit). Past it, the bytes instancing saves cost more in load time than they are worth.
   */
  instancedPrimsTarget: number;
  /**
   * Instancing is worth its prims only when it makes the package markedly smaller: the triangles
   * the kept meshes would add copied into merged meshes, at least this share of the drawn ones
   * (ISSUE_021's pipe fittings: 4 %, for 24 prims, do not pay).
   */
  instancingMinSaving: number;
}

/** Defaults of {@link mergeToPrimBudget}. */
export const MERGE_TO_PRIM_BUDGET_DEFAULTS: Readonly<MergeToPrimBudgetOptions> = {
  cellDivisions: [4, 3, 2],
  instanceMinTriangles: 100,
  instancedPrimsTarget: 50,
  instancingMinSaving: 0.25,
};

/** A scene with no more mesh prims than asked, and how it got there. */
export interface MergedToBudget {
  scene: SceneData;
  steps: BudgetStep[];
  /**
   * How geometry was grouped, for a report: `'storey and material'`, `'spatial cell (4 × 4) and material'`, … (`''` when nothing was
   * merged).
   */
  grouping: string;
}

/**
 * Brings a scene's mesh prims (draw calls) within `meshPrims`, losing as little as it can: first
 * merged per storey and material (culling still skips a storey out of view); for a model without
 * storeys (a GLB, a USDZ, a track) or with too many, per spatial cell and material, on a ground
 * plan grid of 4 × 4, 3 × 3 or 2 × 2 cells, the finest that fits. The prims that grouping leaves
 * spare below about 50 go to repeated meshes (a chair, a window drawn at many places), heaviest first: they stay
 * shared, each drawn at its places, so the USD writer writes them once as instances instead of
 * copying them into merged meshes. Failing every grouping: per material alone; then with
 * materials that look alike made one, the two nearest first and no more than the prims ask (see
 * `alikeMaterials`), each group in the look that covered most of it. Textured materials are
 * never merged: a scene with more of them than `meshPrims` stays over budget, and the report
 * says so. Element identity survives every merge as triangle runs. A scene already within comes
 * back as it is.
 *
 * @example
 * ```ts
 * mergeToPrimBudget(scene, 200).scene.stats.meshNodes; // ≤ 200
 * ```
 */
export function mergeToPrimBudget(scene: SceneData, meshPrims: number, options: Partial<MergeToPrimBudgetOptions> = {}): MergedToBudget {
  const opts = { ...MERGE_TO_PRIM_BUDGET_DEFAULTS, ...options };
  if (drawCalls(scene) <= meshPrims) return { scene, steps: [], grouping: '' };
  const candidates = instancingCandidates(scene, opts.instanceMinTriangles);
  // Each grouping is counted before it is merged: merging copies every vertex.
  for (const grouping of groupings(scene, opts.cellDivisions)) {
    const merged = mergedDrawCalls(scene, { minDrawCalls: 0, ...grouping.options });
    if (merged > meshPrims) continue;
    const within = instancedWithin(candidates, Math.min(meshPrims, opts.instancedPrimsTarget) - merged);
    const keep = worthInstancing(scene, candidates, within, opts.instancingMinSaving);
    const label = keep.size
      ? `${grouping.label}, ${keep.size} repeated mesh${keep.size > 1 ? 'es' : ''} kept as instances`
      : grouping.label;
    return { scene: mergeByMaterial(scene, { minDrawCalls: 0, ...grouping.options, keep }), steps: ['merged'], grouping: label };
  }
  // '' groups nothing: one mesh per material. Then alike materials made one, as few as fit.
  const byMaterial = mergeByMaterial(scene, { minDrawCalls: 0, groupBy: '' });
  const merges = alikeMaterials(byMaterial.materials, drawnAreaByMaterial(byMaterial));
  const merged = (count: number) =>
    mergeByMaterial(withLooks(byMaterial, materialsAfterMerges(byMaterial.materials.length, merges, count)), {
      minDrawCalls: 0,
      groupBy: '',
    });
  // The fewest merges whose draws fit (draws only fall as materials are made one), found by halving;
  // all of them when even that is over (textured materials, never merged). The last scene that
  // fitted is kept: merging copies every vertex.
  let fewest = 1,
    most = merges.length,
    fitted: SceneData | undefined;
  while (fewest < most) {
    const middle = (fewest + most) >> 1;
    const scene = merged(middle);
    if (drawCalls(scene) <= meshPrims) [most, fitted] = [middle, scene];
    else fewest = middle + 1;
  }
  return { scene: fitted ?? merged(fewest), steps: ['merged', 'materials_merged'], grouping: 'material, with alike materials made one' };
}

/** How nodes may be grouped before merging, finest first: storeys, then spatial cells, then none. */
interface Grouping {
  options: Pick<MergeByMaterialOptions, 'groupBy' | 'groups'>;
  /** How the report names it. */
  label: string;
}

function* groupings(scene: SceneData, cellDivisions: readonly number[]): Generator<Grouping> {
  if (scene.nodes.some((n) => n.meshes.length > 0 && n.metadata.storey !== undefined))
    yield { options: { groupBy: 'storey' }, label: 'storey and material' };
  const centres = drawnCentres(scene);
  for (const divisions of cellDivisions)
    yield {
      options: { groupBy: 'cell', groups: spatialCells(centres, scene.bounds, divisions) },
      label: `spatial cell (${divisions} × ${divisions}) and material`,
    };
  yield { options: { groupBy: '' }, label: 'material' };
}

/** A mesh drawn at several places that could stay shared: its index and its draws. */
interface Repeated {
  mesh: number;
  draws: number;
}

/**
 * Meshes worth keeping shared (instanced) rather than copied into merged ones: drawn at several
 * nodes, none of them mirroring it, and heavy enough to be worth a draw call each; heaviest first,
 * as each saves the most memory for the prims it spends.
 */
function instancingCandidates(scene: SceneData, minTriangles: number): Repeated[] {
  const draws = new Uint32Array(scene.meshes.length);
  const mirrored = new Uint8Array(scene.meshes.length);
  const world = worldMatrices(scene.nodes);
  scene.nodes.forEach((node, i) => {
    for (const m of node.meshes) {
      draws[m]!++;
      if (determinant3(world[i]!) < 0) mirrored[m] = 1;
    }
  });
  const repeated: Repeated[] = [];
  scene.meshes.forEach((mesh, m) => {
    if (draws[m]! > 1 && !mirrored[m] && mesh.indices.length / 3 >= minTriangles) repeated.push({ mesh: m, draws: draws[m]! });
  });
  const triangles = (r: Repeated) => scene.meshes[r.mesh]!.indices.length;
  return repeated.sort((a, b) => triangles(b) - triangles(a) || a.mesh - b.mesh);
}

/**
 * The meshes to keep shared, or none when sharing them saves less than `minSaving`
 * of the scene's triangles: each instance is a prim the device loads, and a few per cent of the
 * bytes (ISSUE_021's pipe fittings: 4 %, for 24 prims) do not pay for them.
 */
function worthInstancing(scene: SceneData, candidates: readonly Repeated[], keep: Set<number>, minSaving: number): Set<number> {
  // Each kept mesh is written once instead of at each of its draws.
  const saved = candidates.reduce((n, c) => n + (keep.has(c.mesh) ? (c.draws - 1) * (scene.meshes[c.mesh]!.indices.length / 3) : 0), 0);
  return saved >= minSaving * scene.stats.triangles ? keep : new Set();
}

/**
 * The candidates kept as instances with the draw calls a merge leaves: merged meshes are counted
 * as if every candidate were merged too, so whatever is kept can only lower the count.
 */
function instancedWithin(candidates: readonly Repeated[], spare: number): Set<number> {
  const keep = new Set<number>();
  for (const c of candidates) {
    if (c.draws > spare) continue;
    keep.add(c.mesh);
    spare -= c.draws;
  }
  return keep;
}

/** The scene with each material drawn in the look `lookOf` gives it: the looks used, in order of first use. */
function withLooks(scene: SceneData, lookOf: Int32Array): SceneData {
  const slot = new Map<number, number>();
  const materials: SceneMaterial[] = [];
  const to = Array.from(lookOf, (look) => {
    let target = slot.get(look);
    if (target === undefined) {
      slot.set(look, (target = materials.length));
      materials.push(scene.materials[look]!);
    }
    return target;
  });
  return { ...scene, materials, meshes: scene.meshes.map((mesh) => ({ ...mesh, material: to[mesh.material]! })) };
}

/** The surface each material is drawn over: its meshes' areas, once per draw, at the scale each is drawn. */
function drawnAreaByMaterial(scene: SceneData): Float64Array {
  const covered = new Float64Array(scene.materials.length);
  const world = worldMatrices(scene.nodes);
  scene.nodes.forEach((node, n) => {
    // A transform scales areas by its determinant to the power ⅔ (uniformly scaled, exactly).
    const scale = Math.abs(determinant3(world[n]!)) ** (2 / 3);
    for (const m of node.meshes) {
      const mesh = scene.meshes[m]!;
      covered[mesh.material] = covered[mesh.material]! + meshArea(mesh) * scale;
    }
  });
  return covered;
}
