/** A tessellated shape: vertices with normals and texture coordinates, and counter-clockwise triangles. */
export interface TriangleMesh {
  positions: Float32Array;
  normals: Float32Array;
  uvs: Float32Array;
  indices: Uint32Array;
}

/** Options of the tessellations. */
export interface TessellateOptions {
  /** Divisions around the axis, the first on +X of the ring's plane. */
  segments: number;
  /** Divisions of a sphere from pole to pole. */
  rings: number;
  /** Divisions of each capsule cap from its pole to the cylinder. */
  capRings: number;
}

/**
 * Defaults of the tessellations: OpenUSD's own (UsdImaging: 10 around, 10 pole to pole, 4 per
 * capsule cap), so a shape has the triangles and extent a USD viewer draws for it, a few dozen to
 * a couple of hundred triangles.
 */
export const TESSELLATE_DEFAULTS: Readonly<TessellateOptions> = { segments: 10, rings: 10, capRings: 4 };

/** The axis a shape's height runs along (UsdGeom `axis`). */
export type ShapeAxis = 'X' | 'Y' | 'Z';

/** A point of a lathe profile: distance from the axis, height, and the surface normal in that plane. */
interface ProfilePoint {
  r: number;
  z: number;
  nr: number;
  nz: number;
  /** A ring of points even on the axis: a cone's apex, which OpenUSD draws as quads that close there. */
  apexRing?: boolean;
}

/**
 * A UsdGeomSphere: a UV sphere of `radius` about the origin.
 *
 * @example
 * ```ts
 * tessellateSphere(1).indices.length / 3; // → 180 with the defaults
 * ```
 */
export function tessellateSphere(radius: number, options: Partial<TessellateOptions> = {}): TriangleMesh {
  const { segments, rings } = { ...TESSELLATE_DEFAULTS, ...options };
  const profile: ProfilePoint[] = [];
  for (let i = 0; i <= rings; i++) {
    const phi = (Math.PI * i) / rings;
    profile.push({ r: radius * Math.sin(phi), z: radius * Math.cos(phi), nr: Math.sin(phi), nz: Math.cos(phi) });
  }
  return lathe(profile, segments, 'Z');
}

/**
 * A UsdGeomCylinder (or Cone, with `radiusTop` 0): bottom at −height/2, top at +height/2 along
 * `axis`, closed by caps.
 *
 * @example
 * ```ts
 * tessellateCylinder(1, 1, 2, 'Z').indices.length / 3; // → 40 with the defaults
 * ```
 */
export function tessellateCylinder(
  radiusBottom: number,
  radiusTop: number,
  height: number,
  axis: ShapeAxis,
  options: Partial<TessellateOptions> = {},
): TriangleMesh {
  const { segments } = { ...TESSELLATE_DEFAULTS, ...options };
  const h = height / 2;
  // The side's normal leans by the slope between the two radii.
  const slope = Math.hypot(height, radiusBottom - radiusTop) || 1;
  const sr = height / slope,
    sz = (radiusBottom - radiusTop) / slope;
  return lathe(
    [
      { r: 0, z: h, nr: 0, nz: 1 },
      { r: radiusTop, z: h, nr: 0, nz: 1 },
      { r: radiusTop, z: h, nr: sr, nz: sz, apexRing: true },
      { r: radiusBottom, z: -h, nr: sr, nz: sz, apexRing: true },
      { r: radiusBottom, z: -h, nr: 0, nz: -1 },
      { r: 0, z: -h, nr: 0, nz: -1 },
    ],
    segments,
    axis,
  );
}

/**
 * A UsdGeomCapsule: a cylinder of `height` between two hemispheres of `radius`, along `axis`.
 *
 * @example
 * ```ts
 * tessellateCapsule(0.5, 1, 'Z'); // spans ±1 along Z
 * ```
 */
