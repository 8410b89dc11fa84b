#!/usr/bin/env node
// Runs the suite on this machine's Node and again on each supported runtime it does not have
// (fetched by scripts/node-runtime.mjs), prints each runtime's count, and ends with the one line CI
// reads: the totals, "N passed, N failed". Arguments go to every run (a file filter, say).
// ARSESSION_TEST_RUNTIMES overrides the extra runtimes ("24.21.0,22.23.3"; "" for none).
import { spawnSync } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeRuntime } from './node-runtime.mjs';

/** Node 24 is the LTS production runs; this machine's own Node (20 here) is the other. */
const EXTRA_RUNTIMES = ['24.21.0'];

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const extra = (process.env.ARSESSION_TEST_RUNTIMES ?? EXTRA_RUNTIMES.join(','))
  .split(',')
  .map((v) => v.trim())
  .filter(Boolean)
  .filter((v) => v !== process.versions.node);

const counts = [];

// Before the suite: the tree as the formatter writes it and with no lint finding (biome.jsonc).
// A finding fails CI as a failed check in the totals; the suite still runs, so one run says all.
console.log('=== format and lint (biome ci) ===');
const style = spawnSync(
  process.execPath,
  [join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome'), 'ci', '--colors=off', '--error-on-warnings', '.'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
counts.push({
  version: undefined,
  label: 'format and lint (biome ci)',
  passed: style.status === 0 ? 1 : 0,
  failed: style.status === 0 ? 0 : 1,
});

// Fetched before any run: each run compares its conversions with another runtime's (ARSESSION_COMPARE_NODE).
const runtimes = [{ node: process.execPath, version: process.versions.node }];
for (const version of extra) {
  try {
    runtimes.push({ node: nodeRuntime(version), version });
  } catch (err) {
    console.error(`Node ${version} could not be fetched: ${err.message}`);
    counts.push({ version, passed: 0, failed: 1 });
  }
}

const runOn = ({ node, version }, compareWith) => {
  console.log(`\n=== the suite on Node ${version} ===`);
  // First on the PATH too: what the tests start by name (the CLI's `#!/usr/bin/env node`) runs on it.
  const env = {
    ...process.env,
    PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`,
    ...(compareWith && { ARSESSION_COMPARE_NODE: compareWith.node }),
  };
  const run = spawnSync(node, [join(root, 'scripts', 'run-tests.mjs'), ...process.argv.slice(2)], {
    cwd: root,
    env,
    stdio: ['inherit', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  process.stdout.write(run.stdout ?? '');
  const line = /^(\d+) passed, (\d+) failed$/m.exec((run.stdout ?? '').trim().split('\n').pop() ?? '');
  const passed = line ? Number(line[1]) : 0;
  const failed = line ? Number(line[2]) : 1;
  const notPassed = (run.stdout ?? '').split('\n').filter((l) => l.startsWith('not passed: '));
  counts.push({ version, passed, failed: run.status === 0 ? failed : Math.max(failed, 1), notPassed });
};

runtimes.forEach((runtime, i) => runOn(runtime, i === 0 ? runtimes[1] : runtimes[0]));

console.log('');
// What did not pass, named once more at the very end: CI keeps only the tail of a long run.
for (const c of counts) for (const line of c.notPassed ?? []) console.log(`Node ${c.version}: ${line}`);
for (const c of counts) console.log(`${c.label ?? `Node ${c.version}`}: ${c.passed} passed, ${c.failed} failed`);
const passed = counts.reduce((n, c) => n + c.passed, 0),
  failed = counts.reduce((n, c) => n + c.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
