import type { SceneData, SceneMesh } from '../scene/SceneData.js';
import { sceneStats, worldMatrices } from '../scene/sceneStats.js';
import { pointBounds } from '../scene/pointBounds.js';
import { MeshSimplification } from './MeshSimplification.js';
import type { SimplifiedScene, SimplifyToBudgetOptions } from './simplifyToBudget.js';

/** Parts smaller than this (m) may be left out whole when the budget needs it. */
const VANISH_BELOW_METRES = 0.5;

/** Every simplified mesh is sampled at least this much, however small. */
const MIN_SAMPLES = 200;

/**
 * A scene's meshes on their way down in detail together: one error bound in metres for all
 * (each mesh's in its own units, by the largest scale it is drawn at), counted as drawn.
 */
export class SceneSimplification {
  /** The model's diagonal (m): no error bound needs to exceed it. */
  readonly size: number;
  private readonly work: Array<MeshSimplification | undefined>;
  private readonly uses: Uint32Array;
  private readonly scale: Float64Array;

  constructor(private readonly scene: SceneData) {
    ({ uses: this.uses, scale: this.scale } = drawsOfMeshes(scene));
    this.size = Math.hypot(...scene.bounds.max.map((v, k) => v - scene.bounds.min[k]!));
    // Small parts (bolts, fixings: under half a metre and a thousandth of the model) may be simplified
    // away entirely; anything larger keeps a shape, however coarse.
    const vanishBelow = Math.min(VANISH_BELOW_METRES, this.size / 1000);
    this.work = scene.meshes.map((mesh, m) => (this.uses[m]! > 0 && mesh.indices.length > 0 ? new MeshSimplification(mesh, extent(mesh) * this.scale[m]! < vanishBelow) : undefined));
  }

  /** Triangles drawn now. */
  get drawn(): number {
    return this.work.reduce((n, w, m) => n + (w ? w.triangles * this.uses[m]! : 0), 0);
  }

  /** Every mesh simplified further at `error` metres. */
  round(error: number): void {
    this.work.forEach((w, m) => w?.tighten(error / this.scale[m]!));
  }

  /**
   * Rounds at a growing error until the triangles fit (or the error reaches the model's size), a
   * round that went far below the budget taken again between the last two bounds. Returns the
   * error of the last round kept.
   */
  fitError(opts: Pick<SimplifyToBudgetOptions, 'triangles' | 'firstError' | 'growth' | 'refinements'>): number {
    let error = opts.firstError, below = 0;
    while (this.drawn > opts.triangles && error < this.size) {
      this.work.forEach((w) => w?.mark());
      this.round(error);
      if (this.drawn <= opts.triangles) break;
      below = error;
      error *= opts.growth;
    }
    // So no more is lost than the budget asks.
    for (let step = 0; step < opts.refinements && this.drawn < opts.triangles * 0.9 && below > 0; step++) {
      const between = (below + error) / 2;
      this.work.forEach((w) => w?.rewind());
      this.round(between);
      if (this.drawn <= opts.triangles) {
        error = between;
        continue;
      }
      below = between;
      this.work.forEach((w) => w?.rewind());
      this.round(error);
    }
    return error;
  }

  /** Parts of every changed mesh that stray beyond `cap` metres kept finer (see {@link MeshSimplification.boundStray}). */
  boundStray(cap: number, error: number): void {
    this.work.forEach((w, m) => {
      if (w?.changed) w.boundStray(cap / this.scale[m]!, error / this.scale[m]!);
    });
  }

  /**
   * The last resort, whatever the error: every mesh keeps at most as many triangles per draw as
   * lets the drawn total fit, the most that does. Small meshes are kept whole and the largest
   * give up what the budget needs; in proportion, a rail's 5 km of track in 504 triangles, merged
   * beside 100 k of sleepers, came down to 2.
   */
  reduceToFit(triangles: number): void {
    const perDraw = this.trianglesPerDraw(triangles);
    for (const w of this.work) if (w && w.triangles > perDraw) w.reduceTo(perDraw);
  }

  /** The most triangles per draw for which every mesh's min(triangles, that) × draws totals at most `budget`. */
  private trianglesPerDraw(budget: number): number {
    const meshes = this.work.flatMap((w, m) => (w && this.uses[m]! > 0 ? [{ triangles: w.triangles, uses: this.uses[m]! }] : [])).sort((a, b) => a.triangles - b.triangles);
    let left = budget, draws = meshes.reduce((n, m) => n + m.uses, 0);
    for (const m of meshes) {
      // Every mesh from here on is at least this large: if all keep it, does it fit?
      if (m.triangles * draws > left) return left / draws;
      left -= m.triangles * m.uses;
      draws -= m.uses;
    }
    return Number.POSITIVE_INFINITY;
  }

  /** The delivered scene, and how far it strays from the full model each way. */
  deliver(samples: number, error: number): SimplifiedScene {
    const { scene, work, scale } = this;
    let maxDeviation = 0, maxUncovered = 0;
    // One sampling allowance for the scene, shared by the meshes in proportion to their triangles.
    const total = scene.meshes.reduce((n, mesh) => n + mesh.indices.length / 3, 0);
    const meshes: SceneMesh[] = scene.meshes.map((mesh, m) => {
      const w = work[m];
      if (!w?.changed) return mesh;
      const simplified = w.result();
      if (simplified.indices.length === 0) {
        // Left out whole (smaller than the error): it counts its own size, not a distance to elsewhere.
        maxUncovered = Math.max(maxUncovered, extent(mesh) * scale[m]!);
        return simplified;
      }
      maxDeviation = Math.max(maxDeviation, w.stray() * scale[m]!);
      const meshSamples = Math.max(MIN_SAMPLES, Math.round(samples * (mesh.indices.length / 3) / total));
      maxUncovered = Math.max(maxUncovered, w.uncovered(meshSamples) * scale[m]!);
      return simplified;
    });
    // A mesh pruned away entirely is drawn nowhere.
    const nodes = scene.nodes.map((n) => (n.meshes.some((m) => meshes[m]!.indices.length === 0) ? { ...n, meshes: n.meshes.filter((m) => meshes[m]!.indices.length > 0) } : n));
    const base = { nodes, meshes, materials: scene.materials, textures: scene.textures };
    return { scene: { ...scene, ...base, stats: sceneStats(base) }, error, maxDeviation, maxUncovered };
  }
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
