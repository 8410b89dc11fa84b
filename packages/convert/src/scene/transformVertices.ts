import { normalMatrix } from './normalMatrix.js';

/**
 * Moves vertices through a column-major 4×4 in place: positions by the matrix, normals by its
 * normal matrix (outward kept under a mirror) and renormalised.
 *
 * @example
 * ```ts
 * transformVertices(world, mesh.positions, mesh.normals); // bake a node's transform into its mesh
 * ```
 */
export function transformVertices(m: Float64Array, positions: Float32Array, normals: Float32Array | undefined): void {
  const nm = normalMatrix(m);
  for (let v = 0; v < positions.length / 3; v++) transformVertex(m, positions, normals, v, nm);
  if (normals) normalizeAll(normals);
}

/**
 * Vertex `v` of `positions` (and `normals`) through `m`; `nm` is `m`'s normal matrix, made once by the caller for a loop. Normals are
 * left unnormalised.
 */
export function transformVertex(
  m: Float64Array,
  positions: Float32Array,
  normals: Float32Array | undefined,
  v: number,
  nm = normals && normalMatrix(m),
): void {
  const i = v * 3;
  const x = positions[i]!,
    y = positions[i + 1]!,
    z = positions[i + 2]!;
  positions[i] = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!;
  positions[i + 1] = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
  positions[i + 2] = m[2]! * x + m[6]! * y + m[10]! * z + m[14]!;
  if (!normals || !nm) return;
  const nx = normals[i]!,
    ny = normals[i + 1]!,
    nz = normals[i + 2]!;
  normals[i] = nm[0]! * nx + nm[1]! * ny + nm[2]! * nz;
  normals[i + 1] = nm[3]! * nx + nm[4]! * ny + nm[5]! * nz;
  normals[i + 2] = nm[6]! * nx + nm[7]! * ny + nm[8]! * nz;
}

/** Scales every xyz triple of `n` to unit length (zero vectors stay zero). */
export function normalizeAll(n: Float32Array): void {
  for (let i = 0; i < n.length; i += 3) {
    const l = Math.sqrt(n[i]! * n[i]! + n[i + 1]! * n[i + 1]! + n[i + 2]! * n[i + 2]!);
    if (l > 0) {
      n[i]! /= l;
      n[i + 1]! /= l;
      n[i + 2]! /= l;
    }
  }
}
