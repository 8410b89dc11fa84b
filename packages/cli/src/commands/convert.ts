import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { UsageError, type Command } from '../command.js';
import { isBatch } from '../batch/isBatch.js';

/** The flags of `arsession convert`. */
export const CONVERT_OPTIONS = {
  out: { type: 'string', short: 'o' }, glb: { type: 'string' }, timeout: { type: 'string' }, jobs: { type: 'string', short: 'j' }, json: { type: 'boolean' },
} as const;

/** What `arsession convert` was asked, once its flags are checked. */
export interface ConvertOptions {
  out: string;
  glb?: string;
  json: boolean;
  jobs: number;
  timeoutMs?: number;
}

/** `arsession convert`: models in, ARKit-ready USDZ (and GLB) out; one file, or whole folders at once. */
export const convertCommand: Command = {
  name: 'convert',
  summary: 'convert IFC, GLB and USDZ models to ARKit-ready USDZ (and GLB): one file, or folders and globs across the cores',
  usage: `arsession convert IN -o OUT.usdz [--glb OUT.glb] [--timeout SECONDS] [--json]
       arsession convert IN... -o OUT_DIR [--glb GLB_DIR] [--jobs N] [--timeout SECONDS] [--json]

  Reads each model, writes Y-up metre USDZ for AR Quick Look / RealityKit, and reports counts,
  bounds, the model offset and warnings. A model the readers cannot finish within the timeout
  (default 120 s) is refused. Output files are written atomically.

  One model converts in this process's own thread, which is quickest for one file. Several inputs,
  a folder, a glob ('scans/**/*.ifc', quoted) or an OUT_DIR (existing, or ending in /) convert a
  batch in one process, N at a time (default: one per core), each model contained in a worker
  thread. Folders are walked for .ifc, .ifczip, .glb and .usdz files; each output keeps its path
  relative to the folder or the pattern. On a terminal a progress bar shows files, megabytes and
  the time left; a table sums up at the end. --json prints one JSON line per file, then a summary
  line. Exit code 1 if any model was refused (the reason is in its line and the summary).`,
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, options: CONVERT_OPTIONS, allowPositionals: true, strict: true });
    if (positionals.length === 0) throw new UsageError('give at least one input model, folder or pattern');
    if (!values.out) throw new UsageError('-o OUT is required (a .usdz file for one model, a folder for several)');
    const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout) * 1000;
    if (timeoutMs !== undefined && !(timeoutMs > 0)) throw new UsageError('--timeout takes a positive number of seconds');
    const jobs = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
    if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError('--jobs takes a positive whole number');
    const options: ConvertOptions = { out: values.out, json: values.json === true, jobs, ...(values.glb !== undefined && { glb: values.glb }), ...(timeoutMs !== undefined && { timeoutMs }) };
    // Each path loads only what it needs: a single small conversion is mostly start-up.
    if (isBatch(positionals, values.out)) return (await import('../batch/convertBatch.js')).convertBatch(positionals, options, io);
    return (await import('../single/convertOne.js')).convertOne(positionals[0]!, options, io);
  },
};
