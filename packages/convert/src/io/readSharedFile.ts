import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * A file's bytes in memory threads can share (a `SharedArrayBuffer`): a helper thread then reads
 * the same bytes without a copy of them (see `StepSyntaxCheck`).
 *
 * @example
 * ```ts
 * const bytes = readSharedFile('house.ifc'); // bytes.buffer instanceof SharedArrayBuffer → true
 * ```
 */
export function readSharedFile(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const bytes = new Uint8Array(new SharedArrayBuffer(size));
    for (let at = 0; at < size; ) {
      const read = readSync(fd, bytes, at, size - at, at);
      // A file cut short while it is read keeps what it had: the reader refuses it as truncated.
      if (read === 0) return bytes.subarray(0, at);
      at += read;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}