export function tessellateCapsule(radius: number, height: number, axis: ShapeAxis, options: Partial<TessellateOptions> = {}): TriangleMesh {
  const { segments, capRings } = { ...TESSELLATE_DEFAULTS, ...options };
  const half = Math.max(1, capRings);
  const profile: ProfilePoint[] = [];
  for (let i = 0; i <= half; i++) {
    const phi = (Math.PI / 2) * (i / half);
    profile.push({ r: radius * Math.sin(phi), z: height / 2 + radius * Math.cos(phi), nr: Math.sin(phi), nz: Math.cos(phi) });
  }
  for (let i = 0; i <= half; i++) {
    const phi = Math.PI / 2 + (Math.PI / 2) * (i / half);
    profile.push({ r: radius * Math.sin(phi), z: -height / 2 + radius * Math.cos(phi), nr: Math.sin(phi), nz: Math.cos(phi) });
  }
  return lathe(profile, segments, axis);
}

/**
 * A UsdGeomCube: an axis-aligned cube of edge `size` about the origin, a flat normal per face.
 *
 * @example
 * ```ts
 * tessellateCube(2).indices.length / 3; // → 12
 * ```
 */
export function tessellateCube(size: number): TriangleMesh {
  const s = size / 2;
  const b = new MeshBuilder();
  for (const [axis, sign] of [
    [0, 1],
    [0, -1],
    [1, 1],
    [1, -1],
    [2, 1],
    [2, -1],
  ] as const) {
    const n = [0, 0, 0];
    n[axis] = sign;
    const u = axis === 0 ? 1 : 0,
      v = axis === 2 ? 1 : 2;
    const corner = (du: number, dv: number) => {
      const p = [0, 0, 0];
      p[axis] = sign * s;
      p[u] = du * s;
      p[v] = dv * s;
      return b.vertex(p[0]!, p[1]!, p[2]!, n[0]!, n[1]!, n[2]!, (du + 1) / 2, (dv + 1) / 2);
    };
    b.quad(corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1));
  }
  return b.build();
}

/**
 * A UsdGeomPlane: a `width` × `length` rectangle facing +`axis` (width along X, length along Y
 * for axis Z; width along Z, length along Y for X; width along X, length along Z for Y).
 *
 * @example
 * ```ts
 * tessellatePlane(2, 2, 'Z').indices.length / 3; // → 2
 * ```
 */
export function tessellatePlane(width: number, length: number, axis: ShapeAxis): TriangleMesh {
  const [wi, li, ni] = axis === 'Z' ? [0, 1, 2] : axis === 'X' ? [2, 1, 0] : [0, 2, 1];
  const b = new MeshBuilder();
  const n = [0, 0, 0];
  n[ni] = 1;
  const corner = (du: number, dv: number) => {
    const p = [0, 0, 0];
    p[wi] = (du * width) / 2;
    p[li] = (dv * length) / 2;
    return b.vertex(p[0]!, p[1]!, p[2]!, n[0]!, n[1]!, n[2]!, (du + 1) / 2, (dv + 1) / 2);
  };
  b.quad(corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1));
  return b.build();
}

/**
 * A surface of revolution: `profile` (top to bottom) turned about the Z axis in `segments`
 * steps, then laid along `axis`. Consecutive profile points at one place (a crease, where the
 * normal changes) make no triangles; a point on the axis closes its band with triangles.
 */
