// `node --max-old-space-size=16384 dist/fidelity/fidelityCli.js [--samples N] [--seed S] FILE...`: how
// faithful each model's budgeted delivery is to the full model, by IFC class category. JSON (an
// array, one object per file, with the process's peak memory so far) on stdout; the tables on stderr.
import { parseArgs } from 'node:util';
import { peakRssMb } from '../peakRssMb.js';
import { FIDELITY_LEGEND, fidelityTable } from './fidelityTable.js';
import { FIDELITY_DEFAULTS, measureFidelity, type FidelityResult } from './measureFidelity.js';

const { values, positionals } = parseArgs({
  options: { samples: { type: 'string' }, seed: { type: 'string' } },
  allowPositionals: true,
  strict: true,
});
if (positionals.length === 0) {
  console.error('usage: fidelityCli [--samples N] [--seed S] FILE.ifc|FILE.glb ...');
  process.exit(2);
}
const samples = values.samples === undefined ? FIDELITY_DEFAULTS.samples : Number(values.samples);
const seed = values.seed === undefined ? FIDELITY_DEFAULTS.seed : Number(values.seed);
if (!Number.isInteger(samples) || samples < 1 || !Number.isInteger(seed)) {
  console.error('--samples takes a positive integer, --seed an integer');
  process.exit(2);
}
console.error([...FIDELITY_LEGEND, ''].join('\n'));
const results: Array<FidelityResult & { peakRssMb: number }> = [];
for (const path of positionals) {
  const result = { ...(await measureFidelity(path, { samples, seed })), peakRssMb: peakRssMb() };
  console.error(fidelityTable(result).join('\n'));
  results.push(result);
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
