// The code's form is held by tools, not by review: Biome's formatter and linter (biome.jsonc) run
// before the suite in the test command, and fail it on a badly formatted file or a lint finding;
// here, that they do. And the lines the formatter cannot break (strings, comments) are held to
// the width it formats to: a long message is split into literals joined with +.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/corpus.js';

const BIOME = join(REPO_ROOT, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');
/** The formatter's width (biome.jsonc). */
const WIDTH = 140;
const scratch = mkdtempSync(join(REPO_ROOT, 'test', 'style-scratch-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `biome ci` on one file written into the tree (so the project's configuration applies). */
function biomeCi(name: string, source: string): { status: number | null; output: string } {
  writeFileSync(join(scratch, name), source);
  const r = spawnSync(process.execPath, [BIOME, 'ci', '--colors=off', '--error-on-warnings', relative(REPO_ROOT, join(scratch, name))], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return { status: r.status, output: r.stdout + r.stderr };
}

describe('code style, enforced', () => {
  it('a file as the formatter writes it passes', () => {
    expect(biomeCi('clean.ts', 'export const width = 140;\n').status).toBe(0);
  });

  it('a badly formatted file fails', () => {
    const r = biomeCi('badlyFormatted.ts', 'export  const width=140\n');
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('File content differs from formatting output');
  });

  it('a lint finding fails: a promise left floating, found by the type-aware rules', () => {
    const r = biomeCi(
      'floating.ts',
      'async function read(): Promise<number> {\n  return 1;\n}\nexport function start(): void {\n  read();\n}\n',
    );
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('lint/nursery/noFloatingPromises');
  });

  it(`no source line is over ${WIDTH} columns, strings and comments included`, () => {
    const files = execFileSync('git', ['ls-files', '*.ts', '*.mjs', '*.js'], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && !f.includes('/generated/'));
    const over = files.flatMap((f) =>
      readFileSync(join(REPO_ROOT, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.length > WIDTH ? [`${f}:${i + 1}`] : [])),
    );
    expect(over).toEqual([]);
  });
});
