#!/usr/bin/env node
// Fails on high or critical advisories in the installed dependency tree, as `pnpm audit` reports
// them; and when the advisory service cannot be asked, says so and fails with its own code rather
// than passing by default. CI runs it as a job of its own (it needs the registry).
//
//   node scripts/audit-high.mjs                     runs `pnpm audit --json` and judges it
//   node scripts/audit-high.mjs --report file.json  judges a saved `pnpm audit --json` output
//
// Exit codes: 0 no high or critical advisory, 1 some (listed), 2 the audit could not be run.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BLOCKING = new Set(['high', 'critical']);

/** `pnpm audit --json` output: from a file, or from pnpm itself (the version package.json pins). */
function auditReport() {
  const at = process.argv.indexOf('--report');
  if (at > 0) return readFileSync(process.argv[at + 1], 'utf8');
  const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager;
  const run = spawnSync('npx', ['-y', pinned, 'audit', '--json'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (run.error) return JSON.stringify({ error: { code: 'SPAWN', message: run.error.message } });
  return run.stdout;
}

let report;
try {
  report = JSON.parse(auditReport());
} catch (err) {
  console.error(`audit: unreadable output of pnpm audit (${err.message})`);
  process.exit(2);
}
if (report.error) {
  console.error(`audit: could not be run: ${report.error.code}: ${report.error.message}`);
  process.exit(2);
}
const blocking = Object.values(report.advisories ?? {}).filter((a) => BLOCKING.has(a.severity));
const counts = report.metadata?.vulnerabilities ?? {};
console.log(`audit: ${['critical', 'high', 'moderate', 'low'].map((s) => `${counts[s] ?? 0} ${s}`).join(', ')}`);
for (const a of blocking) {
  const paths = (a.findings ?? [])
    .flatMap((f) => f.paths ?? [])
    .slice(0, 3)
    .join('; ');
  console.log(
    `  ${a.severity.toUpperCase()} ${a.module_name} ${a.vulnerable_versions ?? ''}: ` +
      `${a.title} ${a.url ?? ''}${paths ? ` (via ${paths})` : ''}`,
  );
}
process.exit(blocking.length > 0 || (counts.high ?? 0) + (counts.critical ?? 0) > 0 ? 1 : 0);
