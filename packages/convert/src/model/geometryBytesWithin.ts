/**
 * Peak memory of a conversion per byte of the model's geometry as placed (positions, normals,
 * indices), on top of the process and web-ifc: the placed arrays, their merged copy, and the
 * written package. Measured without a budget (every byte of geometry placed and written): the
 * 27 MB Revit building of `bench/LARGE-MODELS.md` places 536 MB and peaks at 2.3 GB (×3.8 beyond
 * the process); Office_A × 13 places ~40 MB and peaks at 544 MB.
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
