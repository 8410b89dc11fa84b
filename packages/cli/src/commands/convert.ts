import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BatchProgress } from '../batch/BatchProgress.js';
import { convertFile, type FileReport } from '../batch/convertFile.js';
import { findModels } from '../batch/findModels.js';
import { outputPaths } from '../batch/outputPaths.js';
import { summaryTable } from '../batch/summaryTable.js';
import { EXIT, UsageError, type Command, type CommandIO } from '../command.js';
import { printError, printJson } from '../print.js';
import { startProgress } from '../progress.js';
import { CONVERT_OPTIONS, isBatch, prepareConversion } from './prepareConversion.js';

/** `arsession convert`: models in, ARKit-ready USDZ (and GLB) out; one file, or whole folders at once. */
export const convertCommand: Command = {
  name: 'convert',
  summary: 'convert IFC, GLB and USDZ models to ARKit-ready USDZ (and GLB): one file, or folders and globs across the cores',
  usage: `arsession convert IN -o OUT.usdz [--glb OUT.glb] [--timeout SECONDS] [--json]
       arsession convert IN... -o OUT_DIR [--glb GLB_DIR] [--jobs N] [--timeout SECONDS] [--json]

  Reads each model in a contained worker (a file that hangs or crashes the parser is refused after
  the timeout, default 120 s), writes Y-up metre USDZ for AR Quick Look / RealityKit, and reports
  counts, bounds, the model offset and warnings. Output files are written atomically.

  Several inputs, a folder, a glob ('scans/**/*.ifc', quoted) or an OUT_DIR (existing, or ending
  in /) convert a batch in one process, N at a time (default: one per core). Folders are walked for
  .ifc, .ifczip, .glb and .usdz files; each output keeps its path relative to the folder or the
  pattern. On a terminal a progress bar shows files, megabytes and the time left; a table sums up
  at the end. --json prints one JSON line per file, then a summary line. Exit code 1 if any model
  was refused (the reason is in its line and the summary).`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: CONVERT_OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length === 0) throw new UsageError('give at least one input model, folder or pattern');
    if (!values.out) throw new UsageError('-o OUT is required (a .usdz file for one model, a folder for several)');
    const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout) * 1000;
    if (timeoutMs !== undefined && !(timeoutMs > 0)) throw new UsageError('--timeout takes a positive number of seconds');
    const jobs = values.jobs === undefined ? availableParallelism() : Number(values.jobs);
    if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError('--jobs takes a positive whole number');
    const json = values.json === true;
    const batch = isBatch(positionals, values.out);
    const options = { out: values.out, json, jobs, ...(values.glb !== undefined && { glb: values.glb }), ...(timeoutMs !== undefined && { timeoutMs }) };
    prepareConversion(positionals, values.out);
    return batch ? convertBatch(positionals, options, io) : convertOne(positionals[0]!, options, io);
  },
};

interface ConvertOptions {
  out: string;
  glb?: string;
  json: boolean;
  jobs: number;
  timeoutMs?: number;
}

/** One model to one file: the report as one JSON object, or as a few lines. */
async function convertOne(input: string, options: ConvertOptions, io: CommandIO): Promise<number> {
  const name = input.replace(/^.*[\\/]/, '');
  const stop = startProgress(io, `converting ${name}`, !options.json);
  const report = await convertFile(input, name, {
    usdzPath: resolve(options.out),
    ...(options.glb !== undefined && { glbPath: resolve(options.glb) }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
  });
  stop();
  if (report.status === 'refused') {
    printError(io, options.json, report.error.code, [{ field: 'model_file', message: report.error.message }]);
    return EXIT.refused;
  }
  const shown = { ...report, outputs: { usdz: { ...report.outputs.usdz, path: options.out }, ...(report.outputs.glb && { glb: { ...report.outputs.glb, path: options.glb! } }) } };
  if (options.json) printJson(io, shown);
  else {
    io.stdout.write(`${name} → ${options.out} (${report.outputs.usdz.bytes.toLocaleString('en-US')} bytes${report.delivery === 'converted' ? '' : `, ${report.delivery.replace('_', ' ')}`})${options.glb ? ` and ${options.glb}` : ''}\n`);
    io.stdout.write(`  ${describeStats(report)}\n`);
    if (report.offset.some((v) => v !== 0)) io.stdout.write(`  re-centred by offset ${report.offset.join(', ')} m\n`);
    for (const w of report.warnings) io.stdout.write(`  warning: ${w.message}\n`);
  }
  return EXIT.ok;
}

/** Many models into a folder, `jobs` at a time, with a progress bar, a line per file and a summary. */
async function convertBatch(inputs: readonly string[], options: ConvertOptions, io: CommandIO): Promise<number> {
  const started = performance.now();
  const { models, missing } = await findModels(inputs);
  for (const m of missing) {
    if (options.json) io.stdout.write(`${JSON.stringify({ input: m.argument, status: 'refused', error: { code: 'input_not_found', message: `${m.argument}: ${m.reason}` } })}\n`);
    else io.stderr.write(`arsession convert: ${m.argument}: ${m.reason}\n`);
  }
  if (models.length === 0) {
    if (!options.json) io.stderr.write('arsession convert: no models to convert\n');
    return EXIT.refused;
  }
  const usdzPaths = outputPaths(models, options.out, '.usdz');
  const glbPaths = options.glb === undefined ? undefined : outputPaths(models, options.glb, '.glb');
  const progress = new BatchProgress(io, models.length, models.reduce((n, m) => n + m.bytes, 0), !options.json);
  const reports: FileReport[] = new Array(models.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < models.length; i = next++) {
      const model = models[i]!;
      progress.start(model.relative);
      const report = await convertFile(model.path, model.relative, {
        usdzPath: usdzPaths[i]!,
        ...(glbPaths && { glbPath: glbPaths[i]! }),
        ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      });
      reports[i] = report;
      if (options.json) io.stdout.write(`${JSON.stringify(report)}\n`);
      progress.finish(model.relative, model.bytes, options.json ? undefined : reportLine(report));
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.jobs, models.length) }, worker));
  progress.close();
  const seconds = (performance.now() - started) / 1000;
  const refused = reports.filter((r) => r.status === 'refused').length + missing.length;
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ summary: { files: models.length, converted: models.length - (refused - missing.length), refused, inputs_not_found: missing.length, bytes: models.reduce((n, m) => n + m.bytes, 0), seconds: Math.round(seconds * 1000) / 1000 } })}\n`);
  } else {
    io.stdout.write(summaryTable(reports, seconds));
  }
  return refused > 0 ? EXIT.refused : EXIT.ok;
}

function reportLine(r: FileReport): string {
  if (r.status === 'refused') return `✗ ${r.input}: ${r.error.code}: ${r.error.message}`;
  const warnings = r.warnings.length ? ` · ${r.warnings.length} warning${r.warnings.length > 1 ? 's' : ''}` : '';
  return `✓ ${r.input} → ${r.outputs.usdz.path} (${describeStats(r)}, ${r.seconds.toFixed(2)} s${warnings})`;
}

function describeStats(r: Extract<FileReport, { status: 'converted' }>): string {
  const s = r.stats;
  return `${s.triangles.toLocaleString('en-US')} triangles, ${s.meshNodes} mesh nodes, ${s.drawCalls} draw calls, ${s.materials} materials, ${s.textures} textures`;
}
