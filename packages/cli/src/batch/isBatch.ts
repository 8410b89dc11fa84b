import { statSync } from 'node:fs';

/**
 * Whether the inputs of `arsession convert` make a batch: several of them, a folder or a glob
 * among them, or a folder (or `…/`) to write to. A path that exists is never a pattern, whatever
 * characters its name holds.
 *
 * @example
 * ```ts
 * isBatch(['house.ifc'], 'house.usdz'); // → false
 * isBatch(['scans/*.ifc'], 'out/'); // → true
 * ```
 */
export function isBatch(inputs: readonly string[], out: string): boolean {
  return inputs.length > 1 || out.endsWith('/') || isFolder(out) || inputs.some((p) => isFolder(p) || (looksLikeGlob(p) && !exists(p)));
}

/** Glob syntax (`*`, `?`, `[…]`, `{…}`, extglobs), as tinyglobby reads it; checked without loading tinyglobby (20 ms). */
function looksLikeGlob(path: string): boolean {
  return /[*?[\]{}]|[!@+]\(/.test(path);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
