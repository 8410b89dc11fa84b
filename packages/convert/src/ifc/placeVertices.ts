import type { Bounds, Vec3 } from '@arsession/geometry';
import { normalMatrix, uniformNormalScale } from '../scene/normalMatrix.js';

/** A geometry's vertices in the delivered frame: x, y, z per vertex. */
export interface PlacedVertices {
  positions: Float32Array;
  normals: Float32Array;
}

/**
 * Places a web-ifc geometry's vertices (`local`: px py pz nx ny nz per vertex) in the delivered
 * frame: its `transform` (column-major) applied in float64, `offset` removed, and only then stored
 * as float32 into `into`. Grows `box` by the stored points and, given `centres`, appends the
 * float64 centre of the geometry's placed box (for `chooseOffset`).
 *
 * @returns how far the placed points reach from the origin along any axis, in float64.
 * @example
 * ```ts
 * const into = { positions: new Float32Array(n * 3), normals: new Float32Array(n * 3) };
 * placeVertices(vertexView(api, geometry), transform, [0, 0, 0], into, box);
 * ```
 */
export function placeVertices(
  local: Float32Array,
  transform: Float64Array,
  offset: Readonly<Vec3>,
  into: PlacedVertices,
  box: Bounds,
  centres?: number[],
): number {
  const t = transform,
    v = local,
    { positions, normals } = into;
  let nm = normalMatrix(t);
  // When the placement is rigid or uniformly scaled (IFC placements usually are), web-ifc's unit
  // normals (unit to float32 precision) all come out at one length, fixed once here; any other
  // placement has each normal renormalised.
  const scale = uniformNormalScale(nm);
  const renormalise = scale === 0;
  if (!renormalise) nm = nm.map((x) => x * scale);
  // Matrix entries in locals: stores into the output arrays could alias `t` as far as the
  // compiler knows, so it would reload every entry per vertex (this made the loop 3× slower).
  const t0 = t[0]!,
    t1 = t[1]!,
    t2 = t[2]!,
    t4 = t[4]!,
    t5 = t[5]!,
    t6 = t[6]!,
    t8 = t[8]!,
    t9 = t[9]!,
    t10 = t[10]!;
  const tx = t[12]! - offset[0],
    ty = t[13]! - offset[1],
    tz = t[14]! - offset[2];
  const n0 = nm[0]!,
    n1 = nm[1]!,
    n2 = nm[2]!,
    n3 = nm[3]!,
    n4 = nm[4]!,
    n5 = nm[5]!,
    n6 = nm[6]!,
    n7 = nm[7]!,
    n8 = nm[8]!;
  // The geometry's own box in float64; rounding to float32 keeps order, so the stored points'
  // box is this one rounded, and the scene's grows from that.
  let x0 = Infinity,
    y0 = Infinity,
    z0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity,
    z1 = -Infinity;
  for (let i = 0, o = 0; i + 5 < v.length; i += 6, o += 3) {
    const x = v[i]!,
      y = v[i + 1]!,
      z = v[i + 2]!;
    // float64 until the offset is removed; only then float32.
    const wx = t0 * x + t4 * y + t8 * z + tx;
    const wy = t1 * x + t5 * y + t9 * z + ty;
    const wz = t2 * x + t6 * y + t10 * z + tz;
    positions[o] = wx;
    positions[o + 1] = wy;
    positions[o + 2] = wz;
    if (wx < x0) x0 = wx;
    if (wx > x1) x1 = wx;
    if (wy < y0) y0 = wy;
    if (wy > y1) y1 = wy;
    if (wz < z0) z0 = wz;
    if (wz > z1) z1 = wz;
    const nx = v[i + 3]!,
      ny = v[i + 4]!,
      nz = v[i + 5]!;
    const ox = n0 * nx + n1 * ny + n2 * nz,
      oy = n3 * nx + n4 * ny + n5 * nz,
      oz = n6 * nx + n7 * ny + n8 * nz;
    // not Math.hypot: this is the hot loop, and hypot is slow
    const k = renormalise ? 1 / (Math.sqrt(ox * ox + oy * oy + oz * oz) || 1) : 1;
    normals[o] = ox * k;
    normals[o + 1] = oy * k;
    normals[o + 2] = oz * k;
  }
  if (x0 > x1) return 0;
  growByPlacedBox(box, x0, y0, z0, x1, y1, z1);
  centres?.push(offset[0] + (x0 + x1) / 2, offset[1] + (y0 + y1) / 2, offset[2] + (z0 + z1) / 2);
  return Math.max(-x0, x1, -y0, y1, -z0, z1);
}

/** Grows `box` by a geometry's float64 box, rounded to float32 as its points are stored. */
function growByPlacedBox(box: Bounds, x0: number, y0: number, z0: number, x1: number, y1: number, z1: number): void {
  const { min, max } = box;
  min[0] = Math.min(min[0], Math.fround(x0));
  min[1] = Math.min(min[1], Math.fround(y0));
  min[2] = Math.min(min[2], Math.fround(z0));
  max[0] = Math.max(max[0], Math.fround(x1));
  max[1] = Math.max(max[1], Math.fround(y1));
  max[2] = Math.max(max[2], Math.fround(z1));
}
