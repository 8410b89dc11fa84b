import { MeshoptSimplifier } from 'meshoptimizer/simplifier';
import type { SceneElementRange, SceneMesh } from '../scene/SceneData.js';
import { DeviationProbe } from './DeviationProbe.js';

/**
 * Triangles simplified in one call at most. meshoptimizer works in a WASM heap that grows to the
 * largest call and never shrinks: a merged mesh of 800 k triangles grows it by about 100 MB, which
 * would stay for the thread's life. Larger meshes are simplified in runs of this many (their
 * triangles in the order the merge laid them, element by element, so a run is a compact region).
 * In the error-bounded rounds the vertices two runs share are borders to each, locked, so no crack
 * opens between them; the last resort ({@link MeshSimplification.reduceTo}) frees borders, and
 * may open one.
 */
const TRIANGLES_PER_CALL = 200_000;

/** Finer versions of a part tried before its full triangles: at half the error, then a quarter. */
const FINER_TRIES = 2;

/**
 * One mesh on its way down in detail: {@link tighten} simplifies it further at a larger error,
 * {@link result} makes the delivered mesh. Kept between rounds so each round starts from the last
 * one's result, not from the full mesh (rounds get cheaper as the mesh shrinks).
 *
 * BIM geometry is mostly flat-shaded: every face has its own vertices, so a simplifier that
 * respects attribute seams can collapse almost nothing. Meshes without texture coordinates are
 * therefore simplified on their positions alone (vertices at one position welded, within each
 * element of a merged mesh), and each corner of the result takes back the original vertex whose
 * normal is closest to its face's: creases stay sharp, smooth surfaces stay smooth. Textured
 * meshes keep meshoptimizer's own seam handling, so no texture is torn.
 *
 * meshoptimizer bounds its error at the vertices it keeps; the chords between them can cut across
 * a thin tube several times farther. {@link boundStray} measures that and keeps the parts (the
 * elements of a merged mesh; all of any other) that strayed too far at a finer version of
 * themselves, out of later rounds.
 *
 * Call `await MeshoptSimplifier.ready` (from 'meshoptimizer') once before the first instance.
 */
export class MeshSimplification {
  readonly source: SceneMesh;
  /** Original vertex standing for each vertex: one per position and element when welded, itself otherwise. */
  private readonly weld: Uint32Array;
  /** The element run of each original vertex; undefined when the mesh is one part. */
  private readonly partOfVertex: Int32Array | undefined;
  /** Current triangles, in welded vertices, that later rounds simplify further. */
  private indices: Uint32Array;
  /** Triangles as they were at the last {@link mark}. */
  private marked: Uint32Array;
  /** Triangles of parts kept at a finer version: no round touches them. */
  private kept: Uint32Array = new Uint32Array(0);
  /** Farthest the kept triangles stray from the full surface. */
  private keptStray = 0;
  /** Farthest the current triangles stray from the full surface, once measured since they last changed. */
  private measured: number | undefined = 0;
  /** How far the full surface lies from the current triangles at most, where the caller knew it (see {@link keepOnly}). */
  private knownUncovered: number | undefined;
  /** A distance the full surface was found within of the current triangles since they last changed (see {@link boundUncovered}). */
  private coveredWithin: number | undefined;
  /** The full surface to measure against, its BVH and vertex rows built once for every measurement. */
  private fullProbe: DeviationProbe | undefined;

  /**
   * `mayVanish`: the mesh may be simplified away entirely when all of it is smaller than the error
   * (a bolt among thousands of sleepers); otherwise it keeps at least its coarsest shape.
   */
  constructor(
    source: SceneMesh,
    private readonly mayVanish = false,
  ) {
    this.source = source;
    this.partOfVertex = source.elements && vertexElements(source);
    const byPosition = source.uvs ? identity(source.positions.length / 3) : MeshoptSimplifier.generatePositionRemap(source.positions, 3);
    this.weld = this.partOfVertex ? weldWithinParts(byPosition, this.partOfVertex, source.elements!.length) : byPosition;
    this.indices = this.welded(source.indices);
    this.marked = this.indices;
  }

  /** Whether parts smaller than the error are kept rather than pruned (see {@link keepEveryPart}). */
  private keepParts = false;

  /**
   * From now on no part is pruned for being smaller than the error: a wall's 6 mm jamb beside an
   * opening is 2.4 m tall, and pruned it leaves a hole as tall.
   */
  keepEveryPart(): void {
    this.keepParts = true;
  }

