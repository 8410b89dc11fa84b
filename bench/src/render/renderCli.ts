// `node --max-old-space-size=16384 dist/render/renderCli.js [--out DIR] FILE...`: renders each model (IFC
// or GLB) in full and as delivered within the default AR budget from three fixed views, one PNG per
// view in bench/renders/ or DIR (full left, delivered right). JSON (an array, one object per file, with the
// process's peak memory so far) on stdout; a line per model on stderr. With `--part ZIP --index N`,
// the one IFC's part N (of the parts archive ZIP) beside the same elements as read.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { peakRssMb } from '../peakRssMb.js';
import { RENDER_MODEL_DEFAULTS, renderModel, type RenderedModel } from './renderModel.js';
import { renderPart } from './renderPart.js';

const { values, positionals: files } = parseArgs({
  options: { out: { type: 'string' }, part: { type: 'string' }, index: { type: 'string' } },
  allowPositionals: true,
  strict: true,
});
if (files.length === 0) {
  console.error('usage: renderCli [--out DIR] FILE.ifc|FILE.glb ...');
  process.exit(2);
}
// Run from a bundle elsewhere than dist/, the default (beside this file's bench/) would be wrong: --out says where.
const outDir = values.out === undefined ? RENDER_MODEL_DEFAULTS.outDir : resolve(values.out);
const results: Array<RenderedModel & { peakRssMb: number }> = [];
for (const path of files) {
  const rendered =
    values.part === undefined
      ? await renderModel(path, { outDir })
      : await renderPart(path, values.part, Number(values.index ?? 0), { outDir });
  const r = { ...rendered, peakRssMb: peakRssMb() };
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.error(
    `${r.file}: ${r.triangles.full.toLocaleString('en-US')} → ${r.triangles.delivered.toLocaleString('en-US')} triangles; ` +
      `read ${s(r.ms.readFull)} + ${s(r.ms.readDelivered)}, render ${s(r.ms.renderFull)} + ` +
      `${s(r.ms.renderDelivered)}, total ${s(r.ms.total)}, peak ${r.peakRssMb.toFixed(0)} MB`,
  );
  for (const v of r.views) console.error(`  ${v.image} (${(v.bytes / 1024).toFixed(0)} KiB)`);
  results.push(r);
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
