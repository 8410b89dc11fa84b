import type { Bounds, TriangleMesh } from '@arsession/geometry';
import type { SceneData, SceneMesh } from '../scene/SceneData.js';
import { sceneStats, worldMatrices } from '../scene/sceneStats.js';
import { meshArea } from '../scene/meshArea.js';
import { pointBounds } from '../scene/pointBounds.js';
import { BUDGET_CATEGORIES, type BudgetCategory } from './BudgetCategory.js';
import {
  BOX_PROXY_TRIANGLES,
  boxProxy,
  opensThrough,
  RIM_PROXY_TRIANGLES,
  rimProxy,
  SHEET_PROXY_TRIANGLES,
  sheetProxy,
  TOP_PROXY_TRIANGLES,
  thinnestAxis,
  topProxy,
  type UpAxis,
} from './boxProxy.js';
import { type Companion, drawnTogether } from './drawnTogether.js';
import { elementKey } from './elementKey.js';
import { type ElementGroup, elementGroups } from './elementGroups.js';
import { groupLayers } from './groupLayers.js';
import { type EnvelopeRole, envelopeRoles } from './envelopeDetail.js';
import { standInReach } from './measureStandIn.js';
import { type DetailStandIns, measureStandIns } from './measureStandIns.js';
import { ifcClassOfNode, meshCategories } from './meshCategories.js';
import { MeshSimplification } from './MeshSimplification.js';
import { type PlateFaces, plateFaces } from './plateFaces.js';
import { proxyParts } from './proxyParts.js';
import { contentKey, SameShapes } from './SameShapes.js';
import { SeeThroughMaterials } from './SeeThroughMaterials.js';
import { TwinMeshes } from './TwinMeshes.js';
import type { CategoryFigures, MeshStray } from './ArBudget.js';
import type { SimplifiedScene } from './SimplifiedScene.js';
import type { SimplifyToBudgetOptions } from './SimplifyToBudgetOptions.js';
import { SIMPLIFICATION_POLICY_DEFAULTS, type SimplificationPolicy } from './SimplificationPolicy.js';

/** Every simplified mesh is sampled at least this much, however small. */
const MIN_SAMPLES = 200;
/** Metres within which a delivered triangle lying on the full surface (or the other way) counts as on it: a tenth of a millimetre. */
const SETTLED_ON_SURFACE = 1e-4;

/** The fewest-triangle form within `distance`, else the first (as read). */
function cheapestOf<F extends { triangles: number; reach: number }>(forms: readonly F[], distance: number): F {
  return forms.reduce((best, f) => (f.reach <= distance && f.triangles < best.triangles ? f : best), forms[0]!);
}

/**
 * What a mesh is drawn as once the budget took it out of simplification: its box, its box's top
 * face, its box's mid-plane or that plane round its opening (envelope detail), nothing, or
 * nothing of its own because its group's stand-in covers it (`covered`, see `elementGroups`).
 */
type StandIn = 'box' | 'top' | 'sheet' | 'rim' | 'left_out' | 'covered';

/** The stand-ins envelope detail may have. */
type DetailStandIn = 'box' | 'sheet' | 'rim';

/** The forms envelope detail may be delivered in (see `SceneSimplification.fitDetail`). */
type DetailForm = 'as_read' | 'simplified' | DetailStandIn | 'left_out';

/** Triangles of each stand-in, per box it is drawn as. */
const STAND_IN_TRIANGLES: Readonly<Record<StandIn, number>> = {
  box: BOX_PROXY_TRIANGLES,
  top: TOP_PROXY_TRIANGLES,
  sheet: SHEET_PROXY_TRIANGLES,
  rim: RIM_PROXY_TRIANGLES,
  left_out: 0,
  covered: 0,
};

/** One way a unit of the envelope (a detail mesh, an element's group, the shape) may be delivered: triangles per draw, reach, choice. */
interface UnitForm {
  triangles: number;
  /** How far (m) it and the element lie apart, either way. */
  reach: number;
  apply: () => void;
}

/** An element group standing as one (see `elementGroups`): its union in the lead's frame, the boxes it stands as, measured. */
interface GroupStandIn {
  union: SceneMesh;
  parts: Bounds[];
  measured: DetailStandIns;
}

/**
 * A scene's meshes on their way down in detail together, counted as drawn, each in the order a
 * person misses it least (after `envelopeWithoutShape`, which `simplifyToBudget` runs first):
 * clutter (furniture, MEP, anything outside the envelope) coarsened at an
 * error relative to its own size, then drawn as boxes, then left out, and only then the envelope,
 * at one error bound in metres for all (each mesh's in its own units, by the largest scale it is
 * drawn at). Each step is a verb; `simplifyToBudget` says in which order they run.
 */
