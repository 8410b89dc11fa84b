import { parseArgs } from 'node:util';
import { EXIT, UsageError, type Command } from '../command.js';
import { printError, printJson } from '../print.js';

/** `arsession opening`: validates door-opening corners as by_scan mode 2 does. */
export const openingCommand: Command = {
  name: 'opening',
  summary: 'validate door-opening corners [BL, BR, TR, TL] and a wall normal; print the door frame',
  usage: `arsession opening --corners '[[x,y,z],[x,y,z],[x,y,z],[x,y,z]]' --normal '[x,y,z]' [--z-up] [--json]

  Corners in the order BL, BR, TR, TL as seen from the side the normal points to, in metres.
  Prints width, height and the door frame in Y-up; or every problem found, each with its field.`,
  async run(args, io) {
    const { values } = parseArgs({
      args,
      options: { corners: { type: 'string' }, normal: { type: 'string' }, 'z-up': { type: 'boolean' }, json: { type: 'boolean' } },
      strict: true,
    });
    if (values.corners === undefined || values.normal === undefined) throw new UsageError('--corners and --normal are required');
    const corners = parseJsonArg(values.corners, '--corners');
    const normal = parseJsonArg(values.normal, '--normal');
    // Loaded here, not at the top: the geometry package would lengthen every command's start-up.
    const { GeometryValidationError, validateOpening } = await import('@arsession/geometry');
    try {
      const o = validateOpening({
        corners: corners as number[][],
        wallNormal: normal as number[],
        coordinateSystem: values['z-up'] ? 'z-up' : 'y-up',
      });
      const result = {
        valid: true,
        width: o.width,
        height: o.height,
        corners: o.corners,
        wall_normal: o.wallNormal,
        frame: { position: o.frame.position, rotation: o.frame.rotation, matrix: Array.from(o.frame.matrix) },
      };
      if (values.json) printJson(io, result);
      else {
        io.stdout.write(`valid door opening: ${o.width.toFixed(3)} m × ${o.height.toFixed(3)} m\n`);
        io.stdout.write(`frame origin (Y-up): ${o.frame.position.map((v) => v.toFixed(4)).join(', ')}\n`);
        io.stdout.write(`frame rotation (x, y, z, w): ${o.frame.rotation.map((v) => v.toFixed(6)).join(', ')}\n`);
      }
      return EXIT.ok;
    } catch (err) {
      if (err instanceof GeometryValidationError) {
        printError(io, values.json === true, err.code, err.problems);
        return EXIT.refused;
      }
      throw err;
    }
  },
};

function parseJsonArg(text: string, flag: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${flag} is not valid JSON: ${text}`);
  }
}