  /** Triangles the mesh has now. */
  get triangles(): number {
    return (this.indices.length + this.kept.length) / 3;
  }

  /**
   * The farthest sample point of the delivered triangles from the full surface, where it was
   * measured since they last changed (a lower bound on {@link stray}); 0 where it was not.
   */
  get sampledStray(): number {
    return this.measured ?? 0;
  }

  /** Whether any triangle differs from the full mesh's. */
  get changed(): boolean {
    return this.triangles !== this.source.indices.length / 3;
  }

  /** Remembers the current triangles, to come back to them with {@link rewind}. */
  mark(): void {
    this.marked = this.indices;
  }

  /** Back to the triangles of the last {@link mark} (a round that took too many). */
  rewind(): void {
    this.replace(this.marked);
  }

  /** Back to the full triangles, parts kept finer and marks forgotten: the budget has room for them after all. */
  restore(): void {
    this.indices = this.full().indices;
    this.marked = this.indices;
    this.kept = new Uint32Array(0);
    this.keptStray = 0;
    this.measured = 0;
    this.knownUncovered = undefined;
  }

  /**
   * The full triangles, but only those `keep` marks (by their place in the source's indices): a
   * thin plate's faces without its edges. `uncovered` is how far the full surface lies from them
   * at most, known to the caller (see `plateFaces`), and what {@link uncovered} says until the
   * triangles change again. Parts kept finer and marks are forgotten.
   */
  keepOnly(keep: Uint8Array, uncovered: number): void {
    this.restore();
    const full = this.indices;
    const kept: number[] = [];
    for (let t = 0; t < full.length / 3; t++) if (keep[t]) kept.push(full[t * 3]!, full[t * 3 + 1]!, full[t * 3 + 2]!);
    this.replace(Uint32Array.from(kept));
    this.mark();
    this.knownUncovered = uncovered;
  }

  /**
   * Simplifies further until the next collapse would move the surface more than `error` (in the
   * mesh's own units). Borders stay where they are, so neighbouring meshes never open a gap; parts
   * smaller than the error are pruned, but never all of a mesh.
   */
  tighten(error: number): void {
    if (this.indices.length === 0) return;
    let indices = this.simplifyInRuns(
      error,
      this.keepParts ? ['LockBorder', 'ErrorAbsolute', 'Sparse'] : ['LockBorder', 'ErrorAbsolute', 'Prune', 'Sparse'],
    );
    if (indices.length === 0 && this.mayVanish && this.kept.length === 0) {
      this.replace(indices);
      return;
    }
    // Pruning takes parts smaller than the error; a mesh made only of such parts keeps its shape.
    if (indices.length === 0) indices = this.simplifyInRuns(error, ['LockBorder', 'ErrorAbsolute', 'Sparse']);
    // Only degenerate triangles (no area) would leave nothing: keep them, the mesh is not dropped.
    if (indices.length > 0) this.replace(indices);
  }

  /** The current triangles simplified at `error`, in runs (see {@link TRIANGLES_PER_CALL}). */
  private simplifyInRuns(error: number, flags: SimplifierFlags): Uint32Array {
    return simplifyRuns(this.indices, this.source.positions, error, flags);
  }

  /**
   * Down to about `targetTriangles` whatever the error, borders free, never to nothing unless the
   * mesh may vanish: the last resort when error-bounded rounds cannot reach the budget (many
   * open, bordered pieces).
   */
  reduceTo(targetTriangles: number): void {
    if (this.triangles <= targetTriangles) return;
    // The budget comes before the deviation: parts kept finer are simplified with the rest.
    this.replace(this.allTriangles());
    this.mark();
    this.kept = new Uint32Array(0);
    this.keptStray = 0;
    const ratio = Math.max(0, targetTriangles) / this.triangles;
    const best = inRuns(this.indices, (run) => this.reduceRun(run, ratio));
    // Never all of it (unless it may vanish): a mesh reduced to nothing is a part missing, not a coarser one.
    if (best.length > 0 || this.mayVanish) this.replace(best);
  }

  /** One run of triangles down to `ratio` of them, whatever the error. */
  private reduceRun(run: Uint32Array, ratio: number): Uint32Array {
    const target = Math.floor((run.length / 3) * ratio) * 3;
    const [coarse] = MeshoptSimplifier.simplify(run, this.source.positions, 3, target, Number.MAX_VALUE, ['ErrorAbsolute', 'Sparse']);
    const best = coarse.length > 0 ? coarse : run;
    return best.length > target ? this.sloppy(best, target) : best;
  }

