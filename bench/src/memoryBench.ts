import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_DIR, corpusFiles } from './corpus.js';

/** Peak RSS of one conversion in a fresh process, ours beside the peer on the same file. */
export interface MemoryRow {
  file: string;
  kind: 'ifc' | 'glb';
  oursMb: number;
  peer: 'web-ifc' | 'three.js';
  peerMb?: number;
}

const PEAK = new URL('./peakRss.js', import.meta.url).pathname;

function measure(tool: string, path: string): number | undefined {
  const r = spawnSync(process.execPath, [PEAK, tool, path], { encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) return undefined;
  return (JSON.parse(r.stdout) as { peakRssMb: number }).peakRssMb;
}

export async function benchMemory(only?: (file: string) => boolean): Promise<MemoryRow[]> {
  const rows: MemoryRow[] = [];
  const threeAvailable = existsSync(new URL('../peers/threeUsdzExporter.mjs', import.meta.url));
  for (const file of corpusFiles('ifc').filter((f) => f.endsWith('.ifc') && (!only || only(f)))) {
    const path = join(CORPUS_DIR, 'ifc', file);
    const oursMb = measure('ours-ifc', path);
    if (oursMb === undefined) continue;
    const peerMb = measure('web-ifc', path);
    rows.push({ file, kind: 'ifc', oursMb, peer: 'web-ifc', ...(peerMb !== undefined && { peerMb }) });
  }
  for (const file of corpusFiles('glb').filter((f) => !f.startsWith('Synthetic_5001') && (!only || only(f)))) {
    const path = join(CORPUS_DIR, 'glb', file);
    const oursMb = measure('ours-glb', path);
    if (oursMb === undefined) continue;
    const peerMb = threeAvailable ? measure('three-glb', path) : undefined;
    rows.push({ file, kind: 'glb', oursMb, peer: 'three.js', ...(peerMb !== undefined && { peerMb }) });
  }
  return rows;
}
