#!/usr/bin/env node
// Runs every vitest suite and ends with the one line CI reads: "N passed, N failed".
// The counts come from vitest's JSON reporter, not from its console summary, and nothing that did
// not pass hides in them: a test that never ran (its worker died under it), a test file that never
// reported, a suite that failed to load, or a vitest that failed outside any test each count as failed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, '.test-results');
const outFile = join(outDir, `vitest-${process.pid}.json`);
mkdirSync(outDir, { recursive: true });
rmSync(outFile, { force: true });

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const args = process.argv.slice(2);

// The files vitest would run (once per project that includes them), without running them.
const listFile = join(outDir, `vitest-list-${process.pid}.json`);
const listed = spawnSync(process.execPath, [vitest, 'list', '--filesOnly', `--json=${listFile}`, ...args], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
let expected = [];
try {
  expected = JSON.parse(readFileSync(listFile, 'utf8')).map((f) => f.file);
} catch {
  console.error(`could not list the test files (${(listed.stderr || '').trim().split('\n').pop()})`);
} finally {
  rmSync(listFile, { force: true });
}

const run = spawnSync(process.execPath, [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${outFile}`, ...args], {
  cwd: root,
  stdio: 'inherit',
});

let passed = 0,
  failed = 0;
const problems = [];
try {
  const report = JSON.parse(readFileSync(outFile, 'utf8'));
  passed = report.numPassedTests;
  // Every test that did not pass: failed, and never run (pending when its worker died). The suite
  // skips nothing on purpose, so a skipped test is one that did not run either.
  failed = report.numTotalTests - report.numPassedTests;
  for (const file of report.testResults) {
    // Named again here, at the end: CI keeps only the tail of what a run prints.
    for (const a of file.assertionResults.filter((t) => t.status === 'failed')) {
      problems.push(`${file.name}: failed: ${a.fullName} (${(a.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300)})`);
    }
    const notRun = file.assertionResults.filter((a) => a.status !== 'passed' && a.status !== 'failed');
    if (notRun.length) problems.push(`${file.name}: ${notRun.length} test(s) never ran (${notRun[0].fullName} …)`);
    // A suite that fails to load has no tests at all but is still a failure.
    if (file.status === 'failed' && file.assertionResults.length === 0) {
      failed += 1;
      problems.push(`${file.name}: the suite failed to load (${(file.message || '').split('\n')[0]})`);
    }
  }
  // A file vitest was to run that never reported (once per project that includes it).
  const reported = new Map();
  for (const file of report.testResults) reported.set(file.name, (reported.get(file.name) ?? 0) + 1);
  for (const file of new Set(expected)) {
    const missing = expected.filter((f) => f === file).length - (reported.get(file) ?? 0);
    if (missing > 0) {
      failed += missing;
      problems.push(`${file}: never reported`);
    }
  }
  if (expected.length === 0) failed += 1;
} catch (err) {
  console.error(`could not read vitest's JSON report (${err.message})`);
  failed += 1;
}
rmSync(outFile, { force: true });
// Vitest failed for a reason no test shows (an unhandled error, a worker that exited): one more.
if (run.status !== 0 && failed === 0) {
  failed = 1;
  problems.push(`vitest exited with ${run.status ?? run.signal} though every test it reported passed`);
}
// On stdout, just before the count: the caller (test-on-runtimes) repeats these lines at its end.
for (const p of problems) console.log(`not passed: ${p}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status === 0 && failed === 0 && passed > 0 ? 0 : 1);
