import type { Bounds } from '@arsession/geometry';
import type { SceneData, SceneMesh } from '../scene/SceneData.js';
import { sceneStats, worldMatrices } from '../scene/sceneStats.js';
import { pointBounds } from '../scene/pointBounds.js';
import { BUDGET_CATEGORIES, type BudgetCategory } from './BudgetCategory.js';
import { BOX_PROXY_TRIANGLES, boxProxy, TOP_PROXY_TRIANGLES, topProxy, type UpAxis } from './boxProxy.js';
import { ifcClassOfNode, meshCategories } from './meshCategories.js';
import { MeshSimplification } from './MeshSimplification.js';
import { proxyParts } from './proxyParts.js';
import { TwinMeshes } from './TwinMeshes.js';
import type { CategoryFigures } from './ArBudget.js';
import type { SimplifiedScene } from './SimplifiedScene.js';
import type { SimplifyToBudgetOptions } from './SimplifyToBudgetOptions.js';

/** Parts smaller than this (m) may be left out whole when the budget needs it. */
const VANISH_BELOW_METRES = 0.5;

/** Every simplified mesh is sampled at least this much, however small. */
const MIN_SAMPLES = 200;
/** Metres within which a delivered triangle lying on the full surface (or the other way) counts as on it: a tenth of a millimetre. */
const SETTLED_ON_SURFACE = 1e-4;

/**
 * Clutter is coarsened at an error relative to its own size, from this share of its diagonal
 * (half a centimetre on a chair: what curved parts tessellated finely give up unseen)...
 */
const CLUTTER_FIRST_SHARE = 0.005;

/** ...doubling up to this share (5 cm on a chair), past which a box says as much. */
const CLUTTER_LAST_SHARE = 0.04;

/** Clutter at most this large (m) may stand as a box: a chair, a cubicle, a shrub, not a 20 m duct run. */
const PROXY_MAX_METRES = 5;

/**
 * Clutter is boxed or left out only while it is at most this share of the model's size: a chair
 * in a restaurant is clutter, the chair that is the whole model (a GLB of one object) is not.
 */
const CLUTTER_MAX_SHARE_OF_MODEL = 0.25;

/**
 * The envelope's first error (m): what its triangles give up when nothing else is enough is only
 * what adds no shape (a door handle's facets); a wall, a slab, a pane has nothing to give at it.
 */
const ENVELOPE_NO_SHAPE_ERROR = 0.001;

/** What a mesh is drawn as once the budget took it out of simplification: its box, its box's top face, nothing. */
type StandIn = 'box' | 'top' | 'left_out';

/** Triangles of each stand-in, per box it is drawn as. */
const STAND_IN_TRIANGLES: Readonly<Record<StandIn, number>> = { box: BOX_PROXY_TRIANGLES, top: TOP_PROXY_TRIANGLES, left_out: 0 };

/**
 * A scene's meshes on their way down in detail together, counted as drawn, each in the order a
 * person misses it least: clutter (furniture, MEP, anything outside the envelope) coarsened at an
 * error relative to its own size, then drawn as boxes, then left out, and only then the envelope,
 * at one error bound in metres for all (each mesh's in its own units, by the largest scale it is
 * drawn at). Each step is a verb; `simplifyToBudget` says in which order they run.
 */
export class SceneSimplification {
  /** The model's diagonal (m): no error bound needs to exceed it. */
  readonly size: number;
  /** The budget category of each mesh. */
  readonly categories: readonly BudgetCategory[];
  private readonly work: Array<MeshSimplification | undefined>;
  private readonly standIn: Array<StandIn | undefined>;
  private readonly uses: Uint32Array;
  private readonly scale: Float64Array;
  /** Which axis of each mesh's own frame is drawn upwards (at the first node that draws it). */
  private readonly up: UpAxis[];
  /** Diagonal of each mesh's own box, in its own units. */
  private readonly extent: Float64Array;
  /** The boxes each mesh stands as (see `proxyParts`), found the first time they are asked for. */
  private readonly parts: Array<Bounds[] | undefined>;

