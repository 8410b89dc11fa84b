import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { mergeByMaterial, readIfc, writeUsdz } from '@arsession/convert';
import { bytesOf, CORPUS_DIR } from './corpus.js';
import { repeatedIfc } from './largeIfc.js';
import { compare, type Sample } from './sample.js';
import { webIfcStreamAllMeshes } from './webIfcStream.js';

/** One size step: a corpus model repeated `copies` times. */
export interface ScalingRow {
  copies: number;
  megabytes: number;
  triangles: number;
  webIfc: Sample;
  ours: Sample;
  ratio: Sample;
  oursPeakMb?: number;
  webIfcPeakMb?: number;
}

const PEAK = new URL('./peakRss.js', import.meta.url).pathname;
const peak = (tool: string, path: string) => {
  const r = spawnSync(process.execPath, [PEAK, tool, path], { encoding: 'utf8', timeout: 600_000 });
  return r.status === 0 ? (JSON.parse(r.stdout) as { peakRssMb: number }).peakRssMb : undefined;
};

/** IFC → USDZ against web-ifc on Office_A repeated 1, 4 and 13 times (13 copies ≈ 57 MB). */
export async function benchScaling(rounds: number): Promise<ScalingRow[]> {
  const source = join(CORPUS_DIR, 'ifc', 'Office_A_20110811.ifc');
  const rows: ScalingRow[] = [];
  for (const copies of [1, 4, 13]) {
    const path = copies === 1 ? source : repeatedIfc(source, copies);
    const bytes = bytesOf(path);
    const triangles = await webIfcStreamAllMeshes(bytes);
    const ours = async () => writeUsdz(mergeByMaterial(await readIfc(bytes)));
    const c = await compare(ours, () => webIfcStreamAllMeshes(bytes), copies === 13 ? Math.min(rounds, 3) : rounds);
    const row: ScalingRow = { copies, megabytes: statSync(path).size / 2 ** 20, triangles, webIfc: c.peer, ours: c.ours, ratio: c.ratio };
    const oursPeakMb = peak('ours-ifc', path),
      webIfcPeakMb = peak('web-ifc', path);
    if (oursPeakMb !== undefined) row.oursPeakMb = oursPeakMb;
    if (webIfcPeakMb !== undefined) row.webIfcPeakMb = webIfcPeakMb;
    rows.push(row);
    console.error(
      `  Office_A ×${copies} (${row.megabytes.toFixed(0)} MB): ours/web-ifc ` +
        `×${c.ratio.median.toFixed(2)}, peak ${oursPeakMb?.toFixed(0)} MB vs ${webIfcPeakMb?.toFixed(0)} MB`,
    );
  }
  return rows;
}
