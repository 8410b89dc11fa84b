import { join } from 'node:path';
import { convertModel, mergeByMaterial, readGlb, readIfc, writeUsdz } from '@arsession/convert';
import { bytesOf, CORPUS_DIR, corpusFiles } from './corpus.js';
import { compare, type Sample } from './sample.js';
import { webIfcStreamAllMeshes } from './webIfcStream.js';

/** One IFC file: our pipeline against web-ifc's bare streaming, in the same process and rounds. */
export interface IfcRow {
  file: string;
  bytes: number;
  triangles: number;
  webIfc: Sample;
  /** read + merge + USDZ write, in the calling thread. */
  ours: Sample;
  ratio: Sample;
  /** The same through `convertModel`, in the worker pool the server uses (workers kept warm, replaced after 32 IFC jobs). */
  contained: Sample;
  containedRatio: Sample;
}

/** One GLB file: ours against three.js's USDZExporter, at full texture resolution and at its defaults. */
export interface GlbRow {
  file: string;
  bytes: number;
  triangles: number;
  ours: Sample;
  oursUsdzBytes: number;
  /** three.js keeping textures at up to 2048² (like for like: we never resample). */
  three?: ThreeResult;
  /** three.js with its defaults (textures downscaled to 1024²). */
  threeDefaults?: ThreeResult;
  threeError?: string;
}

/** One three.js configuration on one file. */
export interface ThreeResult {
  time: Sample;
  usdzBytes: number;
  /** three ÷ ours, round by round: how many times faster we are. */
  speedup: Sample;
}

async function oursIfc(bytes: Uint8Array): Promise<number> {
  const scene = mergeByMaterial(await readIfc(bytes));
  return writeUsdz(scene).reduce((n, p) => n + p.length, 0);
}

/**
 * Warm-up conversions on each side before the timed rounds. Our side is JavaScript: its first
 * conversions of a file run in V8's slower tiers (a placement loop took 45 ms, then 12, then 1.3 on
 * tested_sample_project), as no pooled worker of the server does after its first few jobs; one
 * warm-up left small files measured half-cold.
 */
export const IFC_WARMUP = 5;

/** IFC → USDZ for every corpus IFC (or the given subset). */
export async function benchIfc(rounds: number, only?: (file: string) => boolean): Promise<IfcRow[]> {
  const rows: IfcRow[] = [];
  for (const file of corpusFiles('ifc').filter((f) => f.endsWith('.ifc') && (!only || only(f)))) {
    const bytes = bytesOf(join(CORPUS_DIR, 'ifc', file));
    const triangles = await webIfcStreamAllMeshes(bytes);
    const inThread = await compare(() => oursIfc(bytes), () => webIfcStreamAllMeshes(bytes), rounds, IFC_WARMUP);
    const contained = await compare(() => convertModel(bytes.slice()), () => webIfcStreamAllMeshes(bytes), rounds, IFC_WARMUP);
    rows.push({ file, bytes: bytes.length, triangles, webIfc: inThread.peer, ours: inThread.ours, ratio: inThread.ratio, contained: contained.ours, containedRatio: contained.ratio });
    console.error(`  ifc ${file}: ours/web-ifc ×${inThread.ratio.median.toFixed(2)} (contained ×${contained.ratio.median.toFixed(2)})`);
  }
  return rows;
}

/** GLB → USDZ for every corpus GLB (or the subset), against three.js when its harness loads. */
export async function benchGlb(rounds: number, only?: (file: string) => boolean): Promise<GlbRow[]> {
  const three = await loadThree();
  const rows: GlbRow[] = [];
  for (const file of corpusFiles('glb').filter((f) => !f.startsWith('Synthetic_5001') && (!only || only(f)))) {
    const bytes = bytesOf(join(CORPUS_DIR, 'glb', file));
    const ours = async () => writeUsdz(mergeByMaterial(await readGlb(bytes)));
    const oursParts = await ours();
    const row: GlbRow = {
      file, bytes: bytes.length, triangles: (await readGlb(bytes)).stats.triangles,
      ours: { median: 0, min: 0, max: 0, runs: 0 }, oursUsdzBytes: oursParts.reduce((n, p) => n + p.length, 0),
    };
    if (typeof three === 'string') {
      row.threeError = three;
      row.ours = (await compare(ours, ours, rounds)).ours;
      console.error(`  glb ${file}: ours ${row.ours.median.toFixed(1)} ms (${three})`);
    } else {
      for (const [key, options] of [['three', { maxTextureSize: 2048 }], ['threeDefaults', {}]] as const) {
        try {
          const usdzBytes = (await three(bytes, options)).length;
          const c = await compare(ours, () => three(bytes, options), rounds);
          row.ours = c.ours;
          row[key] = { time: c.peer, usdzBytes, speedup: invert(c.ratio) };
        } catch (err) {
          row.threeError = (err as Error).message.split('\n')[0]!;
        }
      }
      if (!row.three) row.ours = (await compare(ours, ours, rounds)).ours;
      console.error(`  glb ${file}: ${row.three ? `×${row.three.speedup.median.toFixed(1)} faster than three.js` : `three.js failed: ${row.threeError}`}`);
    }
    rows.push(row);
  }
  return rows;
}

export type ThreeConvert = (glb: Uint8Array, options?: { maxTextureSize?: number }) => Promise<Uint8Array>;

/** three.js GLTFLoader + USDZExporter in Node, or why it could not load. */
export async function loadThree(): Promise<ThreeConvert | string> {
  try {
    const peer = (await import(new URL('../peers/threeUsdzExporter.mjs', import.meta.url).href)) as { threeGlbToUsdz: ThreeConvert };
    // USDZExporter console.warn()s whole material objects (double-sided materials); formatting them
    // would sit inside its timed loop and flood the log, so warnings are muted while it runs.
    return async (glb, options) => {
      const warn = console.warn;
      console.warn = () => {};
      try {
        return await peer.threeGlbToUsdz(glb, options);
      } finally {
        console.warn = warn;
      }
    };
  } catch (err) {
    return `three.js harness unavailable (${(err as Error).message.split('\n')[0]})`;
  }
}

function invert(s: Sample): Sample {
  return { median: 1 / s.median, min: 1 / s.max, max: 1 / s.min, runs: s.runs };
}
