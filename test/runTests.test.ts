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
    expect(last).toBe('1 passed, 4 failed');
    expect(run.stdout).toMatch(/not passed: .*killsItsWorker\.suite\.ts: 3 test\(s\) never ran/);
    expect(run.status).toBe(1);
  });

  it('names each failed test and its message among the last lines, where a CI log that keeps only the tail still shows it', () => {
    const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', '--root', 'test/support/crashingSuite', 'failsAnAssertion'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
    });
    const tail = run.stdout.trim().split('\n').slice(-2);
    expect(tail[1]).toBe('0 passed, 1 failed');
    expect(tail[0]).toMatch(/^not passed: .*failsAnAssertion\.suite\.ts: failed: expects two and gets one \(.*expected 1 to be 2/);
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
