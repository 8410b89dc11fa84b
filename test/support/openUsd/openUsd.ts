import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../browser.js';

/** What OpenUSD draws of a file: its Hydra meshes (visible ones), their triangles and world bounds, in the stage's own units and axes. */
export interface OpenUsdReport {
  /** Set when OpenUSD cannot open the file (or failed drawing it); nothing else is then. */
  error?: string;
  upAxis?: string | null;
  metersPerUnit?: number | null;
  meshes?: number;
  triangles?: number;
  bounds?: { min: [number, number, number]; max: [number, number, number] } | null;
  /** The drawn meshes' prim paths, sorted. */
  paths?: string[];
  /** The material Hydra drew each mesh with (its path), by mesh path; null for none. */
  materials?: Record<string, string | null>;
  /**
   * By mesh path, what a screen reader is given for it as OpenUSD reads the file: each prim at or
   * above the mesh with an `AccessibilityAPI` label, nearest first, with its label and description.
   */
  spoken?: Record<string, Array<{ prim: string; label: string; description: string }>>;
  /**
   * By mesh path, its faces per element as OpenUSD reads the indexed `primvars:element` (values
   * flattened through the indices) and the triangles Hydra drew of it; null for a mesh without one. `outOfTable` is an index past
   * the values, where one was met.
   */
  elements?: Record<string, { faces: number; drawnFaces: number; ids: Record<string, number>; outOfTable?: number } | null>;
  /** Instanceable prims in the root layer, as OpenUSD read it (Hydra draws each prototype once, whatever its instances). */
  instances?: number;
  /** What OpenUSD said of the file as it composed and drew it: errors and warnings. */
  diagnostics?: string[];
}

/** A real OpenUSD (22.x, with Hydra), opening files in Chromium: see {@link startOpenUsd}. */
export interface OpenUsd {
  /**
   * Opens a USD file (a `.usdz` package, or a layer) and reports what Hydra draws, at `time`
   * (default: the last sample). With `variants`, the file is opened as an app selecting them would
   * see it: referenced by a layer whose prim `/Selected` selects them (its variant opinions are
   * the stronger), so paths are reported under `/Selected`.
   */
  open(bytes: Uint8Array, name: string, time?: number, variants?: Readonly<Record<string, string>>): Promise<OpenUsdReport>;
  close(): Promise<void>;
}

/**
 * A report's world bounds in Y-up metres, as our detail states bounds: the stage's `metersPerUnit`
 * applied (USD's fallback 0.01 when it states none) and a Z-up stage turned (x, y, z) → (x, z, −y).
 *
 * @example
 * ```ts
 * inMetresYUp(await usd.open(bytes, 'model.usdz')).min; // → [x, y, z] in metres
 * ```
 */
export function inMetresYUp(report: OpenUsdReport): { min: number[]; max: number[] } {
  if (!report.bounds) throw new Error(`OpenUSD drew nothing${report.error ? ` (${report.error})` : ''}`);
  const s = report.metersPerUnit ?? 0.01;
  const { min, max } = report.bounds;
  if ((report.upAxis ?? 'Y') === 'Z') return { min: [min[0] * s, min[2] * s, -max[1] * s], max: [max[0] * s, max[2] * s, -min[1] * s] };
  return { min: min.map((v) => v * s), max: max.map((v) => v * s) };
}

const HERE = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
/**
 * The build asks for more threads than its pool of 2 while Draw() holds the page's main thread,
 * and the page can deadlock waiting for one: a pool made larger up front avoids it.
 */
