import type { IfcAPI, IfcGeometry } from 'web-ifc';

/** The typed views of web-ifc's WASM memory (Emscripten's; replaced whenever the memory grows). */
interface WasmHeaps {
  HEAPF32: Float32Array;
  HEAPU32: Uint32Array;
}

/** A geometry's arrays as views of web-ifc's memory. */
export interface GeometryViews {
  /** px py pz nx ny nz per vertex, local to the geometry. */
  vertices: Float32Array;
  indices: Uint32Array;
}

/**
 * A geometry's vertex floats and triangle indices as views of web-ifc's memory, not copies:
 * web-ifc's `GetVertexArray` and `GetIndexArray` copy them, and a reader that places every vertex
 * into arrays of its own only needs to read them once. Every web-ifc call comes first:
 * `GetVertexData` converts the vertices on its first call, which allocates and may grow the
 * memory, and growth detaches every view taken before it. The views are valid until the
 * geometry is deleted or web-ifc is called again.
 *
 * @example
 * ```ts
 * const { vertices, indices } = geometryViews(api, api.GetGeometry(model, id));
 * ```
 */
export function geometryViews(api: IfcAPI, geometry: IfcGeometry): GeometryViews {
  const vertexAt = geometry.GetVertexData() >>> 2,
    vertexCount = geometry.GetVertexDataSize();
  const indexAt = geometry.GetIndexData() >>> 2,
    indexCount = geometry.GetIndexDataSize();
  const heaps = api.wasmModule as WasmHeaps;
  return {
    vertices: heaps.HEAPF32.subarray(vertexAt, vertexAt + vertexCount),
    indices: heaps.HEAPU32.subarray(indexAt, indexAt + indexCount),
  };
}

/**
 * Frees a copy web-ifc hands over as an Embind handle (a `Vector` of ids, a mesh's `geometries`),
 * which its typings give no `delete`. Left to Embind's finalizer, every such handle keeps web-ifc's
 * whole heap alive for several collections after the instance is disposed, beside the budget's work.
 *
 * @example
 * ```ts
 * const lineIds = api.GetLineIDsWithType(model, IFCDOOR);
 * try { … } finally { deleteHandle(lineIds); }
 * ```
 */
export function deleteHandle(handle: object): void {
  (handle as { delete?: () => void }).delete?.();
}
