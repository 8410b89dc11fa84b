import { rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { convertModel, ConvertError } from '@arsession/convert/pool';
import { EXIT, UsageError, type Command } from '../command.js';
import { printError, printJson } from '../print.js';
import { startProgress } from '../progress.js';
import { readModelFile } from '../readModelFile.js';

/** `arsession convert`: a model in, an ARKit-ready USDZ (and optionally a GLB) out. */
export const convertCommand: Command = {
  name: 'convert',
  summary: 'convert an IFC or GLB model to an ARKit-ready USDZ (and GLB)',
  usage: `arsession convert IN -o OUT.usdz [--glb OUT.glb] [--timeout SECONDS] [--json]

  Reads the model in a contained worker (a file that hangs or crashes the parser is refused after
  the timeout, default 120 s), writes Y-up metre USDZ for AR Quick Look / RealityKit, and reports
  counts, bounds, the model offset and warnings. Output files are written atomically.`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { out: { type: 'string', short: 'o' }, glb: { type: 'string' }, timeout: { type: 'string' }, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one input model');
    if (!values.out) throw new UsageError('-o OUT.usdz is required');
    const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout) * 1000;
    if (timeoutMs !== undefined && !(timeoutMs > 0)) throw new UsageError('--timeout takes a positive number of seconds');
    const json = values.json === true;
    const input = await readModelFile(io, positionals[0]!, json);
    if (typeof input === 'number') return input;

    const stop = startProgress(io, `converting ${input.fileName}`, !json);
    let result;
    try {
      result = await convertModel(input.bytes, {
        fileName: input.fileName,
        outputs: values.glb ? ['usdz', 'glb'] : ['usdz'],
        usdzPath: resolve(values.out),
        ...(timeoutMs !== undefined && { timeoutMs }),
      });
    } catch (err) {
      stop();
      if (err instanceof ConvertError) {
        printError(io, json, err.code, [{ field: err.field, message: err.message }]);
        return EXIT.refused;
      }
      throw err;
    }
    stop();
    if (values.glb) await writeAtomically(values.glb, result.glb!);
    const report = {
      input: input.fileName,
      format: result.format,
      ...(result.source.schema !== undefined && { schema: result.source.schema }),
      outputs: { usdz: { path: values.out, bytes: result.usdzFileBytes! }, ...(values.glb && { glb: { path: values.glb, bytes: result.glb!.length } }) },
      stats: result.stats,
      bounds: result.bounds,
      offset: result.offset,
      warnings: result.warnings,
    };
    if (json) printJson(io, report);
    else {
      io.stdout.write(`${input.fileName} → ${values.out} (${result.usdzFileBytes!.toLocaleString('en-US')} bytes)${values.glb ? ` and ${values.glb}` : ''}\n`);
      io.stdout.write(`  ${result.stats.triangles.toLocaleString('en-US')} triangles, ${result.stats.meshNodes} mesh nodes, ${result.stats.drawCalls} draw calls, ${result.stats.materials} materials, ${result.stats.textures} textures\n`);
      if (result.offset.some((v) => v !== 0)) io.stdout.write(`  re-centred by offset ${result.offset.join(', ')} m\n`);
      for (const w of result.warnings) io.stdout.write(`  warning: ${w.message}\n`);
    }
    return EXIT.ok;
  },
};

async function writeAtomically(path: string, data: Uint8Array): Promise<void> {
  const temp = `${path}.${process.pid}.partial`;
  await writeFile(temp, data);
  await rename(temp, path);
}
