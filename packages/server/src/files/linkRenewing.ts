import { copyFileSync, linkSync, renameSync } from 'node:fs';

/**
 * `linkSync(from, to)`, renewing `from` when it has all the names its file system allows (ext4:
 * 65,000): a conversion cache file shared by that many sessions is replaced, atomically, by a
 * fresh copy of itself, which starts a new count. The names already linked keep the old inode.
 *
 * @example
 * ```ts
 * linkRenewing(cachePath, stagedPath);
 * ```
 */
export function linkRenewing(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EMLINK') throw err;
    const fresh = `${from}.renew-${process.pid}`;
    copyFileSync(from, fresh);
    renameSync(fresh, from);
    linkSync(from, to);
  }
}
