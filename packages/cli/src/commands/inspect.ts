import { parseArgs } from 'node:util';
import { EXIT, UsageError, type Command } from '../command.js';
import { printError, printJson } from '../print.js';
import { startProgress } from '../progress.js';
import { readModelFile } from '../readModelFile.js';

/** `arsession inspect`: what a model is and what is in it. */
export const inspectCommand: Command = {
  name: 'inspect',
  summary: 'identify a model by content; print schema, counts, bounds, doors and openings, warnings',
  usage: `arsession inspect FILE [--headers] [--json]

  Recognises the format by content, never by name, then reads the model (contained, as convert
  does) for triangle, node and material counts, bounds, the IFC door → opening → wall index and
  warnings. --headers stops after what the headers tell (GLB mesh nodes against the 5000 limit,
  IFC schema, package entries) without decoding geometry.`,
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, options: { json: { type: 'boolean' }, headers: { type: 'boolean' } }, allowPositionals: true, strict: true });
    if (positionals.length !== 1) throw new UsageError('give exactly one model file');
    const json = values.json === true;
    const input = await readModelFile(io, positionals[0]!, json);
    if (typeof input === 'number') return input;
    const { fileName } = input;
    const { ConvertError, convertModel, inspectModel } = await import('@arsession/convert');
    try {
      const summary = inspectModel(input.bytes, { fileName });
      let content;
      if (!values.headers) {
        const stop = startProgress(io, `reading ${fileName}`, !json);
        try {
          // Inspection reports the mesh-node limit (from the headers) instead of enforcing it.
          content = await convertModel(input.bytes, { fileName, outputs: [], meshNodeLimit: Number.POSITIVE_INFINITY });
        } finally {
          stop();
        }
      }
      const doors = content?.doorOpenings?.map((d) => ({
        door: d.door.name || d.door.globalId,
        globalId: d.door.globalId,
        storey: d.storey,
        wall: d.wall ? `${d.wall.ifcClass} ${d.wall.name || d.wall.globalId}` : null,
        width: round(d.width), height: round(d.height), wallThickness: round(d.thickness),
      }));
      if (json) {
        printJson(io, {
          file: fileName,
          ...summary,
          ...(content && { stats: content.stats, bounds: content.bounds, offset: content.offset, warnings: content.warnings }),
          ...(doors && { doors }),
        });
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
      if (content) {
        const s = content.stats;
        io.stdout.write(`  ${s.triangles.toLocaleString('en-US')} triangles, ${s.nodes} nodes (${s.meshNodes} with meshes), ${s.drawCalls} draw calls, ${s.materials} materials, ${s.textures} textures\n`);
        io.stdout.write(`  bounds (Y-up, m): [${content.bounds.min.map(round).join(', ')}] – [${content.bounds.max.map(round).join(', ')}]\n`);
        if (content.offset.some((v) => v !== 0)) io.stdout.write(`  offset: ${content.offset.join(', ')} m\n`);
        if (doors) {
          io.stdout.write(`  doors: ${doors.length} (${doors.filter((d) => d.wall).length} hosted in a wall)\n`);
          for (const d of doors.slice(0, 20)) io.stdout.write(`    ${d.door}: ${d.width} × ${d.height} m${d.wall ? ` in ${d.wall} (${d.wallThickness} m)` : ''}\n`);
          if (doors.length > 20) io.stdout.write(`    … and ${doors.length - 20} more (--json lists all)\n`);
        }
        for (const w of content.warnings) io.stdout.write(`  warning: ${w.message}\n`);
      }
      return EXIT.ok;
    } catch (err) {
      if (err instanceof ConvertError) {
        printError(io, json, err.code, [{ field: err.field, message: err.message }]);
        return EXIT.refused;
      }
      throw err;
    }
  },
};

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
