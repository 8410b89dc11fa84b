import { spawnSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { CONVERT_MODEL_DEFAULTS } from '@arsession/convert';
import { SERVER_CONFIG_DEFAULTS } from '@arsession/server';
import { startTarget } from '../startTarget.js';
import { vmDataKbIn, watchDescendantsPeak } from './descendantsPeak.js';

/** One model posted to the embedded server on its defaults, as a newcomer would: how it was answered. */
export interface ServerDefaultsRun {
  file: string;
  megabytes: number;
  /** The HTTP status: 201 converted, 422 refused. */
  status: number;
  /** The problem's code when refused (`model_too_large`). */
  code?: string;
  /** Milliseconds from the request's first byte to the answer. */
  ms: number;
  /**
   * The most data the conversion's worker process was seen to map above what Node maps at start
   * (MB; VmData sampled every 250 ms, so a peak between samples is missed): what the bound counts.
   */
  workerPeakMb: number;
  /** What Node maps for data at start (MB), under the bound. */
  nodeBaseMb: number;
  /** The default conversion memory bound (MB), counted above `nodeBaseMb`. */
  boundMb: number;
  /** When converted: what its detail record says of the delivery. */
  triangles?: number;
  drawCalls?: number;
  parts?: number;
  elementRecords?: number;
}

interface Detail {
  model_assets: Array<{
    triangles: number;
    draw_calls: number;
    parts?: { items: unknown[] } | null;
    element_records?: { count: number } | null;
  }>;
}

/**
 * Posts `path` in one by_plane session to the embedded server on its defaults (worker processes,
 * the 2,048 MB conversion memory bound, the cache off) and watches its conversion process's
 * memory: whether a model of this size converts there, or is refused by name.
 *
 * @example
 * ```ts
 * const run = await postOnDefaults('restaurant-merged18.ifc'); // run.status → 201
 * ```
 */
export async function postOnDefaults(path: string): Promise<ServerDefaultsRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-defaults-'));
  const target = await startTarget(['federation', dataDir]);
  const watch = watchDescendantsPeak(target.pid);
  try {
    const form = new FormData();
    form.append('model_file', await openAsBlob(path), basename(path));
    const started = performance.now();
    const created = await fetch(`${target.url}/api/vision/v1/session/by_plane/`, { method: 'POST', body: form });
    const body = (await created.json()) as { deeplink?: string; code?: string };
    const ms = performance.now() - started;
    const nodeBaseMb = nodeBaseDataMb();
    const run: ServerDefaultsRun = {
      file: basename(path),
      megabytes: statSync(path).size / 2 ** 20,
      status: created.status,
      ...(body.code !== undefined && { code: body.code }),
      ms,
      workerPeakMb: Math.max(0, watch.stop() - nodeBaseMb),
      nodeBaseMb,
      boundMb: SERVER_CONFIG_DEFAULTS.conversionMemoryBytes / 2 ** 20,
    };
    if (created.status !== 201 || !body.deeplink) return run;
    const detail = (await (await fetch(`${target.url}/api/vision/v1/session/${body.deeplink.split('/').pop()}/`)).json()) as Detail;
    const asset = detail.model_assets[0]!;
    return {
      ...run,
      triangles: asset.triangles,
      drawCalls: asset.draw_calls,
      parts: asset.parts?.items.length ?? 0,
      elementRecords: asset.element_records?.count ?? 0,
    };
  } finally {
    watch.stop();
    if (target.child.exitCode === null && target.child.signalCode === null) {
      const exited = new Promise((resolve) => target.child.once('exit', resolve));
      target.child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** What a conversion process's Node maps for data before running anything (MB), as the server's worker measures it. */
function nodeBaseDataMb(): number {
  const probe = spawnSync(
    process.execPath,
    [
      `--max-old-space-size=${CONVERT_MODEL_DEFAULTS.maxHeapMb}`,
      '-e',
      "process.stdout.write(require('fs').readFileSync('/proc/self/status', 'utf8'))",
    ],
    { encoding: 'utf8' },
  );
  return vmDataKbIn(probe.stdout ?? '') / 1024;
}
