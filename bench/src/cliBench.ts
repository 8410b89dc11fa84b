// `arsession convert` as researchers run it: one small model per process (start-up, read and write
// apart, beside assimp), and whole folders in one process (beside a process per file, and assimp's).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setUpAssimp, type AssimpSetup } from './assimpPeer.js';
import { BENCH_DIR, CORPUS_DIR } from './corpus.js';
import { summarize, type Sample } from './sample.js';

const ARSESSION_BIN = join(BENCH_DIR, '..', 'packages', 'cli', 'bin', 'arsession.js');

/** One small model converted by one `arsession convert` process. */
export interface CliSingleRow {
  file: string;
  /** Wall time of the process (ms). */
  wall: Sample;
  /** Reading the model in the conversion worker (ms), from the `--json` report. */
  read: Sample;
  /** Merging and writing the USDZ (ms), from the same report. */
  write: Sample;
  /** The rest: Node, the CLI and its worker starting (web-ifc loaded), and the exit (ms). */
  startup: Sample;
  /** `assimp export FILE OUT.glb` on the same file, rounds alternating, when assimp reads it. */
  assimp?: Sample;
}

/** A folder converted one way. */
export interface CliFolderRow {
  folder: string;
  how: string;
  files: number;
  converted: number;
  megabytes: number;
  /** Wall time (s). */
  seconds: Sample;
}

/** What {@link benchCli} measured. */
export interface CliBench {
  /** `node -e 0`: the floor every process pays (ms). */
  nodeStart: Sample;
  /** `arsession --version`: what the CLI itself costs before any command loads what it needs (ms); absent in older results. */
  version?: Sample;
  single: CliSingleRow[];
  folders: CliFolderRow[];
  assimp: AssimpSetup;
}

/** Options of {@link benchCli}. */
export interface CliBenchOptions {
  /** Runs of each way a folder is converted. Default: the rounds, at most 3. */
  folderRounds: number;
  /**
   * Each folder one way only (one process, 2 jobs; and assimp's): `--jobs 1` and a process per
   * file are the better part of a minute each, and `--quick` is for trying the bench.
   */
  quick: boolean;
}

const SINGLE = [
  ['ifc', 'IfcOpenHouse_IFC4.ifc'],
  ['glb', 'Box.glb'],
  ['usdz', 'clean_clean_arkit.usdz'],
] as const;

/**
 * Times `arsession convert` as a process on small files and on whole corpus folders.
 *
 * @example
 * ```ts
 * const cli = await benchCli(5);
 * ```
 */
