// The other IFC converter a user would reach for on Debian: assimp's command line (`assimp export`).
// It writes no USD, so it is timed writing GLB, each converter as the command a user runs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGlb } from '@arsession/convert';
import { BENCH_DIR, CORPUS_DIR, corpusFiles } from './corpus.js';
import { compare, type Sample } from './sample.js';

/** assimp on this machine, or why the bench runs without it. */
export type AssimpSetup = { available: true; version: string } | { available: false; note: string };

/** One corpus IFC through both command lines. */
export interface AssimpRow {
  file: string;
  /** `arsession convert FILE -o OUT.usdz` as a process (Node start-up included), when assimp read the file too. */
  ours?: Sample;
  /** `assimp export FILE OUT.glb`, when it read the file. */
  assimp?: Sample;
  /** ours ÷ assimp, round by round. */
  ratio?: Sample;
  /** Triangles in assimp's GLB, against web-ifc's count for the same file. */
  assimpTriangles?: number;
  assimpError?: string;
}

const ARSESSION_BIN = join(BENCH_DIR, '..', 'packages', 'cli', 'bin', 'arsession.js');

/**
 * The bench's own set-up step for assimp: found on PATH, else installed from Debian
 * (`assimp-utils`) when this process may run apt-get (root), else skipped with a note saying how.
 */
export function setUpAssimp(): AssimpSetup {
  const version = () => {
    const r = spawnSync('assimp', ['version'], { encoding: 'utf8' });
    return r.status === 0 ? (/Version (\S+)/i.exec(r.stdout)?.[1] ?? 'unknown version') : undefined;
  };
  const found = version();
  if (found) return { available: true, version: found };
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version']).status !== 0) {
    return { available: false, note: 'assimp not installed (run `apt-get install assimp-utils` as root to include it)' };
  }
  console.error('  installing assimp-utils from Debian for the converter comparison');
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '-q', 'assimp-utils'], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status === 0;
  if (!install()) {
    spawnSync('apt-get', ['update', '-q'], { stdio: 'ignore' });
    install();
  }
  const installed = version();
  return installed
    ? { available: true, version: installed }
    : { available: false, note: 'assimp-utils could not be installed from Debian' };
}

/** Every corpus IFC (or the subset) through `arsession convert` and `assimp export`, rounds alternating. */
export async function benchAssimp(rounds: number, only?: (file: string) => boolean): Promise<{ setup: AssimpSetup; rows: AssimpRow[] }> {
  const setup = setUpAssimp();
  if (!setup.available) {
    console.error(`  ${setup.note}`);
    return { setup, rows: [] };
  }
  const out = mkdtempSync(join(tmpdir(), 'bench-assimp-'));
  const rows: AssimpRow[] = [];
  try {
    for (const file of corpusFiles('ifc').filter((f) => f.endsWith('.ifc') && (!only || only(f)))) {
      const input = join(CORPUS_DIR, 'ifc', file);
      const ours = () => {
        const failed = run(process.execPath, [ARSESSION_BIN, 'convert', input, '-o', join(out, 'ours.usdz')]);
        if (failed) throw new Error(`arsession convert ${file}: ${failed}`);
      };
      const assimp = () => run('assimp', ['export', input, join(out, 'assimp.glb')]);
      const first = assimp();
      if (first) {
        // assimp reads IFC2x3 only, and not all of it: its refusal is the result for this file.
        rows.push({ file, assimpError: first });
        console.error(`  assimp ${file}: refused (${first})`);
        continue;
      }
      const assimpTriangles = (await readGlb(new Uint8Array(readFileSync(join(out, 'assimp.glb'))))).stats.triangles;
      const c = await compare(ours, assimp, rounds);
      rows.push({ file, ours: c.ours, assimp: c.peer, ratio: c.ratio, assimpTriangles });
      console.error(`  assimp ${file}: ours/assimp ×${c.ratio.median.toFixed(2)}`);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return { setup, rows };
}

/** Runs a command to completion; resolves to its last stderr line on failure, else undefined. */
function run(command: string, args: readonly string[]): string | undefined {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 300_000 });
  if (r.status === 0) return undefined;
  const lines = `${r.stderr}\n${r.stdout}`
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^\d+ %$/.test(l));
  return (lines.find((l) => /error/i.test(l)) ?? lines[lines.length - 1] ?? (r.signal ? `killed by ${r.signal}` : `exit ${r.status}`))
    .replace(/^ERROR:\s*/, '')
    .slice(0, 160);
}