  /**
   * Sloppy collapses, which ignore topology: they reach counts the other cannot, or leave
   * nothing. A part that may not vanish asks again for twice as many until something is left:
   * a fastening drawn 9,477 times along a rail, asked for two triangles, keeps five rather than
   * all 42 its topology holds.
   */
  private sloppy(indices: Uint32Array, target: number): Uint32Array {
    for (let asked = Math.max(target, 3); asked < indices.length; asked *= 2) {
      const [sloppy] = MeshoptSimplifier.simplifySloppy(indices, this.source.positions, 3, null, asked, Number.MAX_VALUE);
      if (sloppy.length > 0 || this.mayVanish) return sloppy;
    }
    return indices;
  }

  /**
   * An upper bound on how far any point of the delivered triangles (the current ones and the
   * parts kept finer) strays from the full surface, in the mesh's units: over whole triangles,
   * not at chosen points (see {@link DeviationProbe.bound}); 0 for the full mesh. `enough` and
   * `absolute` as there: a distance the caller already has, and a tolerance for triangles lying
   * on the surface.
   */
  stray(enough = 0, absolute = 0): number {
    const delivered = this.allTriangles();
    const probe = this.probe();
    // Sampled already when the triangles were last bounded (boundStray): the same farthest point.
    const sampled = this.measured ?? (enough > 0 ? 0 : probe.farthest(delivered));
    return probe.bound(delivered, Math.max(enough, sampled), absolute);
  }

  /**
   * Measures the current triangles, and keeps each part with a point farther than `cap` from the
   * full surface at the coarsest of: its full triangles simplified at half `error`, at a quarter,
   * or its full triangles, whichever is first within `cap`. Kept parts are out of later rounds.
   * Returns the farthest stray after.
   */
  boundStray(cap: number, error: number): number {
    // Measured since the triangles last changed, and within the cap: nothing to keep finer.
    if (this.measured !== undefined && this.measured <= cap) return this.measured;
    const probe = this.probe();
    const partOf = (t: number) => this.partOfTriangle(this.indices, t);
    // Which parts stray is decided over whole triangles; how far the rest stray, at the sample points.
    const strayed = new Set<number>();
    probe.exceeding(this.indices, cap).forEach((over, t) => over && strayed.add(partOf(t)));
    const remaining = probe.measure(this.indices, cap).max((t) => !strayed.has(partOf(t)));
    if (strayed.size > 0) this.keepFiner(strayed, error, cap);
    this.measured = Math.max(remaining, this.keptStray);
    return this.measured;
  }

  /**
   * {@link boundStray} the other way: keeps each part with a point of its full surface farther
   * than `cap` from the current triangles at the coarsest finer version within `cap` either way.
   * Each round simplifies the last round's result, so a thin shell can fold away over a few
   * rounds, each within its error, its last triangles lying on the surface (a small stray) while
   * the rest of it is gone: a wall 6 mm thick and 2.4 m long kept only its end cap (the Revit
   * restaurant at half the budget). A part taken away whole is not brought back (it was smaller
   * than the error, and counts its size). Returns whether any part was kept finer.
   */
  boundUncovered(cap: number, error: number): boolean {
    // Within the cap since the triangles last changed, or a form chosen with its figure (a plate's faces).
    if ((this.coveredWithin !== undefined && this.coveredWithin <= cap) || this.knownUncovered !== undefined) return false;
    const current = new Set<number>();
    for (let t = 0; t < this.indices.length / 3; t++) current.add(this.partOfTriangle(this.indices, t));
    const full = this.full().indices;
    const delivered = new DeviationProbe({ positions: this.source.positions, indices: this.allTriangles() }, this.partOfVertex);
    const uncovered = new Set<number>();
    delivered.exceeding(full, cap).forEach((over, t) => {
      const part = this.partOfTriangle(full, t);
      // Only parts the rounds still simplify: one kept finer already is measured both ways.
      if (over && current.has(part)) uncovered.add(part);
    });
    if (uncovered.size > 0) this.keepFiner(uncovered, error, cap);
    this.coveredWithin = cap;
    return uncovered.size > 0;
  }