  constructor(private readonly scene: SceneData) {
    ({ uses: this.uses, scale: this.scale, up: this.up } = drawsOfMeshes(scene));
    this.size = Math.hypot(...scene.bounds.max.map((v, k) => v - scene.bounds.min[k]!));
    this.extent = Float64Array.from(scene.meshes, extent);
    this.categories = meshCategories(scene, this.scale);
    // Small parts (bolts, fixings: under half a metre and a thousandth of the model) may be simplified
    // away entirely; anything larger keeps a shape, however coarse.
    const vanishBelow = Math.min(VANISH_BELOW_METRES, this.size / 1000);
    this.work = scene.meshes.map((mesh, m) =>
      this.uses[m]! > 0 && mesh.indices.length > 0
        ? new MeshSimplification(mesh, this.extent[m]! * this.scale[m]! < vanishBelow)
        : undefined,
    );
    this.standIn = scene.meshes.map(() => undefined);
    this.parts = scene.meshes.map(() => undefined);
  }

  /** Triangles drawn now. */
  get drawn(): number {
    let n = 0;
    for (let m = 0; m < this.work.length; m++) n += this.trianglesOf(m) * this.uses[m]!;
    return n;
  }

  /** Triangles mesh `m` has now (0 left out). */
  private trianglesOf(m: number): number {
    const standIn = this.standIn[m];
    if (standIn) return this.standInTriangles(m, standIn);
    return this.work[m]?.triangles ?? this.scene.meshes[m]!.indices.length / 3;
  }

  /** Triangles mesh `m` would have standing as `standIn`: as many boxes as it has parts far apart. */
  private standInTriangles(m: number, standIn: StandIn): number {
    return standIn === 'left_out' ? 0 : STAND_IN_TRIANGLES[standIn] * this.partsOf(m).length;
  }

  /** The boxes mesh `m` stands as. */
  private partsOf(m: number): Bounds[] {
    this.parts[m] ??= proxyParts(this.scene.meshes[m]!);
    return this.parts[m];
  }

  /** Diagonal of mesh `m` in metres, at the largest scale it is drawn at. */
  private sizeOf(m: number): number {
    return this.extent[m]! * this.scale[m]!;
  }

  /** Whether mesh `m` is small enough to stand as a box: see {@link PROXY_MAX_METRES} and {@link CLUTTER_MAX_SHARE_OF_MODEL}. */
  private boxable(m: number): boolean {
    return this.sizeOf(m) <= Math.min(PROXY_MAX_METRES, this.size * CLUTTER_MAX_SHARE_OF_MODEL);
  }

  /** Meshes still simplified (not standing in) outside the envelope. */
  private clutter(): number[] {
    return this.work.flatMap((w, m) => (w && !this.standIn[m] && this.categories[m] !== 'envelope' ? [m] : []));
  }

  /** Mesh `m` simplified further at `error` metres. */
  private tighten(m: number, error: number): void {
    this.work[m]!.tighten(error / this.scale[m]!);
  }

  /** Every mesh still simplified (clutter and envelope alike) further at `error` metres. */
  round(error: number): void {
    this.work.forEach((w, m) => {
      if (w && !this.standIn[m]) this.tighten(m, error);
    });
  }

  /**
   * The envelope's triangles that add no shape taken: every envelope mesh simplified at
   * {@link ENVELOPE_NO_SHAPE_ERROR}, planar faces staying planar.
   */
  envelopeWithoutShape(): void {
    this.work.forEach((w, m) => {
      if (w && !this.standIn[m] && this.categories[m] === 'envelope') this.tighten(m, ENVELOPE_NO_SHAPE_ERROR);
    });
  }

  /**
   * Clutter coarsened, the envelope untouched: each mesh outside it simplified at a growing share
   * of its own size (never below `firstError`), until the triangles fit or the share reaches
   * {@link CLUTTER_LAST_SHARE}; then each one that strays more than a few times its error along a
   * chord kept finer, as {@link boundStray} does for all. Clutter larger than a box may be is
   * coarsened as if it were that size (a share of a 20 m duct run's length would be no error at
   * all); what more it must give, it gives with the envelope, at one error in metres for all.
   */
  coarsenClutter(opts: Pick<SimplifyToBudgetOptions, 'triangles' | 'firstError' | 'maxDeviation'>, strayPerError: number): void {
    const clutter = this.clutter();
    if (clutter.length === 0) return;
    const errorAt = (m: number, share: number) => Math.max(opts.firstError, share * Math.min(this.sizeOf(m), PROXY_MAX_METRES));
    let share = CLUTTER_FIRST_SHARE;
    for (;;) {
      for (const m of clutter) this.tighten(m, errorAt(m, share));
      if (this.drawn <= opts.triangles || share >= CLUTTER_LAST_SHARE) break;
      share *= 2;
    }
    // Each was last simplified at the final share's error.
    for (const m of clutter) {
      const w = this.work[m]!;
      if (!w.changed) continue;
      const error = errorAt(m, share) / this.scale[m]!;
      w.boundStray(Math.max(opts.maxDeviation / this.scale[m]!, strayPerError * error), error);
    }
  }

