import { resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { ConvertModelOptions } from '@arsession/convert/pool';
import { convertFile } from '../batch/convertFile.js';
import { describeBudget, describeCategories, describePart, describeStats } from '../batch/reportText.js';
import { EXIT, type CommandIO } from '../command.js';
import type { ConvertOptions } from '../ConvertOptions.js';
import { errorText, printError, printJson } from '../print.js';
import { startProgress } from '../progress.js';

/**
 * One model to one file, converted in this thread (the process is its container, and ends after):
 * the report as one JSON object, or as a few lines.
 *
 * @example
 * ```ts
 * const code = await convertOne('house.ifc', { out: 'house.usdz', json: true, jobs: 1 }, io);
 * ```
 */
export async function convertOne(input: string, options: ConvertOptions, io: CommandIO): Promise<number> {
  const name = input.replace(/^.*[\\/]/, '');
  // One pass through web-ifc: V8's optimising WASM compiler would only compete for the cores and,
  // at exit, be waited for (~150 ms on a small IFC). Set before web-ifc's module is compiled.
  setFlagsFromString('--wasm-tiering-budget=2000000000');
  const here = await import('@arsession/convert/thread');
  // web-ifc (~0.1 s to load) starts now and the file is read meanwhile. The name is only a hint: the
  // format is told by content, and any model converts whatever its name.
  const conversion = here.convertInThisThread({
    preloadIfc: /\.ifc(zip)?$/i.test(name),
    fileName: name,
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    // Past the deadline the process ends with this refusal, printed as any other.
    lateReport: (refusal) => errorText(options.json, refusal.code, [{ field: 'model_file', message: refusal.message }]),
    lateExitCode: EXIT.refused,
  });
  const stop = startProgress(io, `converting ${name}`, !options.json);
  const engine = {
    convert: (bytes: Uint8Array, { timeoutMs: _armed, ...job }: Partial<ConvertModelOptions>) => conversion.convert(bytes, job),
    ConvertError: here.ConvertError,
    readFile: here.readSharedFile,
  };
  const report = await convertFile(input, name, engine, {
    usdzPath: resolve(options.out),
    budget: options.budget,
    ...(options.glb !== undefined && { glbPath: resolve(options.glb) }),
    ...(options.parts !== undefined && { partsDir: resolve(options.parts) }),
    ...(options.elements !== undefined && { elementsPath: resolve(options.elements) }),
  });
  stop();
  // Nothing is printed while the deadline could still end the process with its own report.
  await conversion.finish();
  if (report.status === 'refused') {
    printError(io, options.json, report.error.code, [{ field: 'model_file', message: report.error.message }]);
    return EXIT.refused;
  }
  const shown = {
    ...report,
    outputs: {
      usdz: { ...report.outputs.usdz, path: options.out },
      ...(report.outputs.glb && { glb: { ...report.outputs.glb, path: options.glb! } }),
      ...(report.outputs.parts && { parts: { ...report.outputs.parts, path: options.parts! } }),
      ...(report.outputs.elements && { elements: { ...report.outputs.elements, path: options.elements! } }),
    },
  };
  if (options.json) printJson(io, shown);
  else {
    const delivery = report.delivery === 'converted' ? '' : `, ${report.delivery.replace('_', ' ')}`;
    const glb = options.glb ? ` and ${options.glb}` : '';
    io.stdout.write(`${name} → ${options.out} (${report.outputs.usdz.bytes.toLocaleString('en-US')} bytes${delivery})${glb}\n`);
    io.stdout.write(`  ${describeStats(report)}\n`);
    const budget = describeBudget(report);
    if (budget) io.stdout.write(`  ${budget}\n`);
    for (const line of describeCategories(report)) io.stdout.write(`    ${line}\n`);
    const elements = report.outputs.elements;
    if (elements) io.stdout.write(`  ${elements.count.toLocaleString('en-US')} element records → ${options.elements}\n`);
    const parts = report.outputs.parts?.parts;
    if (parts) {
      io.stdout.write(`  ${parts.length} parts → ${options.parts} (parts.json lists them)\n`);
      for (const p of parts) io.stdout.write(`    ${describePart(p)}\n`);
    }
    if (report.offset.some((v) => v !== 0)) io.stdout.write(`  re-centred by offset ${report.offset.join(', ')} m\n`);
    for (const w of report.warnings) io.stdout.write(`  warning: ${w.message}\n`);
  }
  return EXIT.ok;
}
