import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** bench/ in the repository. */
export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The shared corpus beside the repository. */
export const CORPUS_DIR = resolve(BENCH_DIR, '..', '..', 'shared', 'corpus');

/** Corpus files of one kind (names), failing loudly when the corpus is not there. */
export function corpusFiles(kind: 'ifc' | 'glb' | 'usdz', dir = CORPUS_DIR): string[] {
  if (!existsSync(join(dir, kind))) throw new Error(`no ${kind} folder in ${dir}`);
  return readdirSync(join(dir, kind))
    .filter((f) => !f.startsWith('.'))
    .sort();
}

/** A fresh copy of a file's bytes (workers take ownership of what they are given). */
export function bytesOf(path: string): Uint8Array {
  return new Uint8Array(readFileSync(path));
}