  /**
   * Clutter up to {@link PROXY_MAX_METRES} across drawn as boxes ({@link boxProxy}), the one whose
   * box saves the most drawn triangles first, until the triangles fit; if all those boxes are still
   * too many, boxes drawn as their top face ({@link topProxy}), the most drawn first.
   */
  proxyClutter(triangles: number): void {
    const saving = (m: number, to: StandIn) => (this.trianglesOf(m) - this.standInTriangles(m, to)) * this.uses[m]!;
    const candidates = this.clutter()
      .filter((m) => this.boxable(m) && saving(m, 'box') > 0)
      .sort((a, b) => saving(b, 'box') - saving(a, 'box') || a - b);
    let drawn = this.drawn;
    for (const to of ['box', 'top'] as const) {
      const from =
        to === 'box'
          ? candidates
          : this.standIn.flatMap((s, m) => (s === 'box' ? [m] : [])).sort((a, b) => saving(b, 'top') - saving(a, 'top') || a - b);
      for (const m of from) {
        if (drawn <= triangles) return;
        drawn -= saving(m, to);
        this.standIn[m] = to;
      }
    }
  }

  /** Clutter (as it stands, boxes included) left out, the smallest first, until the triangles fit. */
  leaveOutClutter(triangles: number): void {
    const small = (m: number) => this.sizeOf(m) <= this.size * CLUTTER_MAX_SHARE_OF_MODEL;
    const candidates = this.work.flatMap((w, m) =>
      w && this.standIn[m] !== 'left_out' && this.categories[m] !== 'envelope' && small(m) ? [m] : [],
    );
    candidates.sort((a, b) => this.sizeOf(a) - this.sizeOf(b) || a - b);
    let drawn = this.drawn;
    for (const m of candidates) {
      if (drawn <= triangles) return;
      drawn -= this.trianglesOf(m) * this.uses[m]!;
      this.standIn[m] = 'left_out';
    }
  }

  /**
   * Rounds at a growing error until the triangles fit (or the error reaches the model's size), a
   * round that went far below the budget taken again between the last two bounds. Returns the
   * error of the last round kept.
   */
  fitError(opts: Pick<SimplifyToBudgetOptions, 'triangles' | 'firstError' | 'growth' | 'refinements'>): number {
    const active = () => this.work.filter((w, m): w is MeshSimplification => w !== undefined && !this.standIn[m]);
    let error = opts.firstError,
      below = 0;
    while (this.drawn > opts.triangles && error < this.size) {
      for (const w of active()) w.mark();
      this.round(error);
      if (this.drawn <= opts.triangles) break;
      below = error;
      error *= opts.growth;
    }
    // So no more is lost than the budget asks.
    for (let step = 0; step < opts.refinements && this.drawn < opts.triangles * 0.9 && below > 0; step++) {
      const between = (below + error) / 2;
      for (const w of active()) w.rewind();
      this.round(between);
      if (this.drawn <= opts.triangles) {
        error = between;
        continue;
      }
      below = between;
      for (const w of active()) w.rewind();
      this.round(error);
    }
    return error;
  }

  /** Parts of every changed mesh that stray beyond `cap` metres kept finer (see {@link MeshSimplification.boundStray}). */
  boundStray(cap: number, error: number): void {
    this.work.forEach((w, m) => {
      if (w?.changed && !this.standIn[m]) w.boundStray(cap / this.scale[m]!, error / this.scale[m]!);
    });
  }

  /**
   * The last resort, whatever the error: every mesh keeps at most as many triangles per draw as
   * lets the drawn total fit, the most that does. Small meshes are kept whole and the largest
   * give up what the budget needs; in proportion, a rail's 5 km of track in 504 triangles, merged
   * beside 100 k of sleepers, came down to 2.
   */
  reduceToFit(triangles: number): void {
    const standing = this.work.reduce((n, _, m) => n + (this.standIn[m] ? this.trianglesOf(m) * this.uses[m]! : 0), 0);
    const perDraw = this.trianglesPerDraw(triangles - standing);
    this.work.forEach((w, m) => {
      if (w && !this.standIn[m] && w.triangles > perDraw) w.reduceTo(perDraw);
    });
  }

