import { join } from 'node:path';
import { checkStepSyntax, convertModel, mergeByMaterial, readGlb, readIfc, StepEntityOffsets, writeUsdz } from '@arsession/convert';
import { bytesOf, CORPUS_DIR, corpusFiles } from './corpus.js';
import { compare, summarize, type Sample } from './sample.js';
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
  /** Medians (ms) of each step of ours, timed one by one in rounds of their own. */
  phases?: IfcPhases;
}

/** Where our IFC → USDZ time goes, against web-ifc's own streaming of the same file. */
export interface IfcPhases {
  /** web-ifc's StreamAllMeshes with every geometry's arrays copied out (the baseline). */
  webIfc: number;
  /** The STEP syntax check alone, noting entity offsets as `readIfc` does (part of reading). */
  stepCheck: number;
  /**
   * `readIfc` less the baseline and the check (a difference of medians, floored at 0): placing
   * every vertex (in place of the baseline's copy-out), identity, storeys and the door index.
   */
  reading: number;
  /** `mergeByMaterial`. */
  merge: number;
  /** `writeUsdz` (binary layer, zip). */
  write: number;
}

/** Times each step of ours and web-ifc's streaming in the same rounds, each step on its own. */
async function phasesIfc(bytes: Uint8Array, rounds: number): Promise<IfcPhases> {
  const t = { webIfc: [] as number[], stepCheck: [] as number[], read: [] as number[], merge: [] as number[], write: [] as number[] };
  const time = async <T>(list: number[], run: () => Promise<T> | T): Promise<T> => {
    const t0 = performance.now();
    const out = await run();
    list.push(performance.now() - t0);
    return out;
  };
  for (let i = 0; i < rounds; i++) {
    await time(t.webIfc, () => webIfcStreamAllMeshes(bytes));
    await time(t.stepCheck, () => checkStepSyntax(bytes, {}, new StepEntityOffsets()));
    const scene = await time(t.read, () => readIfc(bytes));
    const merged = await time(t.merge, () => mergeByMaterial(scene));
    await time(t.write, () => writeUsdz(merged));
  }
  const m = (list: number[]) => summarize(list).median;
  return {
    webIfc: m(t.webIfc),
    stepCheck: m(t.stepCheck),
    reading: Math.max(0, m(t.read) - m(t.webIfc) - m(t.stepCheck)),
    merge: m(t.merge),
    write: m(t.write),
  };
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
    const inThread = await compare(
      () => oursIfc(bytes),
      () => webIfcStreamAllMeshes(bytes),
      rounds,
      IFC_WARMUP,
    );
    const contained = await compare(
      () => convertModel(bytes.slice()),
      () => webIfcStreamAllMeshes(bytes),
      rounds,
      IFC_WARMUP,
    );
    const phases = await phasesIfc(bytes, rounds);
    rows.push({
      file,
      bytes: bytes.length,
      triangles,
      webIfc: inThread.peer,
      ours: inThread.ours,
      ratio: inThread.ratio,
      contained: contained.ours,
      containedRatio: contained.ratio,
      phases,
    });
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
      file,
      bytes: bytes.length,
      triangles: (await readGlb(bytes)).stats.triangles,
      ours: { median: 0, min: 0, max: 0, runs: 0 },
      oursUsdzBytes: oursParts.reduce((n, p) => n + p.length, 0),
    };
    if (typeof three === 'string') {
      row.threeError = three;
      row.ours = (await compare(ours, ours, rounds)).ours;
      console.error(`  glb ${file}: ours ${row.ours.median.toFixed(1)} ms (${three})`);
    } else {
      for (const [key, options] of [
        ['three', { maxTextureSize: 2048 }],
        ['threeDefaults', {}],
      ] as const) {
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
      console.error(
        `  glb ${file}: ` +
          `${row.three ? `×${row.three.speedup.median.toFixed(1)} faster than three.js` : `three.js failed: ${row.threeError}`}`,
      );
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