export async function benchCli(rounds: number, options: Partial<CliBenchOptions> = {}): Promise<CliBench> {
  const { folderRounds = Math.max(1, Math.min(rounds, 3)), quick = false } = options;
  const out = mkdtempSync(join(tmpdir(), 'bench-cli-'));
  const assimp = setUpAssimp();
  try {
    const nodeStart = summarize(Array.from({ length: rounds }, () => timed(() => run(process.execPath, ['-e', '0'])).ms));
    const version = summarize(Array.from({ length: rounds }, () => timed(() => run(process.execPath, [ARSESSION_BIN, '--version'])).ms));
    const single = SINGLE.map(([kind, file]) =>
      benchSingle(join(CORPUS_DIR, kind, file), file, out, rounds, assimp.available && kind === 'ifc'),
    );
    const folders = [
      ...benchFolder(CORPUS_DIR, 'the corpus (IFC, GLB, USDZ)', out, folderRounds, false, quick),
      ...benchFolder(join(CORPUS_DIR, 'ifc'), 'corpus/ifc', out, folderRounds, assimp.available, quick),
    ];
    return { nodeStart, version, single, folders, assimp };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function benchSingle(input: string, file: string, out: string, rounds: number, withAssimp: boolean): CliSingleRow {
  const wall: number[] = [],
    read: number[] = [],
    write: number[] = [],
    startup: number[] = [],
    peer: number[] = [];
  const ours = () => {
    const { ms, stdout } = timed(() => run(process.execPath, [ARSESSION_BIN, 'convert', input, '-o', join(out, 'one.usdz'), '--json']));
    const { timings } = JSON.parse(stdout) as { timings: { read_ms: number; write_ms: number } };
    wall.push(ms);
    read.push(timings.read_ms);
    write.push(timings.write_ms);
    startup.push(ms - timings.read_ms - timings.write_ms);
  };
  const theirs = () => peer.push(timed(() => run('assimp', ['export', input, join(out, 'assimp.glb')])).ms);
  // A first run of each fills the OS file cache and web-ifc's code cache; it is not counted.
  run(process.execPath, [ARSESSION_BIN, 'convert', input, '-o', join(out, 'one.usdz')]);
  if (withAssimp) run('assimp', ['export', input, join(out, 'assimp.glb')]);
  for (let i = 0; i < rounds; i++) {
    if (withAssimp && i % 2 === 1) theirs();
    ours();
    if (withAssimp && i % 2 === 0) theirs();
  }
  console.error(`  cli ${file}: ${summarize(wall).median.toFixed(0)} ms a process`);
  return {
    file,
    wall: summarize(wall),
    read: summarize(read),
    write: summarize(write),
    startup: summarize(startup),
    ...(withAssimp && { assimp: summarize(peer) }),
  };
}

function benchFolder(folder: string, label: string, out: string, rounds: number, withAssimp: boolean, quick: boolean): CliFolderRow[] {
  const files = modelFiles(folder);
  const megabytes = files.reduce((n, f) => n + statSync(f).size, 0) / 1e6;
  const rows: CliFolderRow[] = [];
  const measure = (how: string, once: () => number) => {
    const seconds: number[] = [];
    let converted = 0;
    for (let i = 0; i < rounds; i++) {
      rmSync(join(out, 'folder'), { recursive: true, force: true });
      const t = performance.now();
      converted = once();
      seconds.push((performance.now() - t) / 1000);
    }
    rows.push({ folder: label, how, files: files.length, converted, megabytes, seconds: summarize(seconds) });
    console.error(`  cli ${label}, ${how}: ${summarize(seconds).median.toFixed(1)} s`);
  };
  const batch = (jobs: number) => () => {
    const r = spawnSync(process.execPath, [ARSESSION_BIN, 'convert', folder, '-o', join(out, 'folder'), '--json', '--jobs', String(jobs)], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    const summary = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { summary: { converted: number } };
    return summary.summary.converted;
  };
  measure('`arsession convert DIR -o OUT` (one process, 2 jobs)', batch(2));
  if (!quick) {
    measure('same, `--jobs 1`', batch(1));
    measure(
      'one `arsession convert FILE` process per file',
      () =>
        files.filter(
          (f, i) => spawnSync(process.execPath, [ARSESSION_BIN, 'convert', f, '-o', join(out, 'folder', `${i}.usdz`)]).status === 0,
        ).length,
    );
  }
  if (withAssimp) {
    measure(
      'one `assimp export FILE` process per file (GLB out)',
      () =>
        files.filter(
          (f, i) => spawnSync('assimp', ['export', f, join(out, `assimp-${i}.glb`)], { stdio: 'ignore', timeout: 300_000 }).status === 0,
        ).length,
    );
  }
  return rows;
}

/** The model files a folder walk takes (the CLI's own rule: .ifc, .ifczip, .glb, .usdz). */
function modelFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...modelFiles(path));
    else if (/\.(ifc|ifczip|glb|usdz)$/i.test(entry.name)) found.push(path);
  }
  return found.sort();
}

function timed(fn: () => string): { ms: number; stdout: string } {
  const t = performance.now();
  const stdout = fn();
  return { ms: performance.now() - t, stdout };
}

/** Runs a command to completion and returns its stdout; a failure ends the bench with its stderr. */
function run(command: string, args: readonly string[]): string {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0 && command !== 'assimp') throw new Error(`${command} ${args.join(' ')}: ${r.stderr.trim().split('\n').at(-1)}`);
  return r.stdout;
}