  /** The part triangle `t` of `indices` lies in: its first corner's (0 for a mesh that is one part). */
  private partOfTriangle(indices: Uint32Array, t: number): number {
    return this.partOfVertex ? this.partOfVertex[indices[t * 3]!]! : 0;
  }

  /** Takes `parts` out of the current triangles, each kept at its finer version (see {@link finerPart}), out of later rounds. */
  private keepFiner(parts: ReadonlySet<number>, error: number, cap: number): void {
    this.replace(this.indices.filter((_, i) => !parts.has(this.partOfTriangle(this.indices, Math.floor(i / 3)))));
    this.mark();
    this.kept = concat([this.kept, ...[...parts].map((part) => this.finerPart(part, error, cap, this.probe()))]);
  }

  /**
   * The coarsest version of a part within `cap` of the full surface either way: its full
   * triangles simplified at half `error`, at a quarter (…), else its full triangles. Raises
   * {@link keptStray}.
   */
  private finerPart(part: number, error: number, cap: number, probe: DeviationProbe): Uint32Array {
    const full = this.welded(this.sourceTrianglesOf(part));
    const covers = (candidate: Uint32Array) =>
      !new DeviationProbe({ positions: this.source.positions, indices: candidate }, this.partOfVertex).exceeding(full, cap).includes(1);
    for (let k = 1, e = error / 2; k <= FINER_TRIES; k++, e /= 2) {
      const candidate = simplifyRuns(full, this.source.positions, e, ['LockBorder', 'ErrorAbsolute', 'Sparse']);
      const within = candidate.length > 0 && !probe.exceeding(candidate, cap).includes(1) && covers(candidate);
      const stray = within ? probe.measure(candidate, cap).max() : Infinity;
      if (stray <= cap) {
        this.keptStray = Math.max(this.keptStray, stray);
        return candidate;
      }
    }
    return full;
  }

  /**
   * An upper bound on how far any point of the full surface is from the delivered one (the mesh's
   * units), each part against its own, over whole triangles: a part taken away whole counts its
   * own size. The corners and centroids of about `samples` full triangles are measured first, so
   * triangles within the farthest of them settle at once; `enough` and `absolute` as for {@link stray}.
   */
  uncovered(samples: number, enough = 0, absolute = 0): number {
    if (this.knownUncovered !== undefined) return this.knownUncovered;
    const current = this.allTriangles();
    if (current.length === 0) return Infinity;
    const full = this.full().indices;
    const probe = new DeviationProbe({ positions: this.source.positions, indices: current }, this.partOfVertex);
    const sampled = enough > 0 ? 0 : probe.farthestCorners(full, Math.max(1, Math.floor(full.length / 3 / samples)));
    return Math.max(probe.bound(full, Math.max(enough, sampled), absolute), this.largestPartGone(current));
  }

  /** Diagonal of the largest part the triangles `current` have nothing of (0 for a mesh that is one part). */
  private largestPartGone(current: Uint32Array): number {
    const partOf = this.partOfVertex,
      elements = this.source.elements;
    if (!partOf || !elements) return 0;
    const kept = new Uint8Array(elements.length);
    for (let i = 0; i < current.length; i += 3) if (partOf[current[i]!]! >= 0) kept[partOf[current[i]!]!] = 1;
    let largest = 0;
    elements.forEach((e, k) => {
      if (!kept[k] && e.triangleCount > 0)
        largest = Math.max(
          largest,
          diagonal(this.source.positions, this.source.indices.subarray(e.firstTriangle * 3, (e.firstTriangle + e.triangleCount) * 3)),
        );
    });
    return largest;
  }

  /** The current triangles and those of the parts kept finer. */
  private allTriangles(): Uint32Array {
    return this.kept.length > 0 ? concat([this.indices, this.kept]) : this.indices;
  }

  /** New current triangles: what was measured of the old ones no longer holds. */
  private replace(indices: Uint32Array): void {
    // A collapse always takes a triangle away: as many triangles as before are the same ones.
    if (indices.length !== this.indices.length)
      [this.measured, this.knownUncovered, this.coveredWithin] = [undefined, undefined, undefined];
    this.indices = indices;
  }

  /** The probe of the full surface, made the first time a version is measured. */
  private probe(): DeviationProbe {
    this.fullProbe ??= new DeviationProbe(this.full(), this.partOfVertex);
    return this.fullProbe;
  }

