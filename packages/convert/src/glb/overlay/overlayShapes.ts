import type { Vec3 } from '@arsession/geometry';

/** An RGB colour, components 0–1 (linear). */
export type OverlayColor = [number, number, number];

/**
 * Marks drawn over a model (a preview's placement: a door's outline and normal, an anchor's axes,
 * a footprint, a printed image), in the model's frame (metres): lines, arrows and flat quads.
 */
export interface OverlayShapes {
  /** Straight bars from one point to another. */
  lines: Array<{ from: Vec3; to: Vec3; color: OverlayColor }>;
  /** Bars with a head at `to`. */
  arrows: Array<{ from: Vec3; to: Vec3; color: OverlayColor }>;
  /** Flat quads, corners in order (bottom left, bottom right, top right, top left), coloured or showing an image. */
  quads: Array<{
    corners: [Vec3, Vec3, Vec3, Vec3];
    color: OverlayColor;
    opacity: number;
    image?: { data: Uint8Array; mimeType: 'image/png' | 'image/jpeg' };
  }>;
  /** Thickness of lines and arrows (m). */
  thickness: number;
}

/** One mesh of an overlay: triangles with flat normals, one colour (or an image), drawn from both sides. */
export interface OverlayMesh {
  positions: Float32Array;
  normals: Float32Array;
  uvs?: Float32Array;
  indices: Uint32Array;
  color: [number, number, number, number];
  image?: { data: Uint8Array; mimeType: 'image/png' | 'image/jpeg' };
}

/**
 * The meshes that draw overlay shapes: every line and arrow of one colour in one mesh (a bar is a
 * box of `thickness` square along it; an arrow's head a pyramid three bars wide), each quad a mesh
 * of its own.
 *
 * @example
 * ```ts
 * overlayMeshes({ lines: [{ from: [0, 0, 0], to: [1, 0, 0], color: [1, 0, 0] }], arrows: [], quads: [], thickness: 0.01 });
 * ```
 */
export function overlayMeshes(shapes: OverlayShapes): OverlayMesh[] {
  const byColor = new Map<string, Builder>();
  const builderOf = (color: OverlayColor) => {
    const key = color.join(',');
    let b = byColor.get(key);
    if (!b) byColor.set(key, (b = new Builder([...color, 1])));
    return b;
  };
  const t = shapes.thickness;
  for (const l of shapes.lines) builderOf(l.color).bar(l.from, l.to, t);
  for (const a of shapes.arrows) {
    const d = sub(a.to, a.from),
      length = norm(d);
    if (!(length > 0)) continue;
    const head = Math.min(length / 2, 6 * t);
    const base = add(a.from, scale(d, (length - head) / length));
    builderOf(a.color).bar(a.from, base, t);
    builderOf(a.color).pyramid(base, a.to, 3 * t);
  }
  const meshes: OverlayMesh[] = [...byColor.values()].map((b) => b.mesh());
  for (const q of shapes.quads) {
    const b = new Builder([...q.color, q.opacity]);
    b.quad(q.corners);
    meshes.push({ ...b.mesh(), uvs: new Float32Array([0, 1, 1, 1, 1, 0, 0, 0]), ...(q.image && { image: q.image }) });
  }
  return meshes.filter((m) => m.indices.length > 0);
}

class Builder {
  private readonly positions: number[] = [];
  private readonly normals: number[] = [];
  private readonly indices: number[] = [];

  constructor(private readonly color: [number, number, number, number]) {}

  /** A box of square section `t` from `a` to `b`. */
  bar(a: Vec3, b: Vec3, t: number): void {
    const d = sub(b, a);
    if (!(norm(d) > 0)) return;
    const [u, v] = perpendiculars(d);
    const h = t / 2;
    const corner = (p: Vec3, su: number, sv: number) => add(p, add(scale(u, su * h), scale(v, sv * h)));
    const ring = (p: Vec3) => [corner(p, -1, -1), corner(p, 1, -1), corner(p, 1, 1), corner(p, -1, 1)];
    const [s, e] = [ring(a), ring(b)];
    for (let i = 0; i < 4; i++) this.face([s[i]!, s[(i + 1) % 4]!, e[(i + 1) % 4]!, e[i]!]);
    this.face([s[3]!, s[2]!, s[1]!, s[0]!]);
    this.face([e[0]!, e[1]!, e[2]!, e[3]!]);
  }

  /** A four-sided pyramid: its base of width `w` square on the axis at `base`, its tip at `tip`. */
  pyramid(base: Vec3, tip: Vec3, w: number): void {
    const [u, v] = perpendiculars(sub(tip, base));
    const h = w / 2;
    const b = [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ].map(([su, sv]) => add(base, add(scale(u, su! * h), scale(v, sv! * h))));
    for (let i = 0; i < 4; i++) this.triangle(b[i]!, b[(i + 1) % 4]!, tip);
    this.face([b[3]!, b[2]!, b[1]!, b[0]!]);
  }

  /** A flat quad, counter-clockwise seen from its front. */
  quad(c: [Vec3, Vec3, Vec3, Vec3]): void {
    this.face(c);
  }

  mesh(): Omit<OverlayMesh, 'uvs' | 'image'> {
    return {
      positions: new Float32Array(this.positions),
      normals: new Float32Array(this.normals),
      indices: new Uint32Array(this.indices),
      color: this.color,
    };
  }

  private face(c: Vec3[]): void {
    const n = unit(cross(sub(c[1]!, c[0]!), sub(c[2]!, c[0]!)));
    const first = this.positions.length / 3;
    for (const p of c) {
      this.positions.push(...p);
      this.normals.push(...n);
    }
    this.indices.push(first, first + 1, first + 2, first, first + 2, first + 3);
  }

  private triangle(a: Vec3, b: Vec3, c: Vec3): void {
    const n = unit(cross(sub(b, a), sub(c, a)));
    const first = this.positions.length / 3;
    for (const p of [a, b, c]) {
      this.positions.push(...p);
      this.normals.push(...n);
    }
    this.indices.push(first, first + 1, first + 2);
  }
}

/** Two unit vectors perpendicular to `d` and to each other. */
function perpendiculars(d: Vec3): [Vec3, Vec3] {
  const w = unit(d);
  const helper: Vec3 = Math.abs(w[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0];
  const u = unit(cross(w, helper));
  return [u, cross(w, u)];
}

const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
const norm = (a: Vec3) => Math.hypot(a[0], a[1], a[2]);
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a: Vec3): Vec3 => {
  const l = norm(a);
  return l > 0 ? scale(a, 1 / l) : [0, 1, 0];
};