export class SceneSimplification {
  /** The model's diagonal (m): no error bound needs to exceed it. */
  readonly size: number;
  /** The budget category of each mesh. */
  readonly categories: readonly BudgetCategory[];
  /** Which envelope meshes are the building's shape and which are detail on it (see `envelopeRoles`). */
  private readonly roles: Array<EnvelopeRole | undefined>;
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
  /** Envelope detail simplified, measured the first time it is asked for (see `simplifiedDetail`). */
  private readonly simplifiedDetails = new Map<number, { triangles: number; reach: number } | undefined>();
  /** Thin walls, slabs and roofs as their faces (see `plateForm`), found the first time they are asked for. */
  private readonly plates = new Map<number, PlateFaces | undefined>();
  /** The same, by the shape simplified and the scale it is drawn at. */
  private readonly simplifiedByShape = new SameShapes<{ scale: number; found: { triangles: number; reach: number } | undefined }>();
  /** Envelope detail's stand-ins, measured the first time they are asked for (see `detailStandIn`). */
  private readonly measuredStandIns = new Map<number, DetailStandIns>();
  /** The same, by the shape measured: a mesh and the surface it was measured against, byte for byte. */
  private readonly standInsByShape = new SameShapes<DetailStandIns>();
  /** The meshes each envelope detail mesh is drawn with (see `drawnTogether`), found the first time they are asked for. */
  private drawnWith: Map<number, Companion[]> | undefined;
  /** Groups standing as one, by lead (see `elementGroups`). */
  private readonly grouped = new Map<number, GroupStandIn>();
  /** The lead of the group each covered mesh stands in (see `standingForms`). */
  private readonly coveredBy = new Map<number, number>();
  /** Each group's (or layer's) union and stand-ins, by its meshes, made the first time they are asked for (see `groupStandIn`). */
  private readonly groupStandIns = new Map<string, GroupStandIn>();

  constructor(
    private readonly scene: SceneData,
    private readonly policy: SimplificationPolicy = SIMPLIFICATION_POLICY_DEFAULTS,
  ) {
    ({ uses: this.uses, scale: this.scale, up: this.up } = drawsOfMeshes(scene));
    this.size = Math.hypot(...scene.bounds.max.map((v, k) => v - scene.bounds.min[k]!));
    this.extent = Float64Array.from(scene.meshes, extent);
    this.categories = meshCategories(scene, this.scale);
    this.roles = envelopeRoles(scene, this.categories);
    // Small parts (bolts, fixings: under half a metre and a thousandth of the model) may be simplified
    // away entirely; anything larger keeps a shape, however coarse.
    const vanishBelow = Math.min(this.policy.vanishBelow, this.size / 1000);
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
    if (standIn === 'left_out' || standIn === 'covered') return 0;
    return STAND_IN_TRIANGLES[standIn] * (this.grouped.get(m)?.parts ?? this.partsOf(m)).length;
  }

  /** The boxes mesh `m` stands as. */
  private partsOf(m: number): Bounds[] {
    this.parts[m] ??= proxyParts(this.scene.meshes[m]!, this.isDetail(m) ? { hollowShare: this.policy.detailHollowShare } : {});
    return this.parts[m];
  }

  /** Diagonal of mesh `m` in metres, at the largest scale it is drawn at. */
  private sizeOf(m: number): number {
    return this.extent[m]! * this.scale[m]!;
  }

  /** Whether mesh `m` is small beside the model (`policy.clutterMaxShareOfModel`): as clutter, it may be left out. */
  private isSmall(m: number): boolean {
    return this.sizeOf(m) <= this.size * this.policy.clutterMaxShareOfModel;
  }

  /** Triangles the envelope draws now. */
  private get envelopeDrawn(): number {
    let n = 0;
    for (let m = 0; m < this.work.length; m++) if (this.categories[m] === 'envelope') n += this.trianglesOf(m) * this.uses[m]!;
    return n;
  }

  /** Whether mesh `m` is small enough to stand as a box: see `policy.proxyMaxSize` and `policy.clutterMaxShareOfModel`. */
  private boxable(m: number): boolean {
    return this.sizeOf(m) <= Math.min(this.policy.proxyMaxSize, this.size * this.policy.clutterMaxShareOfModel);
  }

  /** Meshes still simplified (not standing in) outside the envelope. */
  private clutter(): number[] {
    return this.work.flatMap((w, m) => (w && !this.standIn[m] && this.categories[m] !== 'envelope' ? [m] : []));
  }

  /** Whether mesh `m` is the building's shape by its IFC class (a wall, a slab, a roof). */
  private isShape(m: number): boolean {
    return this.roles[m] === 'shape';
  }

