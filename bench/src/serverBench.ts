import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { CORPUS_DIR } from './corpus.js';
import { summarize, type Sample } from './sample.js';
import { startTarget } from './startTarget.js';

/** One load run against one server. */
export interface LoadRun {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** Session creation under load against the bare upload floor, pair by pair. */
export interface ServerRow {
  connections: number;
  seconds: number;
  ours: LoadRun[];
  /** Ours with the conversion cache off: every request converts. */
  uncached?: LoadRun[];
  bare: LoadRun[];
  /** ours ÷ bare requests per second, per pair (higher is better; target ≥ 0.7). */
  throughputRatio: Sample;
  uncachedRatio?: Sample;
}

const CONNECTIONS = 32;

/** The same multipart body for both: Box.glb as model_file plus a rectangle anchor's fields. */
function multipartBody(boundary: string): Buffer {
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  return Buffer.concat([
    Buffer.from(
      field('virtual_anchor.anchor_type', 'rectangle_short_side') +
        field('virtual_anchor.center', '[0, 0, 0]') +
        field('virtual_anchor.width', '0.6') +
        field('virtual_anchor.height', '1.2') +
        field('virtual_anchor.plane_normal', '[0, 1, 0]') +
        field('virtual_anchor.short_side_direction', '[1, 0, 0]') +
        `--${boundary}\r\nContent-Disposition: form-data; name="model_file"; filename="Box.glb"\r\nContent-Type: model/gltf-binary\r\n\r\n`,
    ),
    readFileSync(join(CORPUS_DIR, 'glb', 'Box.glb')),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

export async function load(url: string, key: string, seconds: number): Promise<LoadRun> {
  const boundary = 'arsessionbench';
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, ...(key && { 'X-API-Key': key }) },
    body: multipartBody(boundary),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * Session creation (by_virtual_anchor rectangle with Box.glb: upload, parse, place, convert,
 * store) against a bare Express + multer endpoint that only stores the same upload; 32 clients
 * with autocannon on loopback, each server in its own process, rounds alternating after a warm-up.
 */
export async function benchServer(quick: boolean): Promise<ServerRow> {
  const seconds = quick ? 4 : 10;
  const rounds = quick ? 1 : 3;
  const ours: LoadRun[] = [],
    uncached: LoadRun[] = [],
    bare: LoadRun[] = [],
    ratios: number[] = [],
    uncachedRatios: number[] = [];
  const kinds = ['ours', 'ours-uncached', 'bare'] as const;
  const dirs = Object.fromEntries(kinds.map((k) => [k, mkdtempSync(join(tmpdir(), `bench-${k}-`))])) as Record<
    (typeof kinds)[number],
    string
  >;
  const targets = {
    ours: await startTarget(['ours', dirs.ours]),
    'ours-uncached': await startTarget(['ours-uncached', dirs['ours-uncached']]),
    bare: await startTarget(['bare', dirs.bare]),
  };
  try {
    for (const k of kinds) await load(targets[k].url, targets[k].key, 2);
    for (let r = 0; r < rounds; r++) {
      const o = await load(targets.ours.url, targets.ours.key, seconds);
      const u = await load(targets['ours-uncached'].url, targets['ours-uncached'].key, seconds);
      const b = await load(targets.bare.url, targets.bare.key, seconds);
      ours.push(o);
      uncached.push(u);
      bare.push(b);
      ratios.push(o.requestsPerSecond / b.requestsPerSecond);
      uncachedRatios.push(u.requestsPerSecond / b.requestsPerSecond);
      console.error(
        `  round ${r + 1}: ours ${o.requestsPerSecond.toFixed(0)} req/s (p99 ${o.p99Ms} ms, non-2xx ` +
          `${o.non2xx}), cache off ${u.requestsPerSecond.toFixed(0)}, bare ${b.requestsPerSecond.toFixed(0)} req/s`,
      );
    }
  } finally {
    for (const k of kinds) targets[k].child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    for (const k of kinds) rmSync(dirs[k], { recursive: true, force: true });
  }
  return {
    connections: CONNECTIONS,
    seconds,
    ours,
    uncached,
    bare,
    throughputRatio: summarize(ratios),
    uncachedRatio: summarize(uncachedRatios),
  };
}
