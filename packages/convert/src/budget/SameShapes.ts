import type { TriangleMesh } from '@arsession/geometry';

/**
 * Values kept by shape: a mesh and the surface it was measured against, byte for byte. What was
 * measured on one copy of a building, or one placement of a geometry exported again at each
 * place, is found again for the next without measuring it. Shapes are told apart by a hash of
 * their bytes and confirmed by comparing them, so no two different shapes ever share a value.
 *
 * @example
 * ```ts
 * const measured = new SameShapes<number>();
 * measured.add(door, doorWithGlass, 0.04);
 * measured.find(copyOfDoor, copyOfDoorWithGlass); // → 0.04
 * ```
 */
export class SameShapes<T> {
  private readonly byHash = new Map<number, Array<{ mesh: TriangleMesh; surface: TriangleMesh; value: T }>>();

  /** The value kept for this shape, if any. */
  find(mesh: TriangleMesh, surface: TriangleMesh): T | undefined {
    const bucket = this.byHash.get(shapeHash(mesh, surface));
    return bucket?.find((e) => sameMesh(e.mesh, mesh) && sameMesh(e.surface, surface))?.value;
  }

  /** Keeps a value for this shape. */
  add(mesh: TriangleMesh, surface: TriangleMesh, value: T): void {
    const hash = shapeHash(mesh, surface);
    const bucket = this.byHash.get(hash) ?? [];
    bucket.push({ mesh, surface, value });
    this.byHash.set(hash, bucket);
  }
}

/** FNV-1a over the 32-bit words of both meshes' arrays, each array's length mixed in before it. */
function shapeHash(mesh: TriangleMesh, surface: TriangleMesh): number {
  return fnv1a([mesh.positions, mesh.indices, surface.positions, surface.indices], true);
}

/** FNV-1a over the 32-bit words of `arrays`, in order; with `lengths`, each one's word count before its words. */
export function fnv1a(arrays: ReadonlyArray<Float32Array | Uint32Array | Float64Array>, lengths: boolean): number {
  let h = 0x811c9dc5;
  for (const array of arrays) {
    const words = new Uint32Array(array.buffer, array.byteOffset, array.byteLength / 4);
    if (lengths) h = Math.imul(h ^ words.length, 0x01000193);
    for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i]!, 0x01000193);
  }
  return h >>> 0;
}

function sameMesh(a: TriangleMesh, b: TriangleMesh): boolean {
  return sameWords(a.positions, b.positions) && sameWords(a.indices, b.indices);
}

/** Arrays from this many words are compared by the C library (`memcmp`): ten times faster from a few hundred. */
const NATIVE_FROM_WORDS = 64;

/** Whether two arrays hold the same 32-bit words (a float's bits, not its value: −0 and 0 differ, a NaN equals itself). */
export function sameWords(a: Float32Array | Uint32Array, b: Float32Array | Uint32Array): boolean {
  if (a.length !== b.length) return false;
  if (a.length >= NATIVE_FROM_WORDS)
    return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length),
    y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/**
 * A number that tells a mesh placed by a matrix from most others: FNV-1a over its arrays' words
 * and the matrix. Equal for equal bytes; for ordering, not for identity.
 */
export function contentKey(mesh: TriangleMesh, matrix: Float64Array): number {
  return fnv1a([mesh.positions, mesh.indices, matrix], false);
}
