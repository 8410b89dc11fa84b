import { parseArgs } from 'node:util';
import type { DoorApproach, DoorOpeningRecord, doorApproaches, ModelSummary } from '@arsession/convert';
import type { UpAxis, Vec3 } from '@arsession/geometry';
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
  warnings. Each IFC door is given from both sides of its wall as a by_scan request takes it:
  alignment.point_1 and point_2 (mode 1: where to stand and look) and alignment.corners and
  wall_normal (mode 2), Y-up and Z-up, in the model's own frame (--json). --headers stops after
  what the headers tell (GLB mesh nodes against the 5000 limit, IFC schema, package entries)
  without decoding geometry.`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { json: { type: 'boolean' }, headers: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one model file');
    const json = values.json === true;
    const input = await readModelFile(io, positionals[0]!, json);
    if (typeof input === 'number') return input;
    const { fileName } = input;
    const { ConvertError, conversionStatsOnWire, convertModel, doorApproaches, inspectModel } = await import('@arsession/convert');
    try {
      const summary = inspectModel(input.bytes, { fileName });
      let content: Awaited<ReturnType<typeof convertModel>> | undefined;
      if (!values.headers) {
        const stop = startProgress(io, `reading ${fileName}`, !json);
        try {
          // Inspection reports the mesh-node limit (from the headers) instead of enforcing it.
          content = await convertModel(input.bytes, {
            fileName,
            outputs: [],
            meshNodeLimit: Number.POSITIVE_INFINITY,
            approachDoors: true,
          });
        } finally {
          stop();
        }
      }
      const doors = content?.doorOpenings?.map((d) => ({
        door: d.door.name || d.door.globalId,
        global_id: d.door.globalId,
        storey: d.storey,
        wall: d.wall ? `${d.wall.ifcClass} ${d.wall.name || d.wall.globalId}` : null,
        width: round(d.width),
        height: round(d.height),
        wall_thickness: round(d.thickness),
        // Each side of the opening as by_scan takes it: the form fields to send, ready to paste.
        by_side: bySide(d, content!.offset, doorApproaches),
      }));
      if (json) {
        // The API's words (snake case), so a script reads inspect, convert and the detail record alike.
        printJson(io, {
          file: fileName,
          ...summaryOnWire(summary),
          ...(content && {
            stats: conversionStatsOnWire(content.stats),
            bounds: content.bounds,
            offset: content.offset,
            warnings: content.warnings,
          }),
          ...(doors && { doors }),
        });
        return EXIT.ok;
      }
      io.stdout.write(`${fileName}: ${summary.format.toUpperCase()}, ${summary.bytes.toLocaleString('en-US')} bytes\n`);
      if (summary.schema) io.stdout.write(`  schema: ${summary.schema}\n`);
      if (summary.originatingSystem) io.stdout.write(`  authored with: ${summary.originatingSystem}\n`);
      if (summary.glb) {
        const g = summary.glb;
        io.stdout.write(
          `  nodes: ${g.nodes}, mesh nodes: ${g.meshNodes} (limit ${g.meshNodeLimit}: ${g.withinMeshNodeLimit ? 'ok' : 'OVER'})\n`,
        );
        if (g.extensionsUsed.length)
          io.stdout.write(
            `  extensions: ` +
              `${g.extensionsUsed.join(', ')}${g.extensionsRequired.length ? ` (required: ${g.extensionsRequired.join(', ')})` : ''}\n`,
          );
      }
      if (summary.entries) io.stdout.write(`  entries: ${summary.entries.join(', ')}\n`);
      if (content) {
        const s = content.stats;
        io.stdout.write(
          `  ${s.triangles.toLocaleString('en-US')} triangles, ${s.nodes} nodes (${s.meshNodes} with ` +
            `meshes), ${s.drawCalls} draw calls, ${s.materials} materials, ${s.textures} textures\n`,
        );
        io.stdout.write(
          `  bounds (Y-up, m): [${content.bounds.min.map(round).join(', ')}] – [${content.bounds.max.map(round).join(', ')}]\n`,
        );
        if (content.offset.some((v) => v !== 0)) io.stdout.write(`  offset: ${content.offset.join(', ')} m\n`);
        if (doors) {
          io.stdout.write(`  doors: ${doors.length} (${doors.filter((d) => d.wall).length} hosted in a wall)\n`);
          for (const d of doors.slice(0, 20)) {
            io.stdout.write(`    ${d.door}: ${d.width} × ${d.height} m${d.wall ? ` in ${d.wall} (${d.wall_thickness} m)` : ''}\n`);
            // Where to stand for by_scan mode 1, from a side it works from (--json: both sides, mode 2, Z-up).
            const side = d.by_side.find((s) => s.mode1_works);
            if (side)
              io.stdout.write(
                `      by_scan from side ${side.side} (y-up): alignment.point_1=${side.y_up.mode1['alignment.point_1']} ` +
                  `alignment.point_2=${side.y_up.mode1['alignment.point_2']}\n`,
              );
            else if (d.by_side.length)
              io.stdout.write(`      by_scan: no spot in front of it from which mode 1 finds it; mode 2 (--json) places it\n`);
          }
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

/** Each side of a door opening: whether mode 1 finds it from there, and its form fields in both conventions. */
function bySide(d: DoorOpeningRecord, offset: Vec3, approaches: typeof doorApproaches) {
  const [yUp, zUp] = (['y-up', 'z-up'] as const).map((coordinateSystem) => approaches(d, offset, { coordinateSystem }));
  return d.faces.map((f, side) => ({
    side,
    mode1_works: f.viewerDistance !== null,
    y_up: byScanFields(yUp![side]!, 'y-up'),
    z_up: byScanFields(zUp![side]!, 'z-up'),
  }));
}

/** What the headers tell, in the API's words. */
function summaryOnWire({ glb, originatingSystem, ...rest }: ModelSummary) {
  return {
    ...rest,
    ...(originatingSystem !== undefined && { originating_system: originatingSystem }),
    ...(glb && {
      glb: {
        nodes: glb.nodes,
        mesh_nodes: glb.meshNodes,
        mesh_node_limit: glb.meshNodeLimit,
        within_mesh_node_limit: glb.withinMeshNodeLimit,
        extensions_used: glb.extensionsUsed,
        extensions_required: glb.extensionsRequired,
      },
    }),
  };
}

/** A door side's by_scan form fields, mode 1 and mode 2, as text the way a form sends them. */
function byScanFields(a: DoorApproach, system: UpAxis) {
  return {
    mode1: {
      'alignment.point_1': JSON.stringify(a.viewer),
      'alignment.point_2': JSON.stringify(a.gaze),
      'alignment.coordinate_system': system,
    },
    mode2: {
      'alignment.corners': JSON.stringify(a.corners),
      'alignment.wall_normal': JSON.stringify(a.wallNormal),
      'alignment.coordinate_system': system,
    },
  };
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