function lathe(input: readonly ProfilePoint[], segments: number, axis: ShapeAxis): TriangleMesh {
  // sin(π) is 1.2e-16, not 0: a pole must sit exactly on the axis to close its band with triangles.
  const reach = Math.max(...input.map((p) => Math.abs(p.r)));
  const profile = input.map((p) => (Math.abs(p.r) <= 1e-9 * reach ? { ...p, r: 0 } : p));
  const b = new MeshBuilder();
  const rings: number[][] = profile.map((p, i) => {
    const ring: number[] = [];
    for (let j = 0; j <= segments; j++) {
      const theta = (2 * Math.PI * j) / segments;
      const c = Math.cos(theta),
        s = Math.sin(theta);
      ring.push(b.vertex(p.r * c, p.r * s, p.z, p.nr * c, p.nr * s, p.nz, j / segments, 1 - i / (profile.length - 1)));
    }
    return ring;
  });
  for (let i = 0; i + 1 < profile.length; i++) {
    const p0 = profile[i]!,
      p1 = profile[i + 1]!;
    if (p0.r === p1.r && p0.z === p1.z) continue;
    for (let j = 0; j < segments; j++) {
      const a = rings[i]![j]!,
        d = rings[i]![j + 1]!,
        bb = rings[i + 1]![j]!,
        c = rings[i + 1]![j + 1]!;
      if (p0.r > 0 || p0.apexRing) b.triangle(a, bb, d);
      if (p1.r > 0 || p1.apexRing) b.triangle(d, bb, c);
    }
  }
  return b.build(axis);
}

/** Collects vertices and triangles; each triangle is wound to face the way its vertices' normals point. */
class MeshBuilder {
  private readonly p: number[] = [];
  private readonly n: number[] = [];
  private readonly uv: number[] = [];
  private readonly t: number[] = [];

  vertex(x: number, y: number, z: number, nx: number, ny: number, nz: number, u: number, v: number): number {
    this.p.push(x, y, z);
    this.n.push(nx, ny, nz);
    this.uv.push(u, v);
    return this.p.length / 3 - 1;
  }

  triangle(a: number, b: number, c: number): void {
    const P = this.p,
      N = this.n;
    const ux = P[3 * b]! - P[3 * a]!,
      uy = P[3 * b + 1]! - P[3 * a + 1]!,
      uz = P[3 * b + 2]! - P[3 * a + 2]!;
    const vx = P[3 * c]! - P[3 * a]!,
      vy = P[3 * c + 1]! - P[3 * a + 1]!,
      vz = P[3 * c + 2]! - P[3 * a + 2]!;
    const fx = uy * vz - uz * vy,
      fy = uz * vx - ux * vz,
      fz = ux * vy - uy * vx;
    const nx = N[3 * a]! + N[3 * b]! + N[3 * c]!,
      ny = N[3 * a + 1]! + N[3 * b + 1]! + N[3 * c + 1]!,
      nz = N[3 * a + 2]! + N[3 * b + 2]! + N[3 * c + 2]!;
    if (fx * nx + fy * ny + fz * nz < 0) this.t.push(a, c, b);
    else this.t.push(a, b, c);
  }

  quad(a: number, b: number, c: number, d: number): void {
    this.triangle(a, b, c);
    this.triangle(a, c, d);
  }

  /** The mesh, its Z axis laid along `axis` by a proper rotation (X: z→x, Y: z→y). */
  build(axis: ShapeAxis = 'Z'): TriangleMesh {
    const positions = Float32Array.from(this.p),
      normals = Float32Array.from(this.n);
    if (axis !== 'Z') for (const a of [positions, normals]) cycleAxes(a, axis);
    // glTF's v runs down the image (SceneData's convention); the profile's v runs up.
    const uvs = Float32Array.from(this.uv, (x, i) => (i % 2 ? 1 - x : x));
    return { positions, normals, uvs, indices: Uint32Array.from(this.t) };
  }
}

/** (x, y, z) → (z, x, y) for X, (y, z, x) for Y: cyclic, so handedness is kept. */
function cycleAxes(a: Float32Array, axis: 'X' | 'Y'): void {
  for (let i = 0; i < a.length; i += 3) {
    const x = a[i]!,
      y = a[i + 1]!,
      z = a[i + 2]!;
    if (axis === 'X') {
      a[i] = z;
      a[i + 1] = x;
      a[i + 2] = y;
    } else {
      a[i] = y;
      a[i + 1] = z;
      a[i + 2] = x;
    }
  }
}
