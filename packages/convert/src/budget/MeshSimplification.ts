import { MeshoptSimplifier } from 'meshoptimizer';
import type { SceneElementRange, SceneMesh } from '../scene/SceneData.js';

/**
 * Triangles simplified in one call at most. meshoptimizer works in a WASM heap that grows to the
 * largest call and never shrinks: a merged mesh of 800 k triangles grows it by about 100 MB, which
 * would stay for the thread's life. Larger meshes are simplified in runs of this many (their
 * triangles in the order the merge laid them, element by element, so a run is a compact region);
 * the vertices two runs share are borders to each, locked, so no crack opens between them.
 */
const TRIANGLES_PER_CALL = 200_000;

/**
 * One mesh on its way down in detail: {@link tighten} simplifies it further at a larger error,
 * {@link result} makes the delivered mesh. Kept between rounds so each round starts from the last
 * one's result, not from the full mesh (rounds get cheaper as the mesh shrinks).
 *
 * BIM geometry is mostly flat-shaded: every face has its own vertices, so a simplifier that
 * respects attribute seams can collapse almost nothing. Meshes without texture coordinates are
 * therefore simplified on their positions alone (vertices at one position welded), and each
 * corner of the result takes back the original vertex whose normal is closest to its face's:
 * creases stay sharp, smooth surfaces stay smooth. Textured meshes keep meshoptimizer's own seam
 * handling, so no texture is torn.
 *
 * Call `await MeshoptSimplifier.ready` (from 'meshoptimizer') once before the first instance.
 */
export class MeshSimplification {
  readonly source: SceneMesh;
  /** Original vertex standing for each vertex: one per position when welded, itself otherwise. */
  private readonly weld: Uint32Array;
  /** Current triangles, in welded vertices. */
  private indices: Uint32Array;
  /** Triangles as they were at the last {@link mark}. */
  private marked: Uint32Array;

  /**
   * `mayVanish`: the mesh may be simplified away entirely when all of it is smaller than the error
   * (a bolt among thousands of sleepers); otherwise it keeps at least its coarsest shape.
   */
  constructor(source: SceneMesh, private readonly mayVanish = false) {
    this.source = source;
    this.weld = source.uvs ? identity(source.positions.length / 3) : MeshoptSimplifier.generatePositionRemap(source.positions, 3);
    this.indices = new Uint32Array(source.indices.length);
    for (let i = 0; i < source.indices.length; i++) this.indices[i] = this.weld[source.indices[i]!]!;
    this.marked = this.indices;
  }

  /** Remembers the current triangles, to come back to them with {@link rewind}. */
  mark(): void {
    this.marked = this.indices;
  }

  /** Back to the triangles of the last {@link mark} (a round that took too many). */
  rewind(): void {
    this.indices = this.marked;
  }

  /** Triangles the mesh has now. */
  get triangles(): number {
    return this.indices.length / 3;
  }

  /**
   * Simplifies further until the next collapse would move the surface more than `error` (in the
   * mesh's own units). Borders stay where they are, so neighbouring meshes never open a gap; parts
   * smaller than the error are pruned, but never all of a mesh.
   */
  tighten(error: number): void {
    if (this.indices.length === 0) return;
    let indices = this.simplifyInRuns(error, ['LockBorder', 'ErrorAbsolute', 'Prune', 'Sparse']);
    if (indices.length === 0 && this.mayVanish) {
      this.indices = indices;
      return;
    }
    // Pruning takes parts smaller than the error; a mesh made only of such parts keeps its shape.
    if (indices.length === 0) indices = this.simplifyInRuns(error, ['LockBorder', 'ErrorAbsolute', 'Sparse']);
    // Only degenerate triangles (no area) would leave nothing: keep them, the mesh is not dropped.
    if (indices.length > 0) this.indices = indices;
  }

  /** The current triangles simplified at `error`, in runs of at most {@link TRIANGLES_PER_CALL}. */
  private simplifyInRuns(error: number, flags: Parameters<typeof MeshoptSimplifier.simplify>[5]): Uint32Array {
    const run = TRIANGLES_PER_CALL * 3;
    if (this.indices.length <= run) return MeshoptSimplifier.simplify(this.indices, this.source.positions, 3, 0, error, flags)[0];
    const parts: Uint32Array[] = [];
    for (let start = 0; start < this.indices.length; start += run) {
      parts.push(MeshoptSimplifier.simplify(this.indices.subarray(start, start + run), this.source.positions, 3, 0, error, flags)[0]);
    }
    const out = new Uint32Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }

  /**
   * Down to about `targetTriangles` whatever the error, borders free, never to nothing unless the
   * mesh may vanish: the last resort when error-bounded rounds cannot reach the budget (many
   * open, bordered pieces).
   */
  reduceTo(targetTriangles: number): void {
    if (this.triangles <= targetTriangles) return;
    const target = Math.max(0, Math.floor(targetTriangles)) * 3;
    const [coarse] = MeshoptSimplifier.simplify(this.indices, this.source.positions, 3, target, Number.MAX_VALUE, ['ErrorAbsolute', 'Sparse']);
    let best = coarse.length > 0 ? coarse : this.indices;
    if (best.length > target) {
      // Sloppy collapses ignore topology: it reaches counts the other cannot, or leaves nothing.
      const [sloppy] = MeshoptSimplifier.simplifySloppy(best, this.source.positions, 3, null, target, Number.MAX_VALUE);
      if (sloppy.length > 0 || this.mayVanish) best = sloppy;
    }
    // Never all of it (unless it may vanish): a mesh reduced to nothing is a part missing, not a coarser one.
    if (best.length > 0 || this.mayVanish) this.indices = best;
  }

  /** The delivered mesh: only the vertices still used, element runs regrouped to tile its triangles. */
  result(): SceneMesh {
    const src = this.source;
    const corners = this.source.uvs || !src.normals ? this.indices : unweldByNormal(this.indices, this.weld, src.positions, src.normals);
    const elementOfVertex = src.elements && vertexElements(src);
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
    const a = indices[t]! * 3, b = indices[t + 1]! * 3, c = indices[t + 2]! * 3;
    const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
    const vx = p[c]! - p[a]!, vy = p[c + 1]! - p[a + 1]!, vz = p[c + 2]! - p[a + 2]!;
    const fx = uy * vz - uz * vy, fy = uz * vx - ux * vz, fz = ux * vy - uy * vx;
    for (let k = 0; k < 3; k++) {
      const w = indices[t + k]!;
      let best = w, bestDot = -Infinity;
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
