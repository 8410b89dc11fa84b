import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/corpus.js';

/**
 * Every package README carries a runnable example followed by its output. This runs the example
 * with plain Node against the built package and compares what it prints, so examples cannot rot.
 */
const READMES = ['packages/geometry', 'packages/convert', 'packages/server'];

function exampleOf(readme: string): { code: string; output: string } {
  const m = /```js\n([\s\S]*?)```\s*\n+Output:\s*\n+```text\n([\s\S]*?)```/.exec(readme);
  if (!m) throw new Error('README has no ```js example followed by its ```text output');
  return { code: m[1]!, output: m[2]! };
}

describe('README examples run and print what they say', () => {
  it.each(READMES)('%s', (dir) => {
    const cwd = join(REPO_ROOT, dir);
    const { code, output } = exampleOf(readFileSync(join(cwd, 'README.md'), 'utf8'));
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(output.trim());
  });
});
