import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { UsageError, type Command } from '../command.js';
import { isBatch } from '../batch/isBatch.js';
import type { ArBudget } from '@arsession/convert/pool';
import type { ConvertOptions } from '../ConvertOptions.js';

/** The flags of `arsession convert`. */
export const CONVERT_OPTIONS = {
  out: { type: 'string', short: 'o' },
  glb: { type: 'string' },
  parts: { type: 'string' },
  elements: { type: 'string' },
  timeout: { type: 'string' },
  jobs: { type: 'string', short: 'j' },
  json: { type: 'boolean' },
  'budget-triangles': { type: 'string' },
  'budget-prims': { type: 'string' },
  'budget-texture': { type: 'string' },
  'budget-package-mb': { type: 'string' },
  'no-budget': { type: 'boolean' },
} as const;

/** `arsession convert`: models in, ARKit-ready USDZ (and GLB) out; one file, or whole folders at once. */
export const convertCommand: Command = {
  name: 'convert',
  summary: 'convert IFC, GLB and USDZ models to ARKit-ready USDZ (and GLB): one file, or folders and globs across the cores',
  usage: `arsession convert IN -o OUT.usdz [--glb OUT.glb] [--parts DIR] [--elements FILE.json] [--timeout SECONDS] [BUDGET] [--json]
       arsession convert IN... -o OUT_DIR [--glb GLB_DIR] [--jobs N] [--timeout SECONDS] [BUDGET] [--json]

  Reads each model, writes Y-up metre USDZ for AR Quick Look / RealityKit, and reports counts,
  bounds, the model offset and warnings. A model the readers cannot finish within the timeout
  (default 120 s) is refused. Output files are written atomically.

  One model converts in this process's own thread, which is quickest for one file. Several inputs,
  a folder, a glob ('scans/**/*.ifc', quoted) or an OUT_DIR (existing, or ending in /) convert a
  batch in one process, N at a time (default: one per core), each model contained in a worker
  thread. Folders are walked for .ifc, .ifczip, .glb and .usdz files; each output keeps its path
  relative to the folder or the pattern. On a terminal a progress bar shows files, megabytes and
  the time left; a table sums up at the end. --json prints one JSON line per file, then a summary
  line. Exit code 1 if any model was refused (the reason is in its line and the summary).

  The files are brought within an AR budget, what an iPhone's AR Quick Look opens smoothly: mesh
  prims merged (by storey, then material), triangles simplified with the least error that fits,
  textures scaled down. A model within it is written exactly as read. The report states source and
  delivered figures and the measured deviation in metres. With --parts DIR, a model over the budget
  is also written as parts, each within the budget with its walls, slabs and roofs as read: one
  USDZ per storey (cut into neighbouring cells where a storey is over it), in the same frame as
  OUT.usdz, listed in DIR/parts.json with their storeys, elevations, bounds and figures. With
  --elements FILE.json, an IFC's element records go there: for each GlobalId its class, name,
  type, storey, materials, property sets and quantities as the file states them (gzipped when FILE
  ends in .gz). BUDGET is any of:
    --budget-triangles N     triangles drawn at most (default 100000)
    --budget-prims N         mesh prims at most (default 200)
    --budget-texture PX      longest texture side at most (default 2048)
    --budget-package-mb MB   USDZ package size at most (default 25)
    --no-budget              deliver the model as read`,
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, options: CONVERT_OPTIONS, allowPositionals: true, strict: true });
    if (positionals.length === 0) throw new UsageError('give at least one input model, folder or pattern');
    if (!values.out) throw new UsageError('-o OUT is required (a .usdz file for one model, a folder for several)');
    const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout) * 1000;
    if (timeoutMs !== undefined && !(timeoutMs > 0)) throw new UsageError('--timeout takes a positive number of seconds');
    const jobs = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
    if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError('--jobs takes a positive whole number');
    const budget = budgetFlags(values);
    const options: ConvertOptions = {
      out: values.out,
      json: values.json === true,
      jobs,
      budget,
      ...(values.glb !== undefined && { glb: values.glb }),
      ...(values.parts !== undefined && { parts: values.parts }),
      ...(values.elements !== undefined && { elements: values.elements }),
      ...(timeoutMs !== undefined && { timeoutMs }),
    };
    if (values.parts !== undefined && budget === false)
      throw new UsageError('--parts needs the AR budget: it cannot be given with --no-budget');
    // Each path loads only what it needs: a single small conversion is mostly start-up.
    if (isBatch(positionals, values.out)) {
      if (values.parts !== undefined) throw new UsageError('--parts takes one model (-o OUT.usdz), not a batch');
      if (values.elements !== undefined) throw new UsageError('--elements takes one model (-o OUT.usdz), not a batch');
      return (await import('../batch/convertBatch.js')).convertBatch(positionals, options, io);
    }
    return (await import('../single/convertOne.js')).convertOne(positionals[0]!, options, io);
  },
};

/** The AR budget the flags ask for; a limit that is not a positive number is a usage error naming its flag. */
function budgetFlags(values: {
  'budget-triangles'?: string;
  'budget-prims'?: string;
  'budget-texture'?: string;
  'budget-package-mb'?: string;
  'no-budget'?: boolean;
}): Partial<ArBudget> | false {
  const limits: Partial<ArBudget> = {};
  const set = (flag: keyof typeof values, key: keyof ArBudget, scale: number, whole: boolean): void => {
    const raw = values[flag];
    if (typeof raw !== 'string') return;
    const v = Number(raw);
    if (!(v > 0) || !Number.isFinite(v) || (whole && !Number.isInteger(v)))
      throw new UsageError(`--${flag} takes a positive ${whole ? 'whole ' : ''}number, got ${JSON.stringify(raw)}`);
    limits[key] = Math.round(v * scale);
  };
  set('budget-triangles', 'triangles', 1, true);
  set('budget-prims', 'meshPrims', 1, true);
  set('budget-texture', 'textureSize', 1, true);
  set('budget-package-mb', 'packageBytes', 1024 * 1024, false);
  if (values['no-budget']) {
    if (Object.keys(limits).length > 0) throw new UsageError('--no-budget cannot be given with --budget-* limits');
    return false;
  }
  return limits;
}
