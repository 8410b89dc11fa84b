import { join } from 'node:path';
import type { FoundModel } from './findModels.js';

/**
 * Where each model's outputs go under `folder`: its relative path with the extension `ext`
 * instead of its own (`site/house.ifc` → `out/site/house.usdz`). Two models that would land on
 * one file are told apart by a number (`house-2.usdz`), so no output overwrites another.
 *
 * @example
 * ```ts
 * outputPaths(models, 'out', '.usdz'); // → ['out/site/house.usdz', 'out/site/house-2.usdz']
 * ```
 */
export function outputPaths(models: readonly FoundModel[], folder: string, ext: string): string[] {
  const taken = new Set<string>();
  return models.map((m) => {
    const stem = m.relative.replace(/\.[^./\\]*$/, '');
    let path = join(folder, `${stem}${ext}`);
    for (let n = 2; taken.has(path.toLowerCase()); n++) path = join(folder, `${stem}-${n}${ext}`);
    taken.add(path.toLowerCase());
    return path;
  });
}