  /** The full mesh in welded vertices: what every version is measured against. */
  private full(): { positions: Float32Array; indices: Uint32Array } {
    return { positions: this.source.positions, indices: this.welded(this.source.indices) };
  }

  private welded(indices: Uint32Array): Uint32Array {
    const out = new Uint32Array(indices.length);
    for (let i = 0; i < indices.length; i++) out[i] = this.weld[indices[i]!]!;
    return out;
  }

  /** The source triangles of one part: an element's run, or all of a mesh without elements. */
  private sourceTrianglesOf(part: number): Uint32Array {
    const range = this.source.elements?.[part];
    return range
      ? this.source.indices.subarray(range.firstTriangle * 3, (range.firstTriangle + range.triangleCount) * 3)
      : this.source.indices;
  }

  /** The delivered mesh: only the vertices still used, element runs regrouped to tile its triangles. */
  result(): SceneMesh {
    const src = this.source;
    const current = this.allTriangles();
    const corners = src.uvs || !src.normals ? current : unweldByNormal(current, this.weld, src.positions, src.normals);
    const elementOfVertex = this.partOfVertex;
    const order = elementOfVertex ? trianglesByElement(corners, elementOfVertex, src.elements!.length) : undefined;

    const newIndex = new Int32Array(src.positions.length / 3).fill(-1);
    const indices = new Uint32Array(corners.length);
    let used = 0;
    for (let t = 0; t < corners.length / 3; t++) {
      const from = order ? order.triangles[t]! : t;
      for (let k = 0; k < 3; k++) {
        const v = corners[from * 3 + k]!;
        if (newIndex[v] === -1) newIndex[v] = used++;
        indices[t * 3 + k] = newIndex[v]!;
      }
    }
    const pick = (array: Float32Array, size: number): Float32Array => {
      const out = new Float32Array(used * size);
      for (let v = 0; v < newIndex.length; v++) {
        const to = newIndex[v]!;
        if (to >= 0) for (let k = 0; k < size; k++) out[to * size + k] = array[v * size + k]!;
      }
      return out;
    };
    const mesh: SceneMesh = { name: src.name, positions: pick(src.positions, 3), indices, material: src.material };
    if (src.normals) mesh.normals = pick(src.normals, 3);
    if (src.uvs) mesh.uvs = pick(src.uvs, 2);
    if (order) mesh.elements = order.ranges(src.elements!);
    return mesh;
  }
}

type SimplifierFlags = Parameters<typeof MeshoptSimplifier.simplify>[5];

/** `indices` simplified at `error`, in runs (see {@link inRuns}). */
function simplifyRuns(indices: Uint32Array, positions: Float32Array, error: number, flags: SimplifierFlags): Uint32Array {
  return inRuns(indices, (run) => MeshoptSimplifier.simplify(run, positions, 3, 0, error, flags)[0]);
}

/** `simplify` applied to `indices` in runs of at most {@link TRIANGLES_PER_CALL} triangles, the results one after another. */
function inRuns(indices: Uint32Array, simplify: (run: Uint32Array) => Uint32Array): Uint32Array {
  const runs: Uint32Array[] = [];
  for (let start = 0; start < indices.length; start += TRIANGLES_PER_CALL * 3)
    runs.push(simplify(indices.subarray(start, start + TRIANGLES_PER_CALL * 3)));
  return runs.length === 1 ? runs[0]! : concat(runs);
}

/** Diagonal of the box around the vertices `indices` use. */
function diagonal(p: Float32Array, indices: Uint32Array): number {
  const min = [Infinity, Infinity, Infinity],
    max = [-Infinity, -Infinity, -Infinity];
  for (const v of indices) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, p[v * 3 + k]!);
      max[k] = Math.max(max[k]!, p[v * 3 + k]!);
    }
  }
  return Math.hypot(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!);
}