  /** The most triangles per draw for which every mesh's min(triangles, that) × draws totals at most `budget`. */
  private trianglesPerDraw(budget: number): number {
    const meshes = this.work
      .flatMap((w, m) => (w && !this.standIn[m] && this.uses[m]! > 0 ? [{ triangles: w.triangles, uses: this.uses[m]! }] : []))
      .sort((a, b) => a.triangles - b.triangles);
    let left = budget,
      draws = meshes.reduce((n, m) => n + m.uses, 0);
    for (const m of meshes) {
      // Every mesh from here on is at least this large: if all keep it, does it fit?
      if (m.triangles * draws > left) return Math.max(0, left) / draws;
      left -= m.triangles * m.uses;
      draws -= m.uses;
    }
    return Number.POSITIVE_INFINITY;
  }

  /**
   * Simplified meshes given back whole while the drawn total stays within `triangles`: the room
   * the rounds left under the budget spent on delivering meshes exactly as read. The envelope
   * comes back before the rest and, within each, first the mesh whose simplification saved the
   * fewest drawn triangles for each triangle the measurement must bound: a one-off façade piece
   * of a thousand triangles that saved 300 before a window type drawn 66 times that saved 44 each.
   * A mesh delivered as read costs no measurement (ISSUE_021: 95 meshes back whole, half of the
   * measurement spared).
   */
  restoreWithin(triangles: number): void {
    let room = triangles - this.drawn;
    if (room <= 0) return;
    const full = (m: number) => this.scene.meshes[m]!.indices.length / 3;
    const saved = (m: number) => (full(m) - this.work[m]!.triangles) * this.uses[m]!;
    const savedPerBounded = (m: number) => saved(m) / (full(m) + this.work[m]!.triangles);
    const envelopeFirst = (m: number) => (this.categories[m] === 'envelope' ? 0 : 1);
    const changed = this.work.flatMap((w, m) => (w?.changed && !this.standIn[m] ? [m] : []));
    changed.sort((a, b) => envelopeFirst(a) - envelopeFirst(b) || savedPerBounded(a) - savedPerBounded(b) || a - b);
    for (const m of changed) {
      const back = saved(m);
      if (back > room) continue;
      this.work[m]!.restore();
      room -= back;
    }
  }

