import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { readGlb, readModel } from '@arsession/convert';
import { LARGE_MODELS_DIR } from '../budgetBench.js';
import { summarize, type Sample } from '../sample.js';
import { startTarget } from '../startTarget.js';
import { renderTogether, type RenderedModel } from '../render/renderModel.js';

/** The federation: the 29 subcontractor models of Schependomlaan (bench/LARGE-MODELS.md), in this folder of the large models. */
export const FEDERATION_FOLDER = 'schependomlaan';

/** What one session of the whole federation delivered, from its detail record. */
export interface FederationDelivery {
  models: number;
  /** What the device loads together: every asset's `usdz_url`. */
  triangles: number;
  drawCalls: number;
  meshPrims: number;
  usdzBytes: number;
  sourceTriangles: number;
  /** Distinct `session_level`s of the storeys, and the assets that state none. */
  levels: number;
  withoutStoreys: number;
  /** Assets delivered as parts too, and those parts. */
  partedModels: number;
  parts: number;
  /** Per model: its name, bytes, triangles and draw calls as delivered, and its budget share's triangles. */
  rows: Array<{ name: string; bytes: number; triangles: number; drawCalls: number; shareTriangles: number }>;
}

/** What {@link benchFederation} measured, or why it could not. */
export interface FederationBench {
  folder: string;
  rounds: number;
  megabytes: number;
  /** Milliseconds from the request's first byte to the session's answer (every model converted). */
  session: Sample;
  /** Milliseconds of web-ifc alone streaming every file in one process. */
  webIfc: Sample;
  ratio: Sample;
  webIfcPeakMb: number;
  delivery: FederationDelivery;
  renders?: RenderedModel;
  skipped?: string;
}

interface Asset {
  source_name: string;
  source_bytes: number;
  triangles: number;
  draw_calls: number;
  usdz_bytes: number;
  offset: [number, number, number];
  glb_url?: string;
  storeys?: Array<{ session_level: number }>;
  parts?: { items: unknown[] } | null;
  ar_budget?: { limits: { triangles: number }; source: { triangles: number }; delivered: { mesh_prims: number } };
}

const WEB_IFC_ALL = new URL('./webIfcAll.js', import.meta.url).pathname;

/**
 * A federation of real discipline models in one session, as a device loads it: the files of
 * `<large models>/schependomlaan` (masonry per storey, floors, steel, frames, roof, railings,
 * prefab; bench/LARGE-MODELS.md) posted together to the embedded server on its defaults (files
 * allowed raised to 64, the cache off), `rounds` times, beside web-ifc alone streaming the same
 * files; then what the session delivers (triangles, draw calls, levels, parts) and the delivered
 * GLBs rendered together beside the models as read.
 *
 * @example
 * ```ts
 * const f = await benchFederation(3); // f.delivery.triangles → what a device loads, ≤ 100,000
 * ```
 */
