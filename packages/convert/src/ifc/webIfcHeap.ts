import type { IfcAPI, IfcGeometry } from 'web-ifc';

/** The typed views of web-ifc's WASM memory (Emscripten's; replaced whenever the memory grows). */
interface WasmHeaps {
  HEAPF32: Float32Array;
  HEAPU32: Uint32Array;
}

/**
 * A geometry's vertex floats (px py pz nx ny nz per vertex) as a view of web-ifc's memory, not a
 * copy: web-ifc's `GetVertexArray` copies them, and a reader that places every vertex into arrays
 * of its own only needs to read them once. Valid until the geometry is deleted or web-ifc is
 * called again (a call may grow its memory and move it).
 */
export function vertexView(api: IfcAPI, geometry: IfcGeometry): Float32Array {
  const at = geometry.GetVertexData() >>> 2;
  return (api.wasmModule as WasmHeaps).HEAPF32.subarray(at, at + geometry.GetVertexDataSize());
}

/** A geometry's triangle indices as a view of web-ifc's memory; valid as {@link vertexView}'s. */
export function indexView(api: IfcAPI, geometry: IfcGeometry): Uint32Array {
  const at = geometry.GetIndexData() >>> 2;
  return (api.wasmModule as WasmHeaps).HEAPU32.subarray(at, at + geometry.GetIndexDataSize());
}
