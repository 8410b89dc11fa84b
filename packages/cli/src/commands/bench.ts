import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { ModelBenchRow } from '@arsession/bench/models';
import { EXIT, UsageError, type Command, type CommandIO } from '../command.js';
import { printJson } from '../print.js';

/** `arsession bench --models DIR`: our measurements, side by side with the peers, on the user's own models. */
export const benchCommand: Command = {
  name: 'bench',
  summary: 'measure conversion and door detection on your own models, against web-ifc, three.js and three-mesh-bvh',
  usage: `arsession bench --models DIR [--rounds N] [--json | --csv]

  For every model file directly in DIR (format recognised by content): read + merge + USDZ write
  against web-ifc's StreamAllMeshes (IFC) or three.js's USDZExporter (GLB) on the same bytes in
  alternating rounds; BVH build and first-hit rays against three-mesh-bvh on the same triangles;
  door-detection latency (from in front of every IFC door, else from random eye-height gazes).
  Times in ms, median over N rounds (default 5) after a warm-up; ratios are ours ÷ peer taken
  round by round (lower is better). A model we refuse gets its reason instead of numbers.
  --json prints one object; --csv one header line and one line per model.`,
  async run(args, io) {
    const { values } = parseArgs({
      args,
      options: { models: { type: 'string' }, rounds: { type: 'string' }, json: { type: 'boolean' }, csv: { type: 'boolean' } },
      strict: true,
    });
    if (!values.models) throw new UsageError('--models DIR is required');
    if (values.json && values.csv) throw new UsageError('choose one of --json and --csv');
    const rounds = values.rounds === undefined ? 5 : Number(values.rounds);
    if (!Number.isInteger(rounds) || rounds < 1 || rounds > 100)
      throw new UsageError(`--rounds must be an integer from 1 to 100, got ${values.rounds}`);
    if (!existsSync(values.models) || !statSync(values.models).isDirectory()) {
      io.stderr.write(`arsession bench: ${values.models} is not a directory\n`);
      return EXIT.refused;
    }
    // Loaded only here, and installed only by those who ask for it (an optional peer): the peers
    // (three.js, three-mesh-bvh, gltfpack, a canvas) are the bench's own dependencies.
    const bench = await import('@arsession/bench/models').catch((err: unknown) => {
      if ((err as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw err;
      return undefined;
    });
    if (!bench) {
      io.stderr.write(
        'arsession bench: the benchmarks are a package of their own: install ' +
          '@arsession/bench beside @arsession/cli (npm install @arsession/bench)\n',
      );
      return EXIT.refused;
    }
    const { benchModels } = bench;
    const started = Date.now();
    const rows = await benchModels(values.models, {
      rounds,
      onModel: (file, i, n) => io.stderr.write(`[${i + 1}/${n}] ${file}\n`),
    });
    if (values.json)
      printJson(io, { directory: values.models, rounds, node: process.version, seconds: (Date.now() - started) / 1000, models: rows });
    else if (values.csv) printCsv(io, rows);
    else printTable(io, rows);
    return EXIT.ok;
  },
};

/** Every column, in order: a header and how to read it from a row (empty when not measured). */
const COLUMNS: ReadonlyArray<[string, (r: ModelBenchRow) => string | number | undefined]> = [
  ['file', (r) => r.file],
  ['format', (r) => r.format],
  ['bytes', (r) => r.bytes],
  ['triangles', (r) => r.triangles],
  ['convert_ms', (r) => fixed(r.convert?.median, 1)],
  ['usdz_bytes', (r) => r.usdzBytes],
  ['peer', (r) => r.peer?.name ?? r.peerNote],
  ['peer_ms', (r) => fixed(r.peer?.time.median, 1)],
  ['convert_ratio', (r) => fixed(r.peer?.ratio.median, 2)],
  ['bvh_build_ms', (r) => fixed(r.bvh?.buildMs.median, 1)],
  ['three_mesh_bvh_build_ms', (r) => fixed(r.bvh?.peerBuildMs.median, 1)],
  ['bvh_build_ratio', (r) => fixed(r.bvh?.buildRatio.median, 2)],
  ['ray_us', (r) => fixed(r.bvh?.rayUs, 2)],
  ['three_mesh_bvh_ray_us', (r) => fixed(r.bvh?.peerRayUs, 2)],
  ['ray_ratio', (r) => fixed(r.bvh?.rayRatio.median, 2)],
  ['detection_questions', (r) => r.detection?.questions],
  ['detections', (r) => r.detection?.detections],
  ['doors_found', (r) => r.detection?.found],
  ['detection_p50_ms', (r) => fixed(r.detection?.p50Ms, 2)],
  ['detection_p95_ms', (r) => fixed(r.detection?.p95Ms, 2)],
  ['error', (r) => r.error],
];

function fixed(v: number | undefined, digits: number): string | undefined {
  return v === undefined || !Number.isFinite(v) ? undefined : v.toFixed(digits);
}

function printCsv(io: CommandIO, rows: readonly ModelBenchRow[]): void {
  const cell = (v: string | number | undefined) => {
    const s = v === undefined ? '' : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  io.stdout.write(`${COLUMNS.map(([h]) => h).join(',')}\n`);
  for (const r of rows) io.stdout.write(`${COLUMNS.map(([, get]) => cell(get(r))).join(',')}\n`);
}

function printTable(io: CommandIO, rows: readonly ModelBenchRow[]): void {
  const header = ['file', 'triangles', 'convert ms', 'peer ms', 'ours ÷ peer', 'BVH build ÷ 3mb', 'rays ÷ 3mb', 'detect p50/p95 ms'];
  const lines = rows.map((r) =>
    r.error
      ? [r.file, '—', `refused: ${r.error}`]
      : [
          r.file,
          r.triangles?.toLocaleString('en-US') ?? '—',
          fixed(r.convert?.median, 1) ?? '—',
          r.peer ? `${fixed(r.peer.time.median, 1)} (${shortPeer(r.peer.name)})` : `— (${r.peerNote ?? 'no peer'})`,
          r.peer ? `×${fixed(r.peer.ratio.median, 2)}` : '—',
          r.bvh ? `×${fixed(r.bvh.buildRatio.median, 2)}` : '—',
          r.bvh ? `×${fixed(r.bvh.rayRatio.median, 2)}` : '—',
          r.detection && r.detection.detections > 0
            ? `${fixed(r.detection.p50Ms, 1)} / ${fixed(r.detection.p95Ms, 1)} (${r.detection.found}/${r.detection.detections} found)`
            : '—',
        ],
  );
  const widths = header.map((h, i) => Math.max(h.length, ...lines.filter((l) => l.length === header.length).map((l) => l[i]!.length)));
  const format = (cells: readonly string[]) =>
    cells.length === header.length
      ? cells
          .map((c, i) => c.padEnd(widths[i]!))
          .join('  ')
          .trimEnd()
      : cells.join('  ');
  io.stdout.write(`${format(header)}\n`);
  for (const l of lines) io.stdout.write(`${format(l)}\n`);
  io.stdout.write('\nratios are ours ÷ peer, round by round (lower is better); 3mb = three-mesh-bvh\n');
}

function shortPeer(name: string): string {
  return name.startsWith('web-ifc') ? 'web-ifc' : name.startsWith('three.js') ? 'three.js' : name;
}
