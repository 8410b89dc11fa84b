import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

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
    const bytes = new Uint8Array(new SharedArrayBuffer(fstatSync(fd).size));
    for (let at = 0; at < bytes.length; ) {
      const read = readSync(fd, bytes, at, bytes.length - at, at);
      // A file cut short while it is read keeps what it had: the reader refuses it as truncated.
      if (read === 0) return bytes.subarray(0, at);
      at += read;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/**
 * {@link readSharedFile} without holding the thread while the file is read: what a thread that
 * has more to do meanwhile (a batch's progress, its other models) reads a large model with.
 *
 * @example
 * ```ts
 * const bytes = await readSharedFileAsync('house.ifc'); // bytes.buffer instanceof SharedArrayBuffer → true
 * ```
 */
export async function readSharedFileAsync(path: string): Promise<Uint8Array> {
  const file = await open(path, 'r');
  try {
    const bytes = new Uint8Array(new SharedArrayBuffer((await file.stat()).size));
    for (let at = 0; at < bytes.length; ) {
      const { bytesRead } = await file.read(bytes, at, bytes.length - at, at);
      if (bytesRead === 0) return bytes.subarray(0, at);
      at += bytesRead;
    }
    return bytes;
  } finally {
    await file.close();
  }
}

/**
 * `bytes` in shared memory: themselves when they are, a copy from `fromBytes` on, else as they
 * are. What an IFC unpacked from an `.ifczip` is put in, so that a large one is checked beside
 * web-ifc's parse as a plain file read by {@link readSharedFile} is.
 *
 * @example
 * ```ts
 * const step = sharedFrom(unzipIfc(zipped), 8 * 2 ** 20);
 * ```
 */
export function sharedFrom(bytes: Uint8Array, fromBytes: number): Uint8Array {
  if (bytes.buffer instanceof SharedArrayBuffer || bytes.length < fromBytes) return bytes;
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
  shared.set(bytes);
  return shared;
}
