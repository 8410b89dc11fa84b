// What a server tells Prometheus, read from its /metrics as a scrape would: every event a real
// request makes shows in its series, by route, method, format and outcome.
import { spawnSync } from 'node:child_process';
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { glbOf } from './support/glbOf.js';
import { corpusPath } from './support/corpus.js';
import { sampleValue } from './support/prometheusText.js';
import {
  filePart,
  form,
  getDetail,
  postSession,
  sessionIdOf,
  startTestServer,
  TEST_METRICS_TOKEN,
  type TestServer,
} from './support/serverHarness.js';

const BOX = corpusPath('glb', 'Box.glb');
const PLANE = {};

function statusOf(url: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      res.resume();
      resolve(res.statusCode);
    }).on('error', reject);
  });
}

/** A scrape as Prometheus makes it: of a metrics port, or of the public port with the bearer token. */
async function scrape(url: string): Promise<string> {
  const r = await fetch(url, { headers: { Authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return r.text();
}

describe('GET /metrics on the public port', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("is not served by default: its figures are the operator's, not the internet's", async () => {
    const plain = await startTestServer({ metricsToken: undefined });
    try {
      expect(plain.server.metricsUrl).toBeUndefined();
      expect(await statusOf(`${plain.url}/metrics`)).toBe(404);
      const doc = (await (await fetch(`${plain.url}/api/vision/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
      expect(doc.paths['/metrics']).toBeUndefined();
    } finally {
      await plain.stop();
    }
  });

  it('with ARSESSION_METRICS_TOKEN, only to a scrape that sends it as a bearer token, and the document says so', async () => {
    const doc = (await (await fetch(`${t.url}/api/vision/v1/openapi.json`)).json()) as {
      paths: Record<string, { get?: { security?: unknown[] } }>;
    };
    expect(doc.paths['/metrics']?.get?.security).toEqual([{ MetricsToken: [] }]);
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: 'Bearer wrong-token-0123456789' },
      { Authorization: TEST_METRICS_TOKEN },
      { Authorization: `Basic ${TEST_METRICS_TOKEN}` },
    ]) {
      const r = await fetch(`${t.url}/metrics`, { headers });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await r.json()).toMatchObject({ code: 'metrics_token_invalid', errors: [{ field: 'Authorization' }] });
    }
  });

  it(
    'counts sessions by method, requests by route template and status, ' + 'conversions by format and outcome, cache lookups and claims',
    async () => {
      const first = await postSession(t, 'by_plane', form({ model_file: filePart(BOX), ...PLANE }));
      expect(first.status).toBe(201);
      // The same model again: placed from the conversion cache.
      expect((await postSession(t, 'by_plane', form({ model_file: filePart(BOX), ...PLANE }))).status).toBe(201);
      // A GLB whose mesh points at nothing: refused by the conversion, with its code.
      const broken = glbOf({
        asset: { version: '2.0' },
        meshes: [{ primitives: [{ attributes: { POSITION: 5 } }] }],
        nodes: [{ mesh: 0 }],
        scenes: [{ nodes: [0] }],
      });
      const bad = await postSession(t, 'by_plane', form({ model_file: [new Blob([broken]), 'broken.glb'], ...PLANE }));
      expect(bad.status).toBe(422);
      const id = sessionIdOf(first.body.deeplink);
      expect((await getDetail(t, id)).status).toBe(200);
      const claim = (code: string) =>
        fetch(`${t.url}/api/vision/v1/session/claim`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ onetime_code: code }),
        });
      expect((await claim(first.body.onetime_code)).status).toBe(200);
      // The same client again (a lost answer, retried), then a code nobody holds.
      expect((await claim(first.body.onetime_code)).status).toBe(200);
      expect((await claim(first.body.onetime_code === '000000000001' ? '000000000002' : '000000000001')).status).toBe(404);
      expect((await fetch(`${t.url}/no/such/thing`)).status).toBe(404);

      // Not behind keys: a scrape carries none.
      const text = await scrape(`${t.url}/metrics`);
      expect(sampleValue(text, 'arsession_sessions_created_total', { method: 'by_plane' })).toBe(2);
      expect(
        sampleValue(text, 'arsession_http_request_duration_seconds_count', {
          route: '/api/vision/v1/session/by_plane',
          method: 'POST',
          status: '201',
        }),
      ).toBe(2);
      expect(
        sampleValue(text, 'arsession_http_request_duration_seconds_count', {
          route: '/api/vision/v1/session/by_plane',
          method: 'POST',
          status: '422',
        }),
      ).toBe(1);
      expect(
        sampleValue(text, 'arsession_http_request_duration_seconds_count', {
          route: '/api/vision/v1/session/:id',
          method: 'GET',
          status: '200',
        }),
      ).toBe(1);
      expect(sampleValue(text, 'arsession_http_request_duration_seconds_count', { route: 'unmatched', method: 'GET', status: '404' })).toBe(
        1,
      );
      // Ids never make series of their own.
      expect(text).not.toContain(id);
      expect(sampleValue(text, 'arsession_conversion_duration_seconds_count', { format: 'glb', outcome: 'converted' })).toBe(1);
      expect(sampleValue(text, 'arsession_conversion_duration_seconds_count', { format: 'glb', outcome: bad.body.code })).toBe(1);
      expect(sampleValue(text, 'arsession_conversion_duration_seconds_sum', { format: 'glb', outcome: 'converted' })).toBeGreaterThan(0);
      expect(sampleValue(text, 'arsession_conversion_cache_lookups_total', { result: 'miss' })).toBe(2);
      expect(sampleValue(text, 'arsession_conversion_cache_lookups_total', { result: 'hit' })).toBe(1);
      expect(sampleValue(text, 'arsession_ar_budget_triangles_count', { stage: 'source' })).toBe(1);
      expect(sampleValue(text, 'arsession_ar_budget_triangles_sum', { stage: 'delivered' })).toBe(12);
      expect(sampleValue(text, 'arsession_claims_total', { outcome: 'claimed' })).toBe(1);
      expect(sampleValue(text, 'arsession_claims_total', { outcome: 'retried' })).toBe(1);
      expect(sampleValue(text, 'arsession_claims_total', { outcome: 'code_not_found' })).toBe(1);
      // Nothing is converting now, and every series names the role.
      expect(sampleValue(text, 'arsession_queue_jobs', { state: 'active' })).toBe(0);
      expect(sampleValue(text, 'arsession_sessions_created_total', { role: 'all' })).toBe(2);
      // Node's own: event-loop lag, heap, GC.
      expect(sampleValue(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(sampleValue(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
      expect(sampleValue(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(text).toMatch(/^# TYPE nodejs_gc_duration_seconds histogram$/m);
      // The scrape is counted too, by its own route.
      expect(
        sampleValue(await scrape(`${t.url}/metrics`), 'arsession_http_request_duration_seconds_count', {
          route: '/metrics',
          status: '200',
        }),
      ).toBe(1);
    },
  );
});

describe('the metrics text', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('passes promtool check metrics: names, types and help as Prometheus wants them (no gauge named _total)', async () => {
    expect((await postSession(t, 'by_plane', form({ model_file: filePart(BOX), ...PLANE }))).status).toBe(201);
    const text = await scrape(`${t.url}/metrics`);
    const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`.trim()).toBe('');
    expect(run.status).toBe(0);
    expect(text).toMatch(/^nodejs_active_handles\{/m);
  });
});

describe('ARSESSION_METRICS_PORT', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ metricsPort: 0 });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('moves the scrape off the public port, onto a listener that serves nothing else', async () => {
    expect(t.server.metricsUrl).not.toBe(`${t.url}/metrics`);
    // Plain HTTP, not the contract-checking fetch: the document this server serves has no /metrics.
    expect(await statusOf(`${t.url}/metrics`)).toBe(404);
    const doc = (await (await fetch(`${t.url}/api/vision/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(doc.paths['/metrics']).toBeUndefined();
    expect((await postSession(t, 'by_plane', form({ model_file: filePart(BOX), ...PLANE }))).status).toBe(201);
    expect(sampleValue(await scrape(t.server.metricsUrl!), 'arsession_sessions_created_total', { method: 'by_plane' })).toBe(1);
    expect(await statusOf(t.server.metricsUrl!.replace(/\/metrics$/, '/healthz'))).toBe(404);
  });
});
