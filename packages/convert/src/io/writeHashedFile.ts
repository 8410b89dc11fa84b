import { createHash } from 'node:crypto';
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

/** What {@link writeHashedFile} wrote. */
export interface WrittenFile {
  bytes: number;
  /** SHA-256 (hex) of the file, taken from the bytes as they were written. */
  sha256: string;
}

/**
 * Bytes handed to one `writeSync` (and one hash update) at most: Node refuses either of 2 GiB or
 * more with a RangeError, and a model delivered without a budget (a rail of 37 M triangles) makes a merged
 * mesh's array that large.
 */
export const WRITE_CHUNK_BYTES = 1 << 30;

/**
 * Writes what `fill` produces to `path` atomically (written aside, then renamed into place),
 * counting and hashing it on the way out: servers need the size and SHA-256 for ETags and
 * integrity, and reading the file back to hash it would be a second pass. Any piece is written
 * in writes of at most `chunkBytes` ({@link WRITE_CHUNK_BYTES}), so a piece of any size is written.
 *
 * @example
 * ```ts
 * const { bytes, sha256 } = writeHashedFile('out/house.glb', (write) => write(glb));
 * ```
 */
export function writeHashedFile(
  path: string,
  fill: (write: (data: Uint8Array, length?: number) => void) => void,
  chunkBytes = WRITE_CHUNK_BYTES,
): WrittenFile {
  const partial = `${path}.${process.pid}.partial`;
  try {
    const out = openSync(partial, 'w');
    const hash = createHash('sha256');
    let bytes = 0;
    try {
      fill((data, length = data.length) => {
        for (let at = 0; at < length; ) {
          const written = writeSync(out, data, at, Math.min(chunkBytes, length - at));
          // Hashed chunk by chunk too: crypto refuses a single update of 2 GiB or more, as writeSync does.
          hash.update(data.subarray(at, at + written));
          at += written;
        }
        bytes += length;
      });
    } finally {
      closeSync(out);
    }
    renameSync(partial, path);
    return { bytes, sha256: hash.digest('hex') };
  } finally {
    rmSync(partial, { force: true });
  }
}
