import { MeshoptSimplifier } from 'meshoptimizer';
import type { SceneData, SceneMesh } from '../scene/SceneData.js';
import { sceneStats, worldMatrices } from '../scene/sceneStats.js';
import { pointBounds } from '../scene/pointBounds.js';
import { MeshSimplification } from './MeshSimplification.js';
import { measureDeviation } from './measureDeviation.js';

/** Options of {@link simplifyToBudget}. */
export interface SimplifyToBudgetOptions {
  /** Triangles drawn at most (a mesh drawn at several nodes counts at each). */
  triangles: number;
  /** Error of the first round, in metres: 2 mm, below what a phone shows of a building (and the full model's first round is the costliest). */
  firstError: number;
  /** Factor by which each further round allows more error. */
  growth: number;
  /** Halvings of the last step when it went far below the budget. */
  refinements: number;
  /** Triangles sampled on each side to measure the deviation, over the whole scene. */
  samples: number;
}

/** Parts smaller than this (m) may be left out whole when the budget needs it. */
const VANISH_BELOW_METRES = 0.5;

/** Every simplified mesh is sampled at least this much, however small. */
const MIN_SAMPLES = 200;

/** Defaults of {@link simplifyToBudget}. */
export const SIMPLIFY_TO_BUDGET_DEFAULTS: Readonly<SimplifyToBudgetOptions> = { triangles: 100_000, firstError: 0.002, growth: 2, refinements: 1, samples: 20_000 };

/** A simplified scene and what it cost. */
export interface SimplifiedScene {
  scene: SceneData;
  /** The error bound of the last round, in metres. */
  error: number;
  /** Largest measured distance from the delivered surface to the full model's, in metres. */
  maxDeviation: number;
  /** Largest measured distance from the full model's surface to the delivered one (parts taken away count), in metres. */
  maxUncovered: number;
}

/**
 * Brings a scene's triangles within a budget with the least error that does it: every mesh is
 * simplified with one error bound in metres (meshoptimizer, borders locked, parts smaller than
 * the error pruned), and the bound grows round by round until the drawn triangles fit. One bound
 * for all keeps walls as they are and takes the triangles where detail is finest (bolts, pipes,
 * curved rails). If the bound reaches the model's own size first, meshes are reduced in
 * proportion whatever the error. The deviation is then measured, mesh by mesh, against the full
 * model, both ways. Nodes, materials, textures and bounds are the scene's own.
 *
 * @example
 * ```ts
 * const { scene: delivered, maxDeviation } = await simplifyToBudget(scene, { triangles: 100_000 });
 * ```
 */
export async function simplifyToBudget(scene: SceneData, options: Partial<SimplifyToBudgetOptions> = {}): Promise<SimplifiedScene> {
  const opts = { ...SIMPLIFY_TO_BUDGET_DEFAULTS, ...options };
  await MeshoptSimplifier.ready;
  const { uses, scale } = drawsOfMeshes(scene);
  const size = Math.hypot(...scene.bounds.max.map((v, k) => v - scene.bounds.min[k]!));
  // Small parts (bolts, fixings: under half a metre and a thousandth of the model) may be simplified
  // away entirely; anything larger keeps a shape, however coarse.
  const vanishBelow = Math.min(VANISH_BELOW_METRES, size / 1000);
  const work = scene.meshes.map((mesh, m) => (uses[m]! > 0 && mesh.indices.length > 0 ? new MeshSimplification(mesh, extent(mesh) * scale[m]! < vanishBelow) : undefined));
  const drawn = () => work.reduce((n, w, m) => n + (w ? w.triangles * uses[m]! : 0), 0);

  const round = (e: number) => work.forEach((w, m) => w?.tighten(e / scale[m]!));
  let error = opts.firstError, below = 0;
  while (drawn() > opts.triangles && error < size) {
    work.forEach((w) => w?.mark());
    round(error);
    if (drawn() <= opts.triangles) break;
    below = error;
    error *= opts.growth;
  }
  // A round that went far below the budget is taken again with less error, between the last
  // two bounds, so no more is lost than the budget asks.
  for (let step = 0; step < opts.refinements && drawn() < opts.triangles * 0.9 && below > 0; step++) {
    const between = (below + error) / 2;
    work.forEach((w) => w?.rewind());
    round(between);
    if (drawn() <= opts.triangles) {
      error = between;
      continue;
    }
    below = between;
    work.forEach((w) => w?.rewind());
    round(error);
  }
  if (drawn() > opts.triangles) {
    const ratio = opts.triangles / drawn();
    for (const w of work) w?.reduceTo(w.triangles * ratio);
  }

  let maxDeviation = 0, maxUncovered = 0;
  // One sampling allowance for the scene, shared by the meshes in proportion to their triangles.
  const total = scene.meshes.reduce((n, mesh) => n + mesh.indices.length / 3, 0);
  const meshes: SceneMesh[] = scene.meshes.map((mesh, m) => {
    const w = work[m];
    if (!w || w.triangles === mesh.indices.length / 3) return mesh;
    const simplified = w.result();
    if (simplified.indices.length === 0) {
      // Left out whole (smaller than the error): it counts its own size, not a distance to elsewhere.
      maxUncovered = Math.max(maxUncovered, extent(mesh) * scale[m]!);
      return simplified;
    }
    const samples = Math.max(MIN_SAMPLES, Math.round(opts.samples * (mesh.indices.length / 3) / total));
    const deviation = measureDeviation(mesh, simplified, { samples });
    maxDeviation = Math.max(maxDeviation, deviation.simplifiedToFull * scale[m]!);
    maxUncovered = Math.max(maxUncovered, deviation.fullToSimplified * scale[m]!);
    return simplified;
  });
  // A mesh pruned away entirely is drawn nowhere.
  const nodes = scene.nodes.map((n) => (n.meshes.some((m) => meshes[m]!.indices.length === 0) ? { ...n, meshes: n.meshes.filter((m) => meshes[m]!.indices.length > 0) } : n));
  const base = { nodes, meshes, materials: scene.materials, textures: scene.textures };
  return { scene: { ...scene, ...base, stats: sceneStats(base) }, error, maxDeviation, maxUncovered };
}

/** Diagonal of a mesh's own bounding box. */
function extent(mesh: SceneMesh): number {
  const { min, max } = pointBounds(mesh.positions);
  return Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
}

/** How many times each mesh is drawn, and the largest scale any of its nodes gives it (metres per mesh unit). */
function drawsOfMeshes(scene: SceneData): { uses: Uint32Array; scale: Float64Array } {
  const uses = new Uint32Array(scene.meshes.length);
  const scale = new Float64Array(scene.meshes.length);
  const world = worldMatrices(scene.nodes);
  scene.nodes.forEach((node, i) => {
    const w = world[i]!;
    const s = Math.max(Math.hypot(w[0]!, w[1]!, w[2]!), Math.hypot(w[4]!, w[5]!, w[6]!), Math.hypot(w[8]!, w[9]!, w[10]!));
    for (const m of node.meshes) {
      uses[m]!++;
      scale[m] = Math.max(scale[m]!, s);
    }
  });
  // Undrawn meshes are not simplified; a zero scale would divide by zero.
  for (let m = 0; m < scale.length; m++) if (!(scale[m]! > 0)) scale[m] = 1;
  return { uses, scale };
}