function concat(arrays: Uint32Array[]): Uint32Array {
  const out = new Uint32Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

/**
 * A position weld that never joins two elements: a vertex whose position is first met in another
 * element stands for the first vertex at that position in its own element. Elements of a
 * merged mesh are separate solids; welded together, a collapse could carry one into another,
 * and a triangle could belong to two.
 */
function weldWithinParts(byPosition: Uint32Array, partOf: Int32Array, parts: number): Uint32Array {
  const out = new Uint32Array(byPosition.length);
  const firstInPart = new Map<number, number>();
  for (let v = 0; v < byPosition.length; v++) {
    const at = byPosition[v]!;
    if (partOf[at] === partOf[v]) {
      out[v] = at;
      continue;
    }
    // Vertices in no element (-1) are a part of their own.
    const key = at * (parts + 1) + partOf[v]! + 1;
    const first = firstInPart.get(key);
    if (first === undefined) firstInPart.set(key, v);
    out[v] = first ?? v;
  }
  return out;
}

function identity(count: number): Uint32Array {
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = i;
  return out;
}

/**
 * For each corner of welded triangles, the original vertex at that position whose normal is
 * closest to the triangle's own facing.
 */
function unweldByNormal(indices: Uint32Array, weld: Uint32Array, p: Float32Array, n: Float32Array): Uint32Array {
  // Original vertices grouped by the vertex they were welded to (compressed rows).
  const start = new Uint32Array(weld.length + 1);
  for (let v = 0; v < weld.length; v++) start[weld[v]! + 1]!++;
  for (let v = 0; v < weld.length; v++) start[v + 1]! += start[v]!;
  const fill = start.slice(0, weld.length);
  const twins = new Uint32Array(weld.length);
  for (let v = 0; v < weld.length; v++) twins[fill[weld[v]!]!++] = v;

  const out = new Uint32Array(indices.length);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3,
      b = indices[t + 1]! * 3,
      c = indices[t + 2]! * 3;
    const ux = p[b]! - p[a]!,
      uy = p[b + 1]! - p[a + 1]!,
      uz = p[b + 2]! - p[a + 2]!;
    const vx = p[c]! - p[a]!,
      vy = p[c + 1]! - p[a + 1]!,
      vz = p[c + 2]! - p[a + 2]!;
    const fx = uy * vz - uz * vy,
      fy = uz * vx - ux * vz,
      fz = ux * vy - uy * vx;
    for (let k = 0; k < 3; k++) {
      const w = indices[t + k]!;
      let best = w,
        bestDot = -Infinity;
      for (let j = start[w]!; j < start[w + 1]!; j++) {
        const o = twins[j]! * 3;
        const dot = n[o]! * fx + n[o + 1]! * fy + n[o + 2]! * fz;
        if (dot > bestDot) {
          bestDot = dot;
          best = twins[j]!;
        }
      }
      out[t + k] = best;
    }
  }
  return out;
}

/** The element run each vertex of a merged mesh belongs to (runs never share vertices). */
function vertexElements(mesh: SceneMesh): Int32Array {
  const out = new Int32Array(mesh.positions.length / 3).fill(-1);
  mesh.elements!.forEach((e, k) => {
    for (let i = e.firstTriangle * 3; i < (e.firstTriangle + e.triangleCount) * 3; i++) out[mesh.indices[i]!] = k;
  });
  return out;
}

/**
 * Triangles sorted (stably) by the element of their first corner, so each element's triangles
 * form one run again; elements left with none drop out.
 */
function trianglesByElement(corners: Uint32Array, elementOf: Int32Array, elements: number) {
  const count = corners.length / 3;
  const runStart = new Uint32Array(elements + 2);
  const elementOfTriangle = new Int32Array(count);
  for (let t = 0; t < count; t++) {
    // A vertex welded in from outside every run (cannot happen for merged meshes) goes last.
    const e = elementOf[corners[t * 3]!]!;
    elementOfTriangle[t] = e < 0 ? elements : e;
    runStart[elementOfTriangle[t]! + 1]!++;
  }
  for (let e = 0; e <= elements; e++) runStart[e + 1]! += runStart[e]!;
  const fill = runStart.slice(0, elements + 1);
  const triangles = new Uint32Array(count);
  for (let t = 0; t < count; t++) triangles[fill[elementOfTriangle[t]!]!++] = t;
  return {
    triangles,
    ranges(source: readonly SceneElementRange[]): SceneElementRange[] {
      const out: SceneElementRange[] = [];
      for (let e = 0; e < elements; e++) {
        const n = runStart[e + 1]! - runStart[e]!;
        if (n > 0) out.push({ firstTriangle: runStart[e]!, triangleCount: n, metadata: source[e]!.metadata });
      }
      const stray = runStart[elements + 1]! - runStart[elements]!;
      if (stray > 0) out.push({ firstTriangle: runStart[elements]!, triangleCount: stray, metadata: {} });
      return out;
    },
  };
}
