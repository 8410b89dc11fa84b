import { readdir, stat } from 'node:fs/promises';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';

/** A model file to convert, and its path relative to the argument that named it (kept in the output folder). */
export interface FoundModel {
  path: string;
  relative: string;
  bytes: number;
}

/** What `findModels` found, and the arguments that named nothing. */
export interface FoundModels {
  models: FoundModel[];
  /** Arguments that are neither a readable file, a folder, nor a pattern matching anything. */
  missing: Array<{ argument: string; reason: string }>;
}

/** File names a folder walk or a pattern takes as models; a file named on its own is taken whatever its name. */
export const MODEL_EXTENSIONS: readonly string[] = ['.ifc', '.ifczip', '.glb', '.usdz'];

/**
 * Expands the inputs of `arsession convert`: a file is taken as it is (its format is told by its
 * content later), a folder is walked for model files (`.ifc`, `.ifczip`, `.glb`, `.usdz`, any
 * case; hidden entries and symbolic links to folders skipped), and a glob pattern (`'scans/**\/*.ifc'`,
 * quoted so the shell leaves it) is matched. Each model keeps its path relative to its folder or
 * the pattern's fixed part; a file found twice is taken once. Sorted by that path per argument.
 *
 * @example
 * ```ts
 * const { models } = await findModels(['models/', 'extra/*.glb']);
 * ```
 */
export async function findModels(inputs: readonly string[], cwd = process.cwd()): Promise<FoundModels> {
  const models: FoundModel[] = [];
  const missing: FoundModels['missing'] = [];
  const seen = new Set<string>();
  const add = async (path: string, rel: string) => {
    const absolute = resolve(cwd, path);
    if (seen.has(absolute)) return;
    seen.add(absolute);
    models.push({ path: absolute, relative: rel, bytes: (await stat(absolute)).size });
  };
  for (const input of inputs) {
    const info = await stat(resolve(cwd, input)).catch((err: NodeJS.ErrnoException) => err);
    if (!(info instanceof Error)) {
      if (info.isDirectory()) {
        const found = await walk(resolve(cwd, input));
        if (found.length === 0) missing.push({ argument: input, reason: `no model files (${MODEL_EXTENSIONS.join(', ')}) in this folder` });
        for (const file of found) await add(file, relative(resolve(cwd, input), file));
      } else {
        await add(input, basename(input));
      }
    } else if (isDynamicPattern(input)) {
      const base = staticBase(input);
      const found = (await glob(input, { cwd, absolute: true, onlyFiles: true, dot: false })).sort();
      if (found.length === 0) missing.push({ argument: input, reason: 'the pattern matches no file' });
      for (const file of found) await add(file, relative(resolve(cwd, base), file));
    } else {
      missing.push({ argument: input, reason: (info as NodeJS.ErrnoException).code ?? info.message });
    }
  }
  return { models, missing };
}

async function walk(folder: string): Promise<string[]> {
  const out: string[] = [];
  const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const path = join(folder, e.name);
    if (e.isDirectory()) out.push(...(await walk(path)));
    else if ((e.isFile() || e.isSymbolicLink()) && MODEL_EXTENSIONS.includes(extname(e.name).toLowerCase())) {
      if (
        e.isSymbolicLink() &&
        !(await stat(path).then(
          (s) => s.isFile(),
          () => false,
        ))
      )
        continue;
      out.push(path);
    }
  }
  return out;
}

/** The leading path segments of a pattern that hold no pattern characters (`scans/2024/**\/*.ifc` → `scans/2024`). */
function staticBase(pattern: string): string {
  const parts = pattern.split(/[\\/]/);
  const fixed: string[] = [];
  for (const part of parts.slice(0, -1)) {
    if (isDynamicPattern(part)) break;
    fixed.push(part);
  }
  return fixed.join(sep) || '.';
}