  /** The delivered scene, how far it strays from the full model each way, and what each category gave. */
  deliver(samples: number, error: number): SimplifiedScene {
    const { scene, work, scale } = this;
    const figures = new CategoryLedger();
    const measured: Array<{ sampled: number; measure: () => void }> = [];
    // A shape repeated at many places (each window of a type its own geometry) is measured once.
    const twins = new TwinMeshes<{ scale: number; deviation: number; uncovered: number }>(SETTLED_ON_SURFACE);
    // One sampling allowance for the scene, shared by the meshes in proportion to their triangles.
    const total = scene.meshes.reduce((n, mesh) => n + mesh.indices.length / 3, 0);
    const meshes: SceneMesh[] = scene.meshes.map((mesh, m) => {
      const w = work[m],
        standIn = this.standIn[m],
        category = this.categories[m]!,
        size = this.sizeOf(m);
      const delivered =
        standIn === 'left_out'
          ? { ...mesh, indices: new Uint32Array(0) }
          : standIn === 'box'
            ? boxProxy(mesh, this.partsOf(m))
            : standIn === 'top'
              ? topProxy(mesh, this.up[m]!, this.partsOf(m))
              : w?.changed
                ? w.result()
                : mesh;
      figures.count(category, mesh.indices.length / 3, delivered.indices.length / 3, this.uses[m]!);
      if (!w || (!w.changed && !standIn)) return delivered;
      if (standIn === 'box') {
        // Each part touches every face of its box and lies inside it: a point of a box is within
        // its face's diagonal of the part, a point of the part within half the thinnest side of its box.
        for (const part of this.partsOf(m)) {
          const [thinnest, middle, longest] = boxSides(part);
          figures.strayed(category, Math.hypot(middle, longest) * scale[m]!, (thinnest / 2) * scale[m]!);
        }
      } else if (standIn === 'top') {
        // Each part touches its box's top face, and lies within the box: a point of the face is
        // within the face's diagonal of the part, a point of the part within the box's diagonal of the face.
        for (const part of this.partsOf(m)) {
          const sides = [0, 1, 2].filter((k) => k !== this.up[m]!.axis).map((k) => part.max[k]! - part.min[k]!);
          figures.strayed(category, Math.hypot(...sides) * scale[m]!, Math.hypot(...boxSides(part)) * scale[m]!);
        }
      } else if (delivered.indices.length === 0) {
        // Left out whole (smaller than the error, or by the budget): it counts its own size, not a distance to elsewhere.
        figures.strayed(category, 0, size);
      } else {
        // Measured once every stand-in has counted: a category's farthest so far spares refining
        // what cannot change it.
        const meshSamples = Math.max(MIN_SAMPLES, Math.round((samples * (mesh.indices.length / 3)) / total));
        measured.push({
          sampled: w.sampledStray * scale[m]!,
          measure: () => {
            const s = scale[m]!,
              versions = { source: mesh, delivered };
            const twin = twins.find(versions);
            if (twin && twin.measured.scale === s) {
              figures.strayed(category, twin.measured.deviation + 2 * twin.drift * s, twin.measured.uncovered + 2 * twin.drift * s);
              return;
            }
            const sofar = figures.farthest(category);
            const measuredHere = {
              scale: s,
              deviation: w.stray(sofar.deviation / s, SETTLED_ON_SURFACE / s) * s,
              uncovered: w.uncovered(meshSamples, sofar.uncovered / s, SETTLED_ON_SURFACE / s) * s,
            };
            twins.add(versions, measuredHere);
            figures.strayed(category, measuredHere.deviation, measuredHere.uncovered);
          },
        });
      }
      return delivered;
    });
    // Those sampled farthest first: a category's farthest is met early, and the rest settle under it.
    measured.sort((a, b) => b.sampled - a.sampled);
    for (const { measure } of measured) measure();
    // A mesh left out entirely is drawn nowhere; the elements that drew only such meshes are named.
    const elements = new Map<string, { category: BudgetCategory; ifcClass: string; drew: boolean; drawn: boolean; boxed: boolean }>();
    scene.nodes.forEach((n, i) => {
      if (n.meshes.length === 0) return;
      const key = elementKey(scene, i);
      const e = elements.get(key) ?? {
        category: this.categories[n.meshes[0]!]!,
        ifcClass: ifcClassOfNode(scene.nodes, i) ?? 'mesh',
        drew: false,
        drawn: false,
        boxed: false,
      };
      for (const m of n.meshes) {
        e.drew ||= scene.meshes[m]!.indices.length > 0;
        e.drawn ||= meshes[m]!.indices.length > 0;
        e.boxed ||= this.standIn[m] === 'box' || this.standIn[m] === 'top';
      }
      elements.set(key, e);
    });
    for (const e of elements.values()) {
      if (e.drew && !e.drawn) figures.leftOut(e.category, e.ifcClass);
      else if (e.boxed) figures.proxied(e.category);
    }
    const nodes = scene.nodes.map((n) =>
      n.meshes.some((m) => meshes[m]!.indices.length === 0) ? { ...n, meshes: n.meshes.filter((m) => meshes[m]!.indices.length > 0) } : n,
    );
    const base = { nodes, meshes, materials: scene.materials, textures: scene.textures };
    const categories = figures.result();
    return {
      scene: { ...scene, ...base, stats: sceneStats(base) },
      error,
      maxDeviation: Math.max(0, ...categories.map((c) => c.maxDeviation)),
      maxUncovered: Math.max(0, ...categories.map((c) => c.maxUncovered)),
      categories,
    };
  }
}

/**
 * What each budget category gave up, gathered mesh by mesh as a scene is delivered: triangles
 * drawn before and after, the farthest each way, and the elements drawn as boxes or left out.
 */
class CategoryLedger {
  private readonly rows = new Map<BudgetCategory, CategoryFigures & { leftOutByClass: Map<string, number> }>();

  private row(category: BudgetCategory) {
    let row = this.rows.get(category);
    if (!row) {
      row = {
        category,
        sourceTriangles: 0,
        deliveredTriangles: 0,
        maxDeviation: 0,
        maxUncovered: 0,
        proxiedElements: 0,
        leftOut: [],
        leftOutByClass: new Map(),
      };
      this.rows.set(category, row);
    }
    return row;
  }

