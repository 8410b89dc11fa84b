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
  const file = new HashedFile(path, chunkBytes);
  try {
    fill((data, length) => file.write(data, length));
    return file.commit();
  } finally {
    file.discard();
  }
}

/**
 * {@link writeHashedFile} for a fill that awaits between writes (each part of an archive fitted
 * to the budget before it is written), so only one piece is held at a time.
 *
 * @example
 * ```ts
 * await writeHashedFileAsync('out/parts.zip', async (write) => { for (const p of parts) write(await make(p)); });
 * ```
 */
export async function writeHashedFileAsync(
  path: string,
  fill: (write: (data: Uint8Array, length?: number) => void) => Promise<void>,
  chunkBytes = WRITE_CHUNK_BYTES,
): Promise<WrittenFile> {
  const file = new HashedFile(path, chunkBytes);
  try {
    await fill((data, length) => file.write(data, length));
    return file.commit();
  } finally {
    file.discard();
  }
}

/** A file being written aside (`<path>.<pid>.partial`), counted and hashed: committed into place, or discarded. */
class HashedFile {
  private readonly partial: string;
  private readonly out: number;
  private readonly hash = createHash('sha256');
  private bytes = 0;
  private open = true;

  constructor(
    private readonly path: string,
    private readonly chunkBytes: number,
  ) {
    this.partial = `${path}.${process.pid}.partial`;
    this.out = openSync(this.partial, 'w');
  }

  write(data: Uint8Array, length = data.length): void {
    for (let at = 0; at < length; ) {
      const written = writeSync(this.out, data, at, Math.min(this.chunkBytes, length - at));
      // Hashed chunk by chunk too: crypto refuses a single update of 2 GiB or more, as writeSync does.
      this.hash.update(data.subarray(at, at + written));
      at += written;
    }
    this.bytes += length;
  }

  /** Closes the file and renames it into place. */
  commit(): WrittenFile {
    this.close();
    renameSync(this.partial, this.path);
    return { bytes: this.bytes, sha256: this.hash.digest('hex') };
  }

  /** Removes what is left aside (nothing after a commit). */
  discard(): void {
    this.close();
    rmSync(this.partial, { force: true });
  }

  private close(): void {
    if (!this.open) return;
    this.open = false;
    closeSync(this.out);
  }
}
