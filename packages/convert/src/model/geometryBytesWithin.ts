/**
 * Peak memory of a conversion per byte of the model's geometry as read (positions, normals,
 * indices), on top of the process and web-ifc: the read arrays, their merged copy, the
 * simplifier's welded indices and results, and the written package. Measured on the corpus's
 * largest IFC and on repeated Office_A (bench "memory" and "budget" sections).
 */
export const MEMORY_PER_GEOMETRY_BYTE = 4;

/** What a process needs before any model: Node, the readers, web-ifc's module and heap. */
export const CONVERSION_BASE_BYTES = 256 * 1024 * 1024;

/**
 * Bytes of geometry a conversion may read and still stay within `memoryBytes` of memory: what
 * `readModel`'s `maxGeometryBytes` takes from a configured memory bound.
 *
 * @example
 * ```ts
 * geometryBytesWithin(2 * 2 ** 30); // → 448 MiB of geometry in a 2 GiB conversion
 * ```
 */
export function geometryBytesWithin(memoryBytes: number): number {
  return Math.max(0, Math.floor((memoryBytes - CONVERSION_BASE_BYTES) / MEMORY_PER_GEOMETRY_BYTE));
}
