#!/usr/bin/env node
// Runs every vitest suite and ends with the one line CI reads: "N passed, N failed".
// The counts come from vitest's JSON reporter, not from its console summary.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, '.test-results');
const outFile = join(outDir, 'vitest.json');
rmSync(outFile, { force: true });
mkdirSync(outDir, { recursive: true });

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const run = spawnSync(
  process.execPath,
  [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${outFile}`, ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);

let passed = 0, failed = 0, total = 0;
try {
  const report = JSON.parse(readFileSync(outFile, 'utf8'));
  passed = report.numPassedTests;
  failed = report.numFailedTests;
  total = report.numTotalTests;
  // A suite that fails to load has no failed tests but is still a failure.
  failed += report.testResults.filter((r) => r.status === 'failed' && r.assertionResults.length === 0).length;
} catch (err) {
  console.error(`could not read vitest's JSON report (${err.message})`);
  failed += 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status === 0 && failed === 0 && total > 0 ? 0 : 1);
