import { normalizeAll } from '../../scene/transformVertices.js';
import { numericArray, readPrimvar, type Primvar, type StagePrim, type UsdStage } from '@arsession/usd';

/** A UsdGeomMesh triangulated: vertices, triangles, and the polygon each triangle came from. */
export interface MeshGeometry {
  positions: Float32Array;
  normals?: Float32Array;
  /** glTF convention (v down), as SceneData keeps them. */
  uvs?: Float32Array;
  indices: Uint32Array;
  /** Polygon index of each triangle (GeomSubsets select polygons). */
  triangleFaces: Uint32Array;
}

/**
 * Reads a Mesh prim into triangles: `points`, `faceVertexCounts`, `faceVertexIndices`, minus its
 * `holeIndices`, each polygon a fan (as USD's own triangulation), turned counter-clockwise when
 * the mesh says `orientation = "leftHanded"`; normals from `primvars:normals` or `normals`, and
 * texture coordinates from the primvar `uvName`, each at its interpolation (constant, uniform,
 * vertex, varying, faceVarying; indexed or not). Vertices are the mesh's points, or one per
 * polygon corner when a face-varying or uniform value needs it. Returns a reason instead of a
 * mesh when its topology is inconsistent.
 *
 * @example
 * ```ts
 * const mesh = readMeshGeometry(stage, prim, 'st');
 * ```
 */
export function readMeshGeometry(
  stage: UsdStage,
  prim: StagePrim,
  uvName: string | undefined,
): MeshGeometry | { problem: string } | undefined {
  const points = numericArray(stage.value(prim, 'points'));
  const counts = intArray(stage.value(prim, 'faceVertexCounts'));
  const corners = intArray(stage.value(prim, 'faceVertexIndices'));
  if (points?.size !== 3 || !counts || !corners || counts.length === 0) return undefined;
  const pointCount = points.values.length / 3;
  let total = 0;
  for (const c of counts) {
    if (c < 0) return { problem: `a face has ${c} vertices` };
    total += c;
  }
  if (total !== corners.length)
    return { problem: `faceVertexCounts add up to ${total} corners but faceVertexIndices has ${corners.length}` };
  for (const i of corners) if (i < 0 || i >= pointCount) return { problem: `faceVertexIndices has ${i}, past its ${pointCount} points` };

  const holes = new Set(intArray(stage.value(prim, 'holeIndices')) ?? []);
  const orientation = stage.value(prim, 'orientation');
  const leftHanded = orientation?.kind === 'token' && orientation.value === 'leftHanded';
  const normals = readPrimvar(stage, prim, 'primvars:normals', 'vertex') ?? readPrimvar(stage, prim, 'normals', 'vertex');
  const uvs = uvName === undefined ? undefined : readPrimvar(stage, prim, `primvars:${uvName}`, 'vertex');
  const faces = counts.length;
  const usable = (p: Primvar | undefined, size: number) =>
    p && p.size === size && elementCount(p) >= needed(p.interpolation, faces, pointCount, corners.length) ? p : undefined;
  const n = usable(normals, 3),
    t = usable(uvs, 2);
  const perCorner = [n, t].some((p) => p && (p.interpolation === 'faceVarying' || p.interpolation === 'uniform'));

  // Vertex v of the output: a point, or a polygon corner.
  const vertexCount = perCorner ? corners.length : pointCount;
  const positions = new Float32Array(vertexCount * 3);
  const outNormals = n ? new Float32Array(vertexCount * 3) : undefined;
  const outUvs = t ? new Float32Array(vertexCount * 2) : undefined;
  const fill = (v: number, point: number, face: number, corner: number) => {
    positions.set(points.values.subarray(point * 3, point * 3 + 3), v * 3);
    if (n && outNormals) copyElement(n, elementOf(n.interpolation, point, face, corner), outNormals, v, 3);
    if (t && outUvs) {
      copyElement(t, elementOf(t.interpolation, point, face, corner), outUvs, v, 2);
      outUvs[v * 2 + 1] = 1 - outUvs[v * 2 + 1]!; // USD's v runs up the image, SceneData's down
    }
  };
  if (!perCorner) for (let p = 0; p < pointCount; p++) fill(p, p, 0, 0);

  const triangles: number[] = [],
    triangleFaces: number[] = [];
  for (let f = 0, start = 0; f < faces; start += counts[f]!, f++) {
    const count = counts[f]!;
    if (perCorner) for (let k = 0; k < count; k++) fill(start + k, corners[start + k]!, f, start + k);
    if (count < 3 || holes.has(f)) continue;
    const vertex = (k: number) => (perCorner ? start + k : corners[start + k]!);
    for (let k = 1; k + 1 < count; k++) {
      if (leftHanded) triangles.push(vertex(0), vertex(k + 1), vertex(k));
      else triangles.push(vertex(0), vertex(k), vertex(k + 1));
      triangleFaces.push(f);
    }
  }
  if (outNormals) normalizeAll(outNormals);
  return {
    positions,
    ...(outNormals && { normals: outNormals }),
    ...(outUvs && { uvs: outUvs }),
    indices: Uint32Array.from(triangles),
    triangleFaces: Uint32Array.from(triangleFaces),
  };
}

function intArray(v: ReturnType<UsdStage['value']>): Int32Array | undefined {
  if (v?.kind !== 'array' || v.size !== 1) return undefined;
  return v.value instanceof Int32Array ? v.value : Int32Array.from(v.value);
}

/** Elements a primvar has (through its indices when indexed). */
function elementCount(p: Primvar): number {
  return p.indices ? p.indices.length : p.values.length / p.size;
}

function needed(interpolation: Primvar['interpolation'], faces: number, points: number, corners: number): number {
  switch (interpolation) {
    case 'constant':
      return 1;
    case 'uniform':
      return faces;
    case 'faceVarying':
      return corners;
    default:
      return points;
  }
}

function elementOf(interpolation: Primvar['interpolation'], point: number, face: number, corner: number): number {
  switch (interpolation) {
    case 'constant':
      return 0;
    case 'uniform':
      return face;
    case 'faceVarying':
      return corner;
    default:
      return point;
  }
}

function copyElement(p: Primvar, element: number, out: Float32Array, v: number, size: number): void {
  const at = p.indices ? p.indices[element]! : element;
  if (at < 0 || (at + 1) * p.size > p.values.length) return; // an index past the values: left at zero
  for (let k = 0; k < size; k++) out[v * size + k] = p.values[at * p.size + k]!;
}
