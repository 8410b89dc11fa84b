// No module of ours imports itself back, however far round: a circle means a shared type wants a
// home below both files (the style guide's rule), and every new file would have to step
// round it. Imports are read as TypeScript reads them (ts.preProcessFile: static, type-only,
// re-exports and dynamic import()), relative ones resolved to the source files.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/corpus.js';

/** Every TypeScript source of the packages and the benchmarks (generated code aside). */
function sources(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'generated') walk(path);
      } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) found.push(path);
    }
  };
  for (const pkg of readdirSync(join(REPO_ROOT, 'packages')))
    if (existsSync(join(REPO_ROOT, 'packages', pkg, 'src'))) walk(join(REPO_ROOT, 'packages', pkg, 'src'));
  walk(join(REPO_ROOT, 'bench', 'src'));
  return found;
}

/** The source files a file imports by a relative path. */
function importsOf(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '.ts')))
    .map((target) => (existsSync(target) ? target : target.replace(/\.ts$/, '/index.ts')))
    .filter((target) => existsSync(target));
}

/** The strongly connected groups of more than one file (Tarjan): each an import circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>(),
    low = new Map<string, number>(),
    stack: string[] = [],
    onStack = new Set<string>(),
    found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import circles', () => {
  it('finds one where there is one (a → b → c → a)', () => {
    expect(
      circles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ).map((g) => g.sort()),
    ).toEqual([['a', 'b', 'c']]);
  });

  it("there are none among the packages' and the benchmarks' sources", () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(300);
    const graph = new Map(files.map((f) => [f, importsOf(f)]));
    expect(circles(graph).map((group) => group.map((f) => relative(REPO_ROOT, f)).sort())).toEqual([]);
  });
});