const POOL = { from: 'var pthreadPoolSize = 2;', to: 'var pthreadPoolSize = 8;' };
/** Longest one file may take: the largest we write open in under a second. */
const OPEN_TIMEOUT_MS = 30_000;
const ISOLATED = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * Starts the tests' oracle for USD: Autodesk's WebAssembly build of OpenUSD with Hydra (npm
 * `usd-viewer@0.0.0`, `wasm/emHdBindings.*`), which runs only in a browser, served on loopback
 * with the cross-origin isolation its threads need, in Debian's Chromium. What it cannot show:
 * skinned meshes (no UsdSkel in this build: nothing under a SkelRoot is drawn) and instances
 * (an instanceable prim's prototype is drawn once: `instances` counts them in the layer instead).
 *
 * @example
 * ```ts
 * const usd = await startOpenUsd();
 * const { triangles, bounds } = await usd.open(usdzBytes, 'model.usdz');
 * await usd.close();
 * ```
 */
export async function startOpenUsd(): Promise<OpenUsd> {
  const wasm = join(dirname(require.resolve('usd-viewer')), 'wasm');
  const glue = readFileSync(join(wasm, 'emHdBindings.js'), 'utf8');
  if (glue.split(POOL.from).length !== 2)
    throw new Error(`usd-viewer's glue no longer has "${POOL.from}" once: the thread pool cannot be raised`);
  const files = new Map<string, { body: Buffer; type: string }>([
    ['/', { body: Buffer.from('<!doctype html><meta charset="utf-8"><script src="/page.js"></script>'), type: 'text/html' }],
    ['/page.js', { body: readFileSync(join(HERE, 'openUsdPage.js')), type: 'text/javascript' }],
    ['/wasm/emHdBindings.js', { body: Buffer.from(glue.replace(POOL.from, POOL.to)), type: 'text/javascript' }],
    ['/wasm/emHdBindings.worker.js', { body: readFileSync(join(wasm, 'emHdBindings.worker.js')), type: 'text/javascript' }],
    ['/wasm/emHdBindings.wasm', { body: readFileSync(join(wasm, 'emHdBindings.wasm')), type: 'application/wasm' }],
    ['/wasm/emHdBindings.data', { body: readFileSync(join(wasm, 'emHdBindings.data')), type: 'application/octet-stream' }],
  ]);
  const models = new Map<string, Uint8Array>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = files.get(path);
    const model = models.get(path);
    if (file) res.writeHead(200, { ...ISOLATED, 'Content-Type': file.type }).end(file.body);
    else if (model) res.writeHead(200, { ...ISOLATED, 'Content-Type': 'application/octet-stream' }).end(model);
    else res.writeHead(404, ISOLATED).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  let browser: Browser | undefined;
  let page: Page;
  const startPage = async () => {
    page = await browser!.newPage();
    await page.goto(origin);
    const started = page.evaluate(() => (globalThis as unknown as { openUsd: { init(): Promise<void> } }).openUsd.init());
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`OpenUSD did not start within ${OPEN_TIMEOUT_MS / 1000} s`)), OPEN_TIMEOUT_MS);
    });
    try {
      await Promise.race([started, late]);
    } finally {
      clearTimeout(timer);
      started.catch(() => undefined);
    }
  };
  try {
    browser = await launchChromium();
    await startPage();
  } catch (err) {
    await browser?.close();
    server.close();
    throw err;
  }
  let served = 0;
  const openOnce = async (
    bytes: Uint8Array,
    name: string,
    time?: number,
    variants?: Readonly<Record<string, string>>,
  ): Promise<OpenUsdReport> => {
    const url = `/models/${++served}/${encodeURIComponent(name)}`;
    models.set(url, bytes);
    let timer: NodeJS.Timeout | undefined;
    try {
      const opened = page.evaluate(
        ([u, n, t, v]) =>
          (
            globalThis as unknown as {
              openUsd: { open(u: string, n: string, t?: number, v?: Readonly<Record<string, string>>): Promise<OpenUsdReport> };
            }
          ).openUsd.open(u, n, t, v),
        [url, name, time, variants] as const,
      );
      const late = new Promise<OpenUsdReport>((resolve) => {
        timer = setTimeout(() => resolve({ error: `OpenUSD did not finish ${name} within ${OPEN_TIMEOUT_MS / 1000} s` }), OPEN_TIMEOUT_MS);
      });
      const report = await Promise.race([opened, late]);
      // OpenUSD that aborted, or hangs, is unusable: the next file gets a fresh page.
      if (report.error?.startsWith('OpenUSD aborted') || report.error?.startsWith('OpenUSD did not finish')) {
        opened.catch(() => undefined);
        await page.close();
        await startPage();
      }
      return report;
    } finally {
      clearTimeout(timer);
      models.delete(url);
    }
  };
  return {
    async open(bytes, name, time, variants) {
      const report = await openOnce(bytes, name, time, variants);
      // A page that hung (this build can, rarely, when a thread it waits for is slow to start) is
      // replaced: the file is tried once more there, so only a file that hangs OpenUSD fails.
      return report.error?.startsWith('OpenUSD did not finish') ? openOnce(bytes, name, time, variants) : report;
    },
    async close() {
      await browser?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
