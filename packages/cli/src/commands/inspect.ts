import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { ConvertError, inspectModel } from '@arsession/convert';
import { EXIT, UsageError, type Command } from '../command.js';
import { printError, printJson } from '../print.js';

/** `arsession inspect`: what a model file is, read from its headers. */
export const inspectCommand: Command = {
  name: 'inspect',
  summary: 'identify a model (IFC, GLB, USDZ) by content and print what its headers tell',
  usage: `arsession inspect FILE [--json]

  Recognises the format by content, never by name. For GLB: nodes, mesh nodes (instances counted
  one each) against the 5000 limit, and extensions; for IFC: schema and authoring tool; for
  USDZ and ifczip: the package entries.`,
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, options: { json: { type: 'boolean' } }, allowPositionals: true, strict: true });
    if (positionals.length !== 1) throw new UsageError('give exactly one model file');
    const path = positionals[0]!;
    const fileName = basename(path);
    let bytes: Uint8Array;
    try {
      bytes = await readFile(path);
    } catch (err) {
      printError(io, values.json === true, 'file_unreadable', [{ message: `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` }]);
      return EXIT.refused;
    }
    try {
      const summary = inspectModel(bytes, { fileName });
      if (values.json) {
        printJson(io, { file: fileName, ...summary });
        return EXIT.ok;
      }
      io.stdout.write(`${fileName}: ${summary.format.toUpperCase()}, ${summary.bytes.toLocaleString('en-US')} bytes\n`);
      if (summary.schema) io.stdout.write(`  schema: ${summary.schema}\n`);
      if (summary.originatingSystem) io.stdout.write(`  authored with: ${summary.originatingSystem}\n`);
      if (summary.glb) {
        const g = summary.glb;
        io.stdout.write(`  nodes: ${g.nodes}, mesh nodes: ${g.meshNodes} (limit ${g.meshNodeLimit}: ${g.withinMeshNodeLimit ? 'ok' : 'OVER'})\n`);
        if (g.extensionsUsed.length) io.stdout.write(`  extensions: ${g.extensionsUsed.join(', ')}${g.extensionsRequired.length ? ` (required: ${g.extensionsRequired.join(', ')})` : ''}\n`);
      }
      if (summary.entries) io.stdout.write(`  entries: ${summary.entries.join(', ')}\n`);
      return EXIT.ok;
    } catch (err) {
      if (err instanceof ConvertError) {
        printError(io, values.json === true, err.code, [{ field: err.field, message: err.message }]);
        return EXIT.refused;
      }
      throw err;
    }
  },
};
