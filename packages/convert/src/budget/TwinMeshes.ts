import type { SceneMesh } from '../scene/SceneData.js';

/** A mesh as the budget delivers it beside the mesh it was made from. */
export interface MeshVersions {
  source: SceneMesh;
  delivered: SceneMesh;
}

/** A twin found: what was measured of it, and how far apart the two are once one is moved onto the other. */
export interface TwinMatch<T> {
  measured: T;
  /** The farthest any vertex of either version lies from its twin's, after the one rigid motion (the meshes' units). */
  drift: number;
}

/**
 * Meshes that are one shape in several places: the same triangles over vertices that differ by
 * one rigid motion (a turn and a shift), in the source and as delivered (an IFC export often
 * writes each window of a type as geometry of its own, at its own place and facing its own way).
 * Distances between two versions of a mesh do not change when both move together (turned or
 * shifted), and move by no more than twice the drift when each vertex is off by up to the drift:
 * a point of a triangle is a blend of its corners, so it is off by no more than they are, and so
 * is the point of the other surface nearest it. So what is measured of one (an upper bound)
 * bounds its twin's once twice the drift is added: measured once, not at every copy.
 *
 * @example
 * ```ts
 * const twins = new TwinMeshes<number>(1e-4);
 * const match = twins.find(versions);
 * const stray = match ? match.measured + 2 * match.drift : measure(versions);
 * if (!match) twins.add(versions, stray);
 * ```
 */
export class TwinMeshes<T> {
  private readonly byShape = new Map<string, Array<{ versions: MeshVersions; measured: T }>>();

  /** Twins further apart than this (the meshes' units) are not taken as twins. */
  constructor(private readonly maxDrift: number) {}

  /** A mesh measured before that is a twin of `versions`, with their drift; undefined when there is none. */
  find(versions: MeshVersions): TwinMatch<T> | undefined {
    for (const candidate of this.byShape.get(shapeKey(versions)) ?? []) {
      // One rigid motion for both versions, the one between the sources: the bound holds for the pair moved together.
      const motion = rigidMotion(candidate.versions.source.positions, versions.source.positions);
      if (!motion) continue;
      const drift = Math.max(
        driftBetween(candidate.versions.source, versions.source, motion),
        driftBetween(candidate.versions.delivered, versions.delivered, motion),
      );
      if (drift <= this.maxDrift) return { measured: candidate.measured, drift };
    }
    return undefined;
  }

  /** Keeps what was measured of `versions`, for its twins to come. */
  add(versions: MeshVersions, measured: T): void {
    const key = shapeKey(versions);
    const list = this.byShape.get(key) ?? [];
    list.push({ versions, measured });
    this.byShape.set(key, list);
  }
}

/**
 * A key twins share, whichever way they face: the triangles of both versions, their element runs,
 * and each vertex's distance from the first rounded to a millimetre (in metres; a twin may round
 * the other way at a boundary and be missed, which costs a measurement, never a wrong figure).
 */
function shapeKey({ source, delivered }: MeshVersions): string {
  let h = 0x811c9dc5;
  const mix = (v: number) => {
    h = Math.imul(h ^ (v | 0), 0x01000193);
  };
  for (const mesh of [source, delivered]) {
    mix(mesh.indices.length);
    for (let i = 0; i < mesh.indices.length; i++) mix(mesh.indices[i]!);
    const p = mesh.positions;
    mix(p.length);
    for (let i = 3; i + 2 < p.length; i += 3) mix(Math.round(Math.hypot(p[i]! - p[0]!, p[i + 1]! - p[1]!, p[i + 2]! - p[2]!) * 1000));
    for (const e of mesh.elements ?? []) {
      mix(e.firstTriangle);
      mix(e.triangleCount);
    }
  }
  return `${source.indices.length}/${delivered.indices.length}/${h >>> 0}`;
}

/** A rigid motion taking one mesh's vertices onto another's: `x ↦ rotation · (x − from) + to`. */
interface RigidMotion {
  /** Row-major 3×3. */
  rotation: Float64Array;
  from: [number, number, number];
  to: [number, number, number];
}

