import { parseArgs } from 'node:util';
import type { Vec3 } from '@arsession/geometry';
import { EXIT, UsageError, type Command } from '../command.js';
import { printError, printJson } from '../print.js';
import { startProgress } from '../progress.js';
import { readModelFile } from '../readModelFile.js';

/** `arsession detect-door`: by_scan mode 1 on a model file. */
export const detectDoorCommand: Command = {
  name: 'detect-door',
  summary: 'find the door opening a viewer looks at (by_scan mode 1): IFC semantics first, then geometry',
  usage: `arsession detect-door MODEL --from x,y,z --gaze x,y,z [--z-up] [--json]

  --from is where the viewer stands (point_1), --gaze the direction they look (point_2), both in
  the model's own frame in metres (Y-up unless --z-up). The answer comes back in that same frame:
  corners [BL, BR, TR, TL] on the viewer's face of the wall, the wall normal toward the viewer,
  width, height, how it was found (semantic or geometric) and a confidence from 0 to 1. When no
  door fits, the reason says what to change (exit 1).`,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args: joinCoordinateValues(args),
      options: { from: { type: 'string' }, gaze: { type: 'string' }, 'z-up': { type: 'boolean' }, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one model file');
    if (values.from === undefined || values.gaze === undefined) throw new UsageError('--from and --gaze are required');
    const viewer = parseTriple(values.from, '--from');
    const gaze = parseTriple(values.gaze, '--gaze');
    const json = values.json === true;
    const system = values['z-up'] ? 'z-up' : 'y-up';
    const input = await readModelFile(io, positionals[0]!, json);
    // The readers load only for the command that reads in this thread (start-up of the others stays short).
    const { ConvertError, detectDoorInScene, readModel } = await import('@arsession/convert');
    const { DoorNotFoundError, fromYUp, GeometryValidationError } = await import('@arsession/geometry');
    if (typeof input === 'number') return input;
    try {
      const stop = startProgress(io, `reading ${input.fileName}`, !json);
      let scene: Awaited<ReturnType<typeof readModel>>;
      try {
        scene = await readModel(input.bytes, { fileName: input.fileName });
      } finally {
        stop();
      }
      const door = detectDoorInScene(scene, { viewer, gaze, coordinateSystem: system });
      const out = (v: Vec3) => round(fromYUp([0, 0, 0], v, system));
      const result = {
        found: true,
        corners: door.opening.corners.map(out),
        wall_normal: out(door.opening.wallNormal),
        width: round([door.opening.width])[0],
        height: round([door.opening.height])[0],
        method: door.method,
        confidence: door.confidence,
        reason: null,
        ...(door.source && { source: door.source }),
      };
      if (json) printJson(io, result);
      else {
        io.stdout.write(`door found (${door.method}, confidence ${door.confidence}): ${result.width} m × ${result.height} m\n`);
        io.stdout.write(`corners BL, BR, TR, TL: ${result.corners.map((c) => `[${c.join(', ')}]`).join(' ')}\n`);
        io.stdout.write(
          `wall normal: [${result.wall_normal.join(', ')}]${door.source ? `; element ${door.source.name ?? ''} ${door.source.id}` : ''}\n`,
        );
      }
      return EXIT.ok;
    } catch (err) {
      if (err instanceof DoorNotFoundError) {
        const message = err.problems[0]!.message;
        if (json)
          printJson(io, {
            found: false,
            corners: null,
            wall_normal: null,
            width: null,
            height: null,
            method: null,
            confidence: 0,
            reason: err.reason,
            message,
          });
        else io.stderr.write(`no door found (${err.reason}): ${message}\n`);
        return EXIT.refused;
      }
      if (err instanceof GeometryValidationError) {
        printError(io, json, err.code, err.problems);
        return EXIT.refused;
      }
      if (err instanceof ConvertError) {
        printError(io, json, err.code, [{ field: err.field, message: err.message }]);
        return EXIT.refused;
      }
      throw err;
    }
  },
};

/**
 * `--from -1,2,3` → `--from=-1,2,3`: coordinates often start with a minus sign, which parseArgs
 * would take for an option.
 */
function joinCoordinateValues(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if ((a === '--from' || a === '--gaze') && i + 1 < args.length) out.push(`${a}=${args[++i]}`);
    else out.push(a);
  }
  return out;
}

function parseTriple(text: string, flag: string): number[] {
  const parts = text.split(',').map((p) => Number(p.trim()));
  if (parts.length !== 3 || parts.some((v) => !Number.isFinite(v))) throw new UsageError(`${flag} takes three numbers x,y,z: ${text}`);
  return parts;
}

function round(v: readonly number[]): Vec3 {
  return v.map((x) => Math.round(x * 10000) / 10000 + 0) as Vec3;
}
