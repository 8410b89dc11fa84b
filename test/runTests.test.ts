import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('scripts/run-tests.mjs, the count line CI reads', () => {
  it('counts the tests of a worker that died as failed, names their file, and exits non-zero', () => {
    const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', '--root', 'test/support/crashingSuite'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
    });
    const last = run.stdout.trim().split('\n').pop();
    expect(last).toBe('1 passed, 3 failed');
    expect(run.stderr).toMatch(/not passed: .*killsItsWorker\.suite\.ts: 3 test\(s\) never ran/);
    expect(run.status).toBe(1);
  });

  it('a run where every test passes ends "N passed, 0 failed" and exits 0', () => {
    const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', '--root', 'test/support/crashingSuite', 'passes'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.stdout.trim().split('\n').pop()).toBe('1 passed, 0 failed');
    expect(run.status).toBe(0);
  });
});
