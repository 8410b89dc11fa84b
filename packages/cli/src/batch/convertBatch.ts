import { convertModel, ConvertError, readSharedFileAsync } from '@arsession/convert/pool';
import { EXIT, type CommandIO } from '../command.js';
import type { ConvertOptions } from '../ConvertOptions.js';
import { BatchProgress } from './BatchProgress.js';
import { convertFile, type ConversionEngine, type FileReport } from './convertFile.js';
import { findModels } from './findModels.js';
import { outputPaths } from './outputPaths.js';
import { reportLine } from './reportText.js';
import { summaryTable } from './summaryTable.js';

/**
 * Each model of a batch in a pooled worker thread: a model that hangs or crashes its parser costs
 * only its worker. Its bytes are read into shared memory, which the worker takes without a copy
 * and where a large IFC is checked beside web-ifc's parse.
 */
const engine: ConversionEngine = { convert: convertModel, ConvertError, readFile: readSharedFileAsync };

/**
 * Many models into a folder, `jobs` at a time, with a progress bar, a line per file and a summary.
 *
 * @example
 * ```ts
 * const code = await convertBatch(['scans/'], { out: 'out/', json: false, jobs: 2 }, io);
 * ```
 */
export async function convertBatch(inputs: readonly string[], options: ConvertOptions, io: CommandIO): Promise<number> {
  const started = performance.now();
  const { models, missing } = await findModels(inputs);
  for (const m of missing) {
    if (options.json)
      io.stdout.write(
        JSON.stringify({
          input: m.argument,
          status: 'refused',
          error: { code: 'input_not_found', message: `${m.argument}: ${m.reason}` },
        }) + '\n',
      );
    else io.stderr.write(`arsession convert: ${m.argument}: ${m.reason}\n`);
  }
  if (models.length === 0) {
    if (options.json)
      io.stdout.write(
        JSON.stringify({
          summary: { files: 0, converted: 0, refused: missing.length, inputs_not_found: missing.length, bytes: 0, seconds: 0 },
        }) + '\n',
      );
    else io.stderr.write('arsession convert: no models to convert\n');
    return EXIT.refused;
  }
  const usdzPaths = outputPaths(models, options.out, '.usdz');
  const glbPaths = options.glb === undefined ? undefined : outputPaths(models, options.glb, '.glb');
  const progress = new BatchProgress(
    io,
    models.length,
    models.reduce((n, m) => n + m.bytes, 0),
    !options.json,
  );
  const reports: FileReport[] = new Array(models.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < models.length; i = next++) {
      const model = models[i]!;
      progress.start(model.relative);
      const report = await convertFile(model.path, model.relative, engine, {
        usdzPath: usdzPaths[i]!,
        budget: options.budget,
        ...(glbPaths && { glbPath: glbPaths[i]! }),
        ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      });
      reports[i] = report;
      if (options.json) io.stdout.write(`${JSON.stringify(report)}\n`);
      progress.finish(model.relative, model.bytes, options.json ? undefined : reportLine(report));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.jobs, models.length) }, worker));
  } finally {
    // A bug of ours still ends with the terminal as it was.
    progress.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const refused = reports.filter((r) => r.status === 'refused').length + missing.length;
  if (options.json) {
    io.stdout.write(
      JSON.stringify({
        summary: {
          files: models.length,
          converted: models.length - (refused - missing.length),
          refused,
          inputs_not_found: missing.length,
          bytes: models.reduce((n, m) => n + m.bytes, 0),
          seconds: Math.round(seconds * 1000) / 1000,
        },
      }) + '\n',
    );
  } else {
    io.stdout.write(summaryTable(reports, seconds));
  }
  return refused > 0 ? EXIT.refused : EXIT.ok;
}
