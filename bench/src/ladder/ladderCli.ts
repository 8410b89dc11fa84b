// `node bench/dist/ladder/ladderCli.js [--copies 2,4,8] [--spacing UNITS] [--out DIR] MODEL.ifc`: writes
// the scale ladder's merged projects (see mergeIfcCopies) to DIR (default ../large-models, where
// `--section budget`, fidelity and render pick them up), one file per rung, and prints their paths.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { mergeIfcCopies } from './mergeIfcCopies.js';

const { values, positionals } = parseArgs({
  options: { copies: { type: 'string', default: '2,4,8' }, spacing: { type: 'string' }, out: { type: 'string' } },
  allowPositionals: true,
  strict: true,
});
const [source] = positionals;
const copies = values.copies.split(',').map(Number);
const spacing = Number(values.spacing);
if (!source || positionals.length > 1 || copies.some((c) => !Number.isInteger(c) || c < 1) || !(spacing > 0)) {
  console.error('usage: ladderCli --spacing UNITS [--copies 2,4,8] [--out DIR] MODEL.ifc');
  console.error("  UNITS: distance between the copies' sites in the file's own length unit (a little more than the model's size)");
  process.exit(2);
}
const dir = resolve(values.out ?? process.env.ARSESSION_LARGE_MODELS ?? '../large-models');
for (const n of copies) console.log(mergeIfcCopies(source, { copies: n, spacing, dir }));