  /** Whether mesh `m` is detail on the building's shape by its IFC class (a door, a window, a member). */
  private isDetail(m: number): boolean {
    return this.roles[m] === 'detail';
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
   * `policy.envelopeNoShapeError`, planar faces staying planar.
   */
  envelopeWithoutShape(): void {
    this.work.forEach((w, m) => {
      if (w && !this.standIn[m] && this.categories[m] === 'envelope') this.tighten(m, this.policy.envelopeNoShapeError);
    });
  }

  /**
   * Clutter coarsened, the envelope untouched: each mesh outside it simplified at a growing share
   * of its own size (never below `firstError`), until the triangles fit or the share reaches
   * `policy.clutterLastShare`; then each one that strays more than a few times its error along a
   * chord kept finer, as {@link boundStray} does for all. Clutter larger than a box may be is
   * coarsened as if it were that size (a share of a 20 m duct run's length would be no error at
   * all); what more it must give, it gives with the envelope, at one error in metres for all.
   * With the envelope alone over the triangles, only clutter too large to be left out is coarsened.
   */
  coarsenClutter(opts: Pick<SimplifyToBudgetOptions, 'triangles' | 'firstError' | 'maxDeviation'>, strayPerError: number): void {
    // With the envelope alone over the triangles, every small piece of clutter will be left out
    // (`leaveOutClutter` runs until they fit, and they never do): coarsening it is work thrown away.
    const clutter = this.envelopeDrawn > opts.triangles ? this.clutter().filter((m) => !this.isSmall(m)) : this.clutter();
    if (clutter.length === 0) return;
    const errorAt = (m: number, share: number) => Math.max(opts.firstError, share * Math.min(this.sizeOf(m), this.policy.proxyMaxSize));
    let share = this.policy.clutterFirstShare;
    for (;;) {
      for (const m of clutter) this.tighten(m, errorAt(m, share));
      if (this.drawn <= opts.triangles || share >= this.policy.clutterLastShare) break;
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
   * The envelope's elements named by IFC class (walls, slabs, roofs and their detail) given back
   * as read, once its rounds within `maxDeviation` were not enough: from there on each is
   * delivered as read, stood in for (detail) or left out (detail), not simplified, whose figures a
   * simplification would make large (thin parts collapse within a small error: a wall's 6 mm jamb
   * beside an opening goes, and its 2.4 m height with it).
   */
  restoreEnvelope(): void {
    this.work.forEach((w, m) => {
      if (!w || this.standIn[m] || !this.roles[m]) return;
      if (w.changed) w.restore();
      // Should the shape have to give after all, it gives no part whole.
      if (this.isShape(m)) w.keepEveryPart();
    });
  }

  /** Whether any envelope mesh is detail by its IFC class, still drawn as read or simplified. */
  get hasDetail(): boolean {
    return this.work.some((w, m) => w && !this.standIn[m] && this.isDetail(m));
  }

  /**
   * Clutter up to `policy.proxyMaxSize` across drawn as boxes ({@link boxProxy}), the one whose
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
    const candidates = this.work.flatMap((w, m) =>
      w && this.standIn[m] !== 'left_out' && this.categories[m] !== 'envelope' && this.isSmall(m) ? [m] : [],
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
   * Envelope detail brought within what the triangles leave it, the farthest any element lies
   * from its full self as small as it can be: each mesh as read, as a stand-in (the sheet through
   * each part's box, that sheet round the frame's opening, or the box: see `detailStandIn`) or
   * left out (named; it counts its own size), or an element's meshes standing as one (see
   * `elementGroups`); and each wall, slab and roof as read or simplified within a few centimetres
   * (`shapeForms`): the cheapest of each that lies within one distance, the least distance for
   * which the total fits. Then, the farthest first, each is given the nearest form the room left
   * allows. Walls, slabs and roofs are never stood in for or left out; returns whether the
   * triangles fit.
   */
  fitDetail(triangles: number): boolean {
    const detail = this.work.flatMap((w, m) => (w && !this.standIn[m] && this.isDetail(m) ? [m] : []));
    this.drawnWith ??= drawnTogether(this.scene, (k) => this.isDetail(k));
    const groups = elementGroups(this.drawnWith, this.uses, detail);
    const grouped = new Set(groups.flatMap((g) => [g.lead, ...g.members]));
    const units = [...groups, ...detail.filter((m) => !grouped.has(m)).map((lead) => ({ lead, members: [] }))];
    const shape = this.work.flatMap((w, m) => (w && !this.standIn[m] && this.isShape(m) ? [m] : []));
    // What the rest draws: the drawn total less the detail and the shape as they stand now.
    const fixed = this.drawn - [...detail, ...shape].reduce((n, m) => n + this.trianglesOf(m) * this.uses[m]!, 0);
    const forms = units.map((u) => (u.members.length === 0 ? this.meshForms(u.lead) : this.groupForms(u)));
    const uses = units.map((u) => this.uses[u.lead]!);
    // Each wall, slab and roof a unit too: simplified only as far as detail is stood in for, and
    // only those that lie near at a coarser level take it (a flat wall gives, a curved one keeps).
    for (const m of shape) {
      forms.push(this.shapeForms(m));
      uses.push(this.uses[m]!);
    }
    const cheapestWithin = (i: number, distance: number) => cheapestOf(forms[i]!, distance);
    const total = (distance: number) => forms.reduce((n, _, i) => n + cheapestWithin(i, distance).triangles * uses[i]!, fixed);
    const reaches = [...new Set(forms.flatMap((f) => f.map((o) => o.reach)))].sort((a, b) => a - b);
    // The least distance at which the cheapest forms fit (total falls as the distance grows).
    let lo = 0,
      hi = reaches.length - 1;
    if (reaches.length === 0) return false;
    // Even the cheapest forms too many: those, so the building's shape keeps what room there is.
    if (total(reaches[hi]!) > triangles) lo = hi;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (total(reaches[mid]!) <= triangles) hi = mid;
      else lo = mid + 1;
    }
    const chosen = forms.map((_, i) => cheapestWithin(i, reaches[lo]!));
    // The room that leaves goes to the farthest first, each to the nearest form it pays for.
    let room = triangles - total(reaches[lo]!);
    const order = forms.map((_, i) => i).sort((a, b) => chosen[b]!.reach - chosen[a]!.reach || a - b);
    for (const i of order) {
      const better = forms[i]!.filter((f) => f.reach < chosen[i]!.reach && (f.triangles - chosen[i]!.triangles) * uses[i]! <= room);
      if (better.length === 0) continue;
      const best = better.reduce((a, b) => (b.reach < a.reach || (b.reach === a.reach && b.triangles < a.triangles) ? b : a));
      room -= (best.triangles - chosen[i]!.triangles) * uses[i]!;
      chosen[i] = best;
    }
    for (const form of chosen) form.apply();
    return this.drawn <= triangles;
  }

  /**
   * A wall, slab or roof mesh's forms: as read, or simplified at one of `policy.shapeErrors`, no
   * part pruned, each with its triangles and how far (m) it and the full mesh lie apart either
   * way, bounded over whole triangles. A wall simplified within a few centimetres is still the
   * wall; it gives only where the detail stood in for lies as far. The mesh is as read again when
   * this returns.
   */
  private shapeForms(m: number): UnitForm[] {
    const w = this.work[m]!;
    const take = (error: number) => {
      w.restore();
      w.keepEveryPart();
      if (error > 0) this.tighten(m, error);
    };
    const levels: UnitForm[] = [];
    let before = Number.POSITIVE_INFINITY;
    for (const error of [0, ...this.policy.shapeErrors]) {
      take(error);
      const triangles = w.triangles;
      const saves = triangles < before;
      before = triangles;
      // A coarser error that saves nothing on the level before is never the better choice: not measured.
      if (!saves) continue;
      // Refined no nearer than the error itself: a level is offered, not its last millimetre.
      const enough = error / this.scale[m]!;
      const reach = w.changed ? Math.max(w.stray(enough), w.uncovered(MIN_SAMPLES, enough)) * this.scale[m]! : 0;
      levels.push({ triangles, reach, apply: () => take(error) });
    }
    take(0);
    const plate = this.plateForm(m);
    return plate ? [...levels, plate] : levels;
  }

  /**
   * A thin wall, slab or roof's form as its two faces without its edges (see `policy.thinPlate`
   * and `plateFaces`): undefined for a mesh thicker than that, or with no edge to drop.
   */
  private plateForm(m: number): UnitForm | undefined {
    if (!this.plates.has(m)) {
      const mesh = this.scene.meshes[m]!;
      const box = pointBounds(mesh.positions);
      const axis = thinnestAxis(box);
      const thin = (box.max[axis]! - box.min[axis]!) * this.scale[m]! <= this.policy.thinPlate;
      this.plates.set(m, thin ? plateFaces(mesh, axis) : undefined);
    }
    const faces = this.plates.get(m);
    if (!faces) return undefined;
    const w = this.work[m]!;
    return { triangles: faces.kept, reach: faces.uncovered * this.scale[m]!, apply: () => w.keepOnly(faces.keep, faces.uncovered) };
  }

  /** Mesh `m`'s forms (see `detailForms`), each with how it is taken. */
  private meshForms(m: number): UnitForm[] {
    return this.detailForms(m).map(({ form, triangles, reach }) => ({ triangles, reach, apply: () => this.takeForm(m, form) }));
  }

  /** Envelope detail mesh `m` delivered as `form`, from the full mesh either way: the simplification measured is the one delivered. */
  private takeForm(m: number, form: DetailForm): void {
    const w = this.work[m]!;
    if (form === 'as_read' || form === 'simplified') w.restore();
    if (form === 'simplified') w.tighten(this.policy.detailError / this.scale[m]!);
    else if (form !== 'as_read') this.standIn[m] = form;
  }

  /**
   * The forms of an element group (counted per draw of its lead): its
   * meshes each in its own form, the cheapest of each within every distance one of them reaches,
   * as read first; and the group standing as one, its union's sheet, rim or box.
   */
  private groupForms(group: ElementGroup): UnitForm[] {
    const meshes = [group.lead, ...group.members];
    const each = meshes.map((m) => this.meshForms(m));
    const distances = [...new Set(each.flatMap((f) => f.map((o) => o.reach)))].sort((a, b) => a - b);
    const forms = distances.map((distance): UnitForm => {
      const picks = each.map((f) => cheapestOf(f, distance));
      return {
        // Per draw of the lead: a member drawn twice beside it (a window's two panes) counts twice.
        triangles: picks.reduce((n, p, k) => n + (p.triangles * this.uses[meshes[k]!]!) / this.uses[group.lead]!, 0),
        reach: Math.max(...picks.map((p) => p.reach)),
        apply: () => {
          for (const p of picks) p.apply();
        },
      };
    });
    forms.push(...this.standingForms(group));
    // Or as two layers, each standing as one: a window's glass and mullions, and its frame behind.
    const layers = groupLayers(group, this.drawnWith!, this.scene.meshes, this.uses);
    if (layers) {
      const [front, back] = layers.map((layer) => this.standingForms(layer));
      for (const a of front!)
        for (const b of back!)
          forms.push({
            triangles: a.triangles + b.triangles,
            reach: Math.max(a.reach, b.reach),
            apply: () => {
              a.apply();
              b.apply();
            },
          });
    }
    return forms;
  }

  /** An element group (or one layer of it) standing as one: its union's sheet, box or rim, each measured against the whole element. */
  private standingForms(group: ElementGroup): UnitForm[] {
    const standing = this.groupStandIn(group);
    const s = this.scale[group.lead]!;
    return (['sheet', 'box', 'rim'] as const).flatMap((kind) => {
      const distances = standing.measured[kind];
      if (!Number.isFinite(standInReach(distances))) return [];
      return [
        {
          triangles: STAND_IN_TRIANGLES[kind] * standing.parts.length,
          reach: standInReach(distances) * s,
          apply: () => {
            this.grouped.set(group.lead, standing);
            this.standIn[group.lead] = kind;
            for (const m of group.members) {
              this.standIn[m] = 'covered';
              this.coveredBy.set(m, group.lead);
            }
          },
        },
      ];
    });
  }

  /**
   * An element group's union (or one layer's, see `groupLayers`) and its stand-ins, measured
   * against the whole element (see `detailStandIn`): made once per group (`fitDetail` may run
   * again), the same union elsewhere measured once.
   */
  private groupStandIn(group: ElementGroup): GroupStandIn {
    const key = [group.lead, ...group.members].join(' ');
    const made = this.groupStandIns.get(key);
    if (made) return made;
    const lead = this.scene.meshes[group.lead]!;
    const surface = this.withCompanions(group.lead);
    const members = new Set(group.members);
    // What the union stands beside: the element's other meshes (a layer's, the other layer).
    const others = new Set((this.drawnWith!.get(group.lead) ?? []).flatMap((c) => (members.has(c.mesh) ? [] : [c.mesh])));
    const whole = others.size === 0;
    const drawn = whole ? surface : this.withCompanions(group.lead, members);
    // Drawn in the material that covers most of the element (a window's glass, not its frame): a
    // member's draws beside the lead are its draws over the lead's.
    const covers = (m: number) => meshArea(this.scene.meshes[m]!) * this.uses[m]!;
    const widest = group.members.reduce((a, b) => (covers(b) > covers(a) ? b : a), group.lead);
    const material = this.scene.meshes[widest]!.material;
    const union: SceneMesh = { name: lead.name, material, positions: drawn.positions, indices: drawn.indices };
    const parts = proxyParts(union, { hollowShare: this.policy.detailHollowShare });
    const rest = whole ? new Float32Array(0) : this.withCompanions(group.lead, others).positions.subarray(lead.positions.length);
    const standing = { union, parts, measured: this.measureStandIns(union, parts, surface, this.scale[group.lead]!, rest) };
    this.groupStandIns.set(key, standing);
    return standing;
  }

  /**
   * The forms envelope detail mesh `m` may be delivered in, as read first, each with its
   * triangles and how far (m) it and the element lie apart either way: as read (0), its stand-ins
   * as measured, left out (its own size).
   */
  private detailForms(m: number): Array<{ form: DetailForm; triangles: number; reach: number }> {
    const measured = this.detailStandIn(m);
    const s = this.scale[m]!;
    const nearest = Math.min(...(['sheet', 'box', 'rim'] as const).map((form) => standInReach(measured[form]))) * s;
    const simplified = nearest > this.policy.simplifyDetailPast ? this.simplifiedDetail(m) : undefined;
    return [
      { form: 'as_read', triangles: this.scene.meshes[m]!.indices.length / 3, reach: 0 },
      ...(simplified ? [{ form: 'simplified' as const, ...simplified }] : []),
      ...(['sheet', 'box', 'rim'] as const).map((form) => ({
        form,
        triangles: this.standInTriangles(m, form),
        reach: standInReach(measured[form]) * s,
      })),
      { form: 'left_out', triangles: 0, reach: this.sizeOf(m) },
    ];
  }

  /**
   * Envelope detail mesh `m` simplified at `policy.detailError`, no part pruned: its triangles,
   * and how far (m) it and the mesh lie apart either way, bounded as `deliver` bounds it but, as
   * a stand-in is, refined no nearer than `policy.standInSettled` (a choice among forms needs no
   * millimetres; the delivery states its own); undefined when that takes nothing. Measured once,
   * then the mesh is as read again (the same simplification is made again if it is chosen).
   */
  private simplifiedDetail(m: number): { triangles: number; reach: number } | undefined {
    if (this.simplifiedDetails.has(m)) return this.simplifiedDetails.get(m);
    const w = this.work[m]!,
      s = this.scale[m]!,
      mesh = this.scene.meshes[m]!;
    w.keepEveryPart();
    // The same geometry at the same scale met again (a copy of a building) simplifies the same way.
    const same = this.simplifiedByShape.find(mesh, mesh);
    let found: { triangles: number; reach: number } | undefined;
    if (same && same.scale === s) found = same.found;
    else {
      w.tighten(this.policy.detailError / s);
      const enough = this.policy.standInSettled / s;
      found = w.changed ? { triangles: w.triangles, reach: Math.max(w.stray(enough), w.uncovered(MIN_SAMPLES, enough)) * s } : undefined;
      w.restore();
      this.simplifiedByShape.add(mesh, mesh, { scale: s, found });
    }
    this.simplifiedDetails.set(m, found);
    return found;
  }

  /**
   * Envelope detail mesh `m`'s stand-ins, each with how far it and the mesh lie from each other
   * (measured against every mesh the element draws with it: a window frame's sheet against its
   * glass too). Measured the first time it is asked for.
   */
  private detailStandIn(m: number): DetailStandIns {
    let found = this.measuredStandIns.get(m);
    if (!found) {
      found = this.measureStandIns(this.scene.meshes[m]!, this.partsOf(m), this.withCompanions(m), this.scale[m]!);
      this.measuredStandIns.set(m, found);
    }
    return found;
  }

  /**
   * The stand-ins of `mesh` standing as `parts`, each measured against `surface` (the element's
   * whole surface), in the mesh's units; `scale` is metres per unit. The same element geometry
   * met again (a copy of a building, a type drawn as its own geometry at each place) is measured
   * once. `rest`: the rest of the element, when not the surface after the mesh (see `measureStandIns`).
   */
  private measureStandIns(mesh: SceneMesh, parts: Bounds[], surface: TriangleMesh, scale: number, rest?: Float32Array): DetailStandIns {
    const same = this.standInsByShape.find(mesh, surface);
    if (same) return same;
    // Below a centimetre, how near a stand-in lies changes neither the choice nor what a person sees.
    const found = measureStandIns(mesh, parts, surface, this.policy.standInSettled / scale, rest);
    this.standInsByShape.add(mesh, surface, found);
    return found;
  }

  /**
   * Mesh `m`'s triangles and those of every mesh its elements draw with it (those in `only`, if
   * given), in `m`'s frame (see `drawnTogether`).
   */
  private withCompanions(m: number, only?: ReadonlySet<number>): TriangleMesh {
    this.drawnWith ??= drawnTogether(this.scene, (k) => this.isDetail(k));
    const companions = (this.drawnWith.get(m) ?? []).filter((c) => !only || only.has(c.mesh));
    const mesh = this.scene.meshes[m]!;
    if (companions.length === 0) return mesh;
    // In an order of their own, not the file's: the same element elsewhere is the same surface, byte for byte.
    const placed = companions.map((c) => ({ mesh: this.scene.meshes[c.mesh]!, toFrame: c.toFrame }));
    const keys = placed.map((c) => contentKey(c.mesh, c.toFrame));
    const order = placed.map((_, i) => i).sort((a, b) => keys[a]! - keys[b]! || a - b);
    return concatMeshes(
      mesh,
      order.map((i) => placed[i]!),
    );
  }

  /**
   * Rounds at a growing error until the triangles fit (or the error reaches the model's size), a
   * round that went far below the budget taken again between the last two bounds. Returns the
   * error of the last round kept. With `maxError`, no round goes past it: the triangles may then
   * still be over, for the caller to take from elsewhere first.
   */
  fitError(opts: Pick<SimplifyToBudgetOptions, 'triangles' | 'firstError' | 'growth' | 'refinements'>, maxError = Infinity): number {
    const active = () => this.work.filter((w, m): w is MeshSimplification => w !== undefined && !this.standIn[m]);
    let error = opts.firstError,
      below = 0;
    while (this.drawn > opts.triangles && error < this.size) {
      if (error > maxError) return below;
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
   * Parts of every changed envelope mesh whose full surface lies beyond `cap` metres of what is
   * left of it kept finer (see {@link MeshSimplification.boundUncovered}): a wall folded away to
   * its end is a wall missing. Clutter is left as it is: coarse by design, it states its figures.
   */
  boundUncovered(cap: number, error: number): void {
    this.work.forEach((w, m) => {
      if (w?.changed && !this.standIn[m] && this.categories[m] === 'envelope')
        w.boundUncovered(cap / this.scale[m]!, error / this.scale[m]!);
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
    const strays = new Array<MeshStray | undefined>(scene.meshes.length);
    /** Counts mesh `m`'s distances to its category, and keeps them as its own. */
    const strayed = (m: number, category: BudgetCategory, deviation: number, uncovered: number) => {
      figures.strayed(category, deviation, uncovered);
      const own = strays[m];
      strays[m] = { category, deviation: Math.max(own?.deviation ?? 0, deviation), uncovered: Math.max(own?.uncovered ?? 0, uncovered) };
    };
    const measured: Array<{ sampled: number; measure: () => void }> = [];
    // A shape repeated at many places (each window of a type its own geometry) is measured once.
    const twins = new TwinMeshes<{ scale: number; deviation: number; uncovered: number }>(SETTLED_ON_SURFACE);
    // One sampling allowance for the scene, shared by the meshes in proportion to their triangles.
    const total = scene.meshes.reduce((n, mesh) => n + mesh.indices.length / 3, 0);
    const seeThrough = new SeeThroughMaterials(scene.materials, this.policy.openSheetOpacity);
    const meshes: SceneMesh[] = scene.meshes.map((mesh, m) => {
      const w = work[m],
        standIn = this.standIn[m],
        category = this.categories[m]!,
        size = this.sizeOf(m);
      // A group's lead stands for the group's union (see `elementGroups`); its members are covered by it.
      const group = this.grouped.get(m);
      const source = group?.union ?? mesh;
      const parts = () => group?.parts ?? this.partsOf(m);
      const drawn =
        standIn === 'left_out' || standIn === 'covered'
          ? { ...mesh, indices: new Uint32Array(0) }
          : standIn === 'box'
            ? boxProxy(source, parts())
            : standIn === 'top'
              ? topProxy(mesh, this.up[m]!, parts())
              : standIn === 'sheet'
                ? sheetProxy(source, parts(), (group?.measured ?? this.detailStandIn(m)).sheetAt)
                : standIn === 'rim'
                  ? rimProxy(source, parts())
                  : w?.changed
                    ? w.result()
                    : mesh;
      // A frame's sheet or box across its opening would close it: it is drawn see-through.
      const acrossOpening = (standIn === 'sheet' || standIn === 'box') && this.isDetail(m) && opensThrough(source, parts());
      const delivered = acrossOpening ? { ...drawn, material: seeThrough.of(drawn.material) } : drawn;
      figures.count(category, mesh.indices.length / 3, delivered.indices.length / 3, this.uses[m]!);
      if (!w || (!w.changed && !standIn) || standIn === 'covered') return delivered;
      if ((standIn === 'box' || standIn === 'sheet' || standIn === 'rim') && this.isDetail(m)) {
        // The envelope's figures are what a person sees of the building: measured, not a box's size.
        const measured = (group?.measured ?? this.detailStandIn(m))[standIn];
        strayed(m, category, measured.deviation * scale[m]!, measured.uncovered * scale[m]!);
      } else if (standIn === 'box') {
        // Each part touches every face of its box and lies inside it: a point of a box is within
        // its face's diagonal of the part, a point of the part within half the thinnest side of its box.
        for (const part of this.partsOf(m)) {
          const [thinnest, middle, longest] = boxSides(part);
          strayed(m, category, Math.hypot(middle, longest) * scale[m]!, (thinnest / 2) * scale[m]!);
        }
      } else if (standIn === 'top') {
        // Each part touches its box's top face, and lies within the box: a point of the face is
        // within the face's diagonal of the part, a point of the part within the box's diagonal of the face.
        for (const part of this.partsOf(m)) {
          const sides = [0, 1, 2].filter((k) => k !== this.up[m]!.axis).map((k) => part.max[k]! - part.min[k]!);
          strayed(m, category, Math.hypot(...sides) * scale[m]!, Math.hypot(...boxSides(part)) * scale[m]!);
        }
      } else if (delivered.indices.length === 0) {
        // Left out whole (smaller than the error, or by the budget): it counts its own size, not a distance to elsewhere.
        strayed(m, category, 0, size);
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
              strayed(m, category, twin.measured.deviation + 2 * twin.drift * s, twin.measured.uncovered + 2 * twin.drift * s);
              return;
            }
            const sofar = figures.farthest(category);
            const measuredHere = {
              scale: s,
              deviation: w.stray(sofar.deviation / s, SETTLED_ON_SURFACE / s) * s,
              uncovered: w.uncovered(meshSamples, sofar.uncovered / s, SETTLED_ON_SURFACE / s) * s,
            };
            twins.add(versions, measuredHere);
            strayed(m, category, measuredHere.deviation, measuredHere.uncovered);
          },
        });
      }
      return delivered;
    });
    // Those sampled farthest first: a category's farthest is met early, and the rest settle under it.
    measured.sort((a, b) => b.sampled - a.sampled);
    for (const { measure } of measured) measure();
    for (const [m, lead] of this.coveredBy) if (this.standIn[m] === 'covered') strays[m] = strays[lead];
    // A mesh left out entirely is drawn nowhere; the elements that drew only such meshes are named.
    const elements = new Map<string, { category: BudgetCategory; ifcClass: string; drew: boolean; drawn: boolean; boxed: boolean }>();
    scene.nodes.forEach((n, i) => {
      if (n.meshes.length === 0) return;
      const key = elementKey(scene.nodes, i);
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
        e.boxed ||= this.standIn[m] !== undefined && this.standIn[m] !== 'left_out';
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
    const base = { nodes, meshes, materials: seeThrough.materials, textures: scene.textures };
    const categories = figures.result();
    return {
      scene: { ...scene, ...base, stats: sceneStats(base) },
      error,
      maxDeviation: Math.max(0, ...categories.map((c) => c.maxDeviation)),
      maxUncovered: Math.max(0, ...categories.map((c) => c.maxUncovered)),
      categories,
      meshStrays: strays,
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
    for (const m of node.meshes) {
      if (uses[m] === 0) up[m] = upAxis(w);
      uses[m]!++;
      scale[m] = Math.max(scale[m]!, s);
    }
  });
  // Undrawn meshes are not simplified; a zero scale would divide by zero.
  for (let m = 0; m < scale.length; m++) if (!(scale[m]! > 0)) scale[m] = 1;
  return { uses, scale, up };
}

/** The local axis of a node's matrix whose image leans most towards world +Y, or away from it, and which way. */
function upAxis(w: Float64Array): UpAxis {
  const lean = [0, 1, 2].map((k) => w[k * 4 + 1]! / (Math.hypot(w[k * 4]!, w[k * 4 + 1]!, w[k * 4 + 2]!) || 1));
  const axis = [0, 1, 2].reduce((best, k) => (Math.abs(lean[k]!) > Math.abs(lean[best]!) ? k : best), 1) as 0 | 1 | 2;
  return { axis, side: lean[axis]! >= 0 ? 1 : 0 };
}

/** A mesh's triangles and its companions', each companion's vertices moved into the mesh's frame. */
function concatMeshes(mesh: TriangleMesh, companions: ReadonlyArray<{ mesh: TriangleMesh; toFrame: Float64Array }>): TriangleMesh {
  const all = [{ mesh, toFrame: undefined }, ...companions];
  const positions = new Float32Array(all.reduce((n, k) => n + k.mesh.positions.length, 0));
  const indices = new Uint32Array(all.reduce((n, k) => n + k.mesh.indices.length, 0));
  let vertices = 0,
    at = 0;
  for (const { mesh: k, toFrame: t } of all) {
    const p = k.positions;
    if (!t) positions.set(p, vertices * 3);
    else
      for (let v = 0; v < p.length; v += 3) {
        const x = p[v]!,
          y = p[v + 1]!,
          z = p[v + 2]!;
        const o = vertices * 3 + v;
        for (let r = 0; r < 3; r++) positions[o + r] = t[r]! * x + t[4 + r]! * y + t[8 + r]! * z + t[12 + r]!;
      }
    for (let i = 0; i < k.indices.length; i++) indices[at + i] = k.indices[i]! + vertices;
    vertices += p.length / 3;
    at += k.indices.length;
  }
  return { positions, indices };
}