export async function benchFederation(rounds: number): Promise<FederationBench> {
  const folder = join(LARGE_MODELS_DIR, FEDERATION_FOLDER);
  const files = existsSync(folder)
    ? readdirSync(folder)
        .filter((f) => /\.ifc(zip)?$/i.test(f))
        .sort()
        .map((f) => join(folder, f))
    : [];
  const empty = { models: 0, triangles: 0, drawCalls: 0, meshPrims: 0, usdzBytes: 0, sourceTriangles: 0 };
  if (files.length === 0) {
    const none = summarize([0]);
    return {
      folder: FEDERATION_FOLDER,
      rounds,
      megabytes: 0,
      session: none,
      webIfc: none,
      ratio: none,
      webIfcPeakMb: 0,
      delivery: { ...empty, levels: 0, withoutStoreys: 0, partedModels: 0, parts: 0, rows: [] },
      skipped: `no IFC files in ${folder} (bench/LARGE-MODELS.md)`,
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-federation-'));
  const target = await startTarget(['federation', dataDir]);
  try {
    const session: number[] = [],
      webIfc: number[] = [],
      ratio: number[] = [];
    let webIfcPeakMb = 0,
      assets: Asset[] = [];
    for (let round = 0; round < rounds; round++) {
      const peer = await webIfcAll(files);
      const mine = await postFederation(target.url, files);
      webIfc.push(peer.ms);
      session.push(mine.ms);
      ratio.push(mine.ms / peer.ms);
      webIfcPeakMb = Math.max(webIfcPeakMb, peer.peakRssMb);
      assets = mine.assets;
    }
    const delivery = deliveryOf(assets);
    console.error(
      `  ${files.length} models: session ${summarize(session).median.toFixed(0)} ms, ` +
        `web-ifc alone ${summarize(webIfc).median.toFixed(0)} ms; ` +
        `${delivery.triangles} triangles, ${delivery.drawCalls} draw calls`,
    );
    const renders = await renderFederation(files, assets).catch((err: unknown) => {
      console.error(`  render failed: ${String(err)}`);
      return undefined;
    });
    const megabytes = files.reduce((n, f) => n + readFileSync(f).length, 0) / 2 ** 20;
    return {
      folder: FEDERATION_FOLDER,
      rounds,
      megabytes,
      session: summarize(session),
      webIfc: summarize(webIfc),
      ratio: summarize(ratio),
      webIfcPeakMb,
      delivery,
      ...(renders && { renders }),
    };
  } finally {
    target.child.kill('SIGTERM');
    await new Promise((resolve) => target.child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * web-ifc alone on every file, in a fresh process. Awaited, not run synchronously: with this
 * process's event loop stopped for longer than the server keeps an idle connection open, the
 * next round's POST went out on the connection the server had closed meanwhile (EPIPE).
 */
async function webIfcAll(files: string[]): Promise<{ ms: number; peakRssMb: number }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [WEB_IFC_ALL, ...files], { encoding: 'utf8', timeout: 900_000 });
    return JSON.parse(stdout) as { ms: number; peakRssMb: number };
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? String(err);
    throw new Error(`web-ifc alone: ${stderr.trim().split('\n').at(-1)}`);
  }
}

/** One by_plane session of every file (`model_files` parts), timed to its answer; the assets its detail lists. */
async function postFederation(base: string, files: string[]): Promise<{ ms: number; assets: Asset[] }> {
  const form = new FormData();
  for (const f of files) form.append('model_files', new Blob([readFileSync(f)]), basename(f));
  const started = performance.now();
  const created = await fetch(`${base}/api/vision/v1/session/by_plane/`, { method: 'POST', body: form });
  const body = (await created.json()) as { deeplink?: string };
  const ms = performance.now() - started;
  if (created.status !== 201 || !body.deeplink) throw new Error(`the federation's session: ${created.status} ${JSON.stringify(body)}`);
  const id = body.deeplink.split('/').pop()!;
  const detail = (await (await fetch(`${base}/api/vision/v1/session/${id}/`)).json()) as { model_assets: Asset[] };
  return { ms, assets: detail.model_assets };
}

function deliveryOf(assets: Asset[]): FederationDelivery {
  const sum = (f: (a: Asset) => number) => assets.reduce((n, a) => n + f(a), 0);
  return {
    models: assets.length,
    triangles: sum((a) => a.triangles),
    drawCalls: sum((a) => a.draw_calls),
    meshPrims: sum((a) => a.ar_budget?.delivered.mesh_prims ?? 0),
    usdzBytes: sum((a) => a.usdz_bytes),
    sourceTriangles: sum((a) => a.ar_budget?.source.triangles ?? a.triangles),
    levels: new Set(assets.flatMap((a) => (a.storeys ?? []).map((s) => s.session_level))).size,
    withoutStoreys: assets.filter((a) => !a.storeys?.length).length,
    partedModels: assets.filter((a) => a.parts?.items.length).length,
    parts: sum((a) => a.parts?.items.length ?? 0),
    rows: assets.map((a) => ({
      name: a.source_name,
      bytes: a.source_bytes,
      triangles: a.triangles,
      drawCalls: a.draw_calls,
      shareTriangles: a.ar_budget?.limits.triangles ?? 0,
    })),
  };
}

/** Every model as read beside every delivered GLB, drawn together in the frame the session gave them. */
async function renderFederation(files: string[], assets: Asset[]): Promise<RenderedModel> {
  const glbs = await Promise.all(
    assets.map(async (a) => {
      if (!a.glb_url) throw new Error(`${a.source_name} has no glb_url`);
      return { bytes: new Uint8Array(await (await fetch(a.glb_url)).arrayBuffer()), offset: a.offset };
    }),
  );
  return renderTogether(
    `${FEDERATION_FOLDER}.federation`,
    files.map((f) => () => readModel(new Uint8Array(readFileSync(f)), { fileName: basename(f) })),
    glbs.map(({ bytes, offset }) => async () => ({ ...(await readGlb(bytes)), offset })),
  );
}