/**
 * The rigid motion taking the vertices `b` onto `a` (the same vertices, in order), found from
 * three of them: the first, the farthest from it, and the one farthest off the line through those
 * two. Undefined when the vertices lie on one line (no way to tell a turn about it).
 */
function rigidMotion(a: Float32Array, b: Float32Array): RigidMotion | undefined {
  if (a.length !== b.length || a.length < 9) return undefined;
  const vertex = (p: Float32Array, i: number): [number, number, number] => [
    p[i * 3]! - p[0]!,
    p[i * 3 + 1]! - p[1]!,
    p[i * 3 + 2]! - p[2]!,
  ];
  const count = a.length / 3;
  let far = 0,
    farLength = 0;
  for (let i = 1; i < count; i++) {
    const v = vertex(a, i),
      length = Math.hypot(...v);
    if (length > farLength) [far, farLength] = [i, length];
  }
  let off = 0,
    offArea = 0;
  const u = vertex(a, far);
  for (let i = 1; i < count; i++) {
    const area = Math.hypot(...cross(u, vertex(a, i)));
    if (area > offArea) [off, offArea] = [i, area];
  }
  // Too flat to turn by: the drift check below would still be sound, but the frame would be noise.
  if (!(offArea > 1e-6 * farLength * farLength)) return undefined;
  const frameA = frame(vertex(a, far), vertex(a, off)),
    frameB = frame(vertex(b, far), vertex(b, off));
  if (!frameA || !frameB) return undefined;
  // rotation = A · Bᵀ: B's frame onto A's.
  const rotation = new Float64Array(9);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      let sum = 0;
      for (let k = 0; k < 3; k++) sum += frameA[k * 3 + r]! * frameB[k * 3 + c]!;
      rotation[r * 3 + c] = sum;
    }
  }
  return { rotation, from: [b[0]!, b[1]!, b[2]!], to: [a[0]!, a[1]!, a[2]!] };
}

/** An orthonormal frame (three unit rows) from two directions: along the first, then the second's part across it. */
function frame(u: [number, number, number], v: [number, number, number]): Float64Array | undefined {
  const lu = Math.hypot(...u);
  if (!(lu > 0)) return undefined;
  const e1 = [u[0] / lu, u[1] / lu, u[2] / lu] as [number, number, number];
  const along = v[0] * e1[0] + v[1] * e1[1] + v[2] * e1[2];
  const w: [number, number, number] = [v[0] - along * e1[0], v[1] - along * e1[1], v[2] - along * e1[2]];
  const lw = Math.hypot(...w);
  if (!(lw > 0)) return undefined;
  const e2 = [w[0] / lw, w[1] / lw, w[2] / lw] as [number, number, number];
  return Float64Array.from([...e1, ...e2, ...cross(e1, e2)]);
}

function cross(a: readonly number[], b: readonly number[]): [number, number, number] {
  return [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
}

/** How far apart two meshes of the same triangles are once `b` is moved by `motion`; Infinity when they differ in shape. */
function driftBetween(a: SceneMesh, b: SceneMesh, motion: RigidMotion): number {
  if (a.indices.length !== b.indices.length || a.positions.length !== b.positions.length) return Infinity;
  for (let i = 0; i < a.indices.length; i++) if (a.indices[i] !== b.indices[i]) return Infinity;
  if ((a.elements?.length ?? 0) !== (b.elements?.length ?? 0)) return Infinity;
  for (const [k, e] of (a.elements ?? []).entries()) {
    const f = b.elements![k]!;
    if (e.firstTriangle !== f.firstTriangle || e.triangleCount !== f.triangleCount) return Infinity;
  }
  const p = a.positions,
    q = b.positions,
    { rotation: m, from, to } = motion;
  let drift = 0;
  for (let i = 0; i < p.length; i += 3) {
    const x = q[i]! - from[0],
      y = q[i + 1]! - from[1],
      z = q[i + 2]! - from[2];
    drift = Math.max(
      drift,
      Math.hypot(
        p[i]! - (m[0]! * x + m[1]! * y + m[2]! * z + to[0]),
        p[i + 1]! - (m[3]! * x + m[4]! * y + m[5]! * z + to[1]),
        p[i + 2]! - (m[6]! * x + m[7]! * y + m[8]! * z + to[2]),
      ),
    );
  }
  return drift;
}
