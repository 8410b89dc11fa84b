import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

/**
 * Writes a file made of parts in one `writev` (a package's entries, a GLB's chunks: no copy into
 * one buffer, one system call) and returns its size and SHA-256.
 *
 * @example
 * ```ts
 * const { bytes, sha256 } = await writeParts(path, anchorUsdz(usdz, options));
 * ```
 */
export async function writeParts(path: string, parts: readonly Uint8Array[]): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for (const p of parts) {
    hash.update(p);
    bytes += p.length;
  }
  const file = await open(path, 'wx');
  try {
    // writev takes at most IOV_MAX (1024) buffers a call and may write less than asked: go on until all is written.
    let written = 0;
    while (written < bytes) {
      let skip = written;
      const rest: Uint8Array[] = [];
      for (const p of parts) {
        if (skip >= p.length) {
          skip -= p.length;
          continue;
        }
        rest.push(skip > 0 ? p.subarray(skip) : p);
        skip = 0;
        if (rest.length === 1024) break;
      }
      written += (await file.writev(rest)).bytesWritten;
    }
  } finally {
    await file.close();
  }
  return { bytes, sha256: hash.digest('hex') };
}