  count(category: BudgetCategory, source: number, delivered: number, draws: number): void {
    const row = this.row(category);
    row.sourceTriangles += source * draws;
    row.deliveredTriangles += delivered * draws;
  }

  strayed(category: BudgetCategory, deviation: number, uncovered: number): void {
    const row = this.row(category);
    row.maxDeviation = Math.max(row.maxDeviation, deviation);
    row.maxUncovered = Math.max(row.maxUncovered, uncovered);
  }

  /** The farthest each way counted for a category so far. */
  farthest(category: BudgetCategory): { deviation: number; uncovered: number } {
    const row = this.row(category);
    return { deviation: row.maxDeviation, uncovered: row.maxUncovered };
  }

  /** One element drawn as a box (or its top face). */
  proxied(category: BudgetCategory): void {
    this.row(category).proxiedElements++;
  }

  /** One element left out whole. */
  leftOut(category: BudgetCategory, ifcClass: string): void {
    const byClass = this.row(category).leftOutByClass;
    byClass.set(ifcClass, (byClass.get(ifcClass) ?? 0) + 1);
  }

  /** One row per category the scene draws, envelope first. */
  result(): CategoryFigures[] {
    return BUDGET_CATEGORIES.flatMap((c) => {
      const row = this.rows.get(c);
      if (!row) return [];
      const { leftOutByClass, ...figures } = row;
      const leftOut = [...leftOutByClass]
        .map(([ifcClass, elements]) => ({ ifcClass, elements }))
        .sort((a, b) => b.elements - a.elements || a.ifcClass.localeCompare(b.ifcClass));
      return [{ ...figures, leftOut }];
    });
  }
}

/** What names an element: its GlobalId, the product it places, else the node itself. */
function elementKey(scene: SceneData, node: number): string {
  for (let n = node; n >= 0; n = scene.nodes[n]!.parent) {
    const meta = scene.nodes[n]!.metadata;
    const key = meta.globalId || meta.product;
    if (key) return key;
    if (meta.ifcClass) break;
  }
  return `node ${node}`;
}

/** Diagonal of a mesh's own bounding box. */
function extent(mesh: SceneMesh): number {
  const { min, max } = pointBounds(mesh.positions);
  return Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
}

/** The sides of a box, shortest first. */
function boxSides({ min, max }: Bounds): [number, number, number] {
  return [max[0] - min[0], max[1] - min[1], max[2] - min[2]].sort((a, b) => a - b) as [number, number, number];
}

/**
 * How many times each mesh is drawn, the largest scale any of its nodes gives it (metres per mesh
 * unit), and which axis of its own frame the first of them draws upwards (world +Y, Y-up).
 */
function drawsOfMeshes(scene: SceneData): { uses: Uint32Array; scale: Float64Array; up: UpAxis[] } {
  const uses = new Uint32Array(scene.meshes.length);
  const scale = new Float64Array(scene.meshes.length);
  const up: UpAxis[] = scene.meshes.map(() => ({ axis: 1, side: 1 }));
  const world = worldMatrices(scene.nodes);
  scene.nodes.forEach((node, i) => {
    const w = world[i]!;
    const s = Math.max(Math.hypot(w[0]!, w[1]!, w[2]!), Math.hypot(w[4]!, w[5]!, w[6]!), Math.hypot(w[8]!, w[9]!, w[10]!));
    // The local axis whose image leans most towards world +Y, or away from it.
    const lean = [0, 1, 2].map((k) => w[k * 4 + 1]! / (Math.hypot(w[k * 4]!, w[k * 4 + 1]!, w[k * 4 + 2]!) || 1));
    const axis = [0, 1, 2].reduce((best, k) => (Math.abs(lean[k]!) > Math.abs(lean[best]!) ? k : best), 1) as 0 | 1 | 2;
    for (const m of node.meshes) {
      if (uses[m] === 0) up[m] = { axis, side: lean[axis]! >= 0 ? 1 : 0 };
      uses[m]!++;
      scale[m] = Math.max(scale[m]!, s);
    }
  });
  // Undrawn meshes are not simplified; a zero scale would divide by zero.
  for (let m = 0; m < scale.length; m++) if (!(scale[m]! > 0)) scale[m] = 1;
  return { uses, scale, up };
}
