// Traces as an operator turns them on: `arsession serve` processes given the standard OTEL_*
// environment export OTLP/HTTP to a receiver on loopback, an API node and a worker (real
// processes, on a private PostgreSQL, Swift and Redis) and an embedded server alike.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, startRedis, startSwift, type PostgresServer, type RedisServer, type SwiftServer } from '@arsession/bench/services';
import { tracesRequested } from '../packages/server/src/tracing/tracesRequested.js';
import { createKeyWithCli, startCliServer, type CliServer } from './support/cliServer.js';
import { ac20DoorView } from './support/ac20DoorView.js';
import { corpusPath } from './support/corpus.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './support/otlpReceiver.js';
import { form } from './support/serverHarness.js';

const AC20 = readFileSync(corpusPath('ifc', 'AC20-FZK-Haus.ifc'));
const SERVER = 2,
  PRODUCER = 4,
  CONSUMER = 5;

let postgres: PostgresServer, swift: SwiftServer, redis: RedisServer, otlp: OtlpReceiver;
const processes: CliServer[] = [];
const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'arsession-traces-'));
  dirs.push(dir);
  return dir;
};
/** What an operator sets to send traces to a collector; a short batch delay so the test need not wait. */
const otelEnv = () => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_SERVICE_NAME: 'arsession-test',
  OTEL_BSP_SCHEDULE_DELAY: '100',
});

beforeAll(async () => {
  [postgres, swift, redis, otlp] = await Promise.all([startPostgres(), startSwift(), startRedis(), startOtlpReceiver()]);
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill9()));
  await Promise.all([swift.stop(), redis.stop(), otlp.stop()]);
  postgres.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Posts a by_scan session that asks for a door to be found in AC20-FZK-Haus (so it is always converted, never linked from the cache). */
async function postScan(server: CliServer, key: string): Promise<string> {
  const { viewer, gaze } = await ac20DoorView();
  const body = form({ 'alignment.point_1': JSON.stringify(viewer), 'alignment.point_2': JSON.stringify(gaze) });
  body.append('model_file', new Blob([AC20]), 'AC20-FZK-Haus.ifc');
  const res = await fetch(`${server.url}/api/vision/v1/session/by_scan/`, { method: 'POST', body, headers: { 'X-API-Key': key } });
  expect(res.status, await res.clone().text()).toBe(201);
  const { deeplink } = (await res.json()) as { deeplink: string };
  return deeplink.slice(deeplink.lastIndexOf('/') + 1);
}

/** Every span of the trace `span` belongs to, once those named `last` have arrived too (each process exports in its own batches). */
async function traceOf(span: ReceivedSpan, ...last: string[]): Promise<ReceivedSpan[]> {
  for (const name of last) await otlp.waitFor((s) => s.traceId === span.traceId && s.name === name);
  return otlp.spans.filter((s) => s.traceId === span.traceId);
}

const named = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name);
/** Whether `span` lies under `ancestor` in `spans` (its parent, its parent's parent, …). */
function isUnder(spans: ReceivedSpan[], span: ReceivedSpan, ancestor: ReceivedSpan): boolean {
  for (let s: ReceivedSpan | undefined = span; s; s = spans.find((p) => p.spanId === s!.parentSpanId))
    if (s.parentSpanId === ancestor.spanId) return true;
  return false;
}
const isRedis = (s: ReceivedSpan) => s.attributes['db.system'] === 'redis' || s.attributes['db.system.name'] === 'redis';

describe('a distributed session', () => {
  it("is one trace from the upload on the API node, through the queue, to the worker's conversion and back", async () => {
    const env = {
      ...otelEnv(),
      ARSESSION_DATABASE_URL: await postgres.createDatabase('traces'),
      ARSESSION_REDIS_URL: redis.url,
      ARSESSION_QUEUE_NAME: 'traces',
      ARSESSION_S3_BUCKET: 'traces',
      ARSESSION_S3_ENDPOINT: swift.endpoint,
      ARSESSION_S3_REGION: swift.region,
      ARSESSION_S3_ACCESS_KEY_ID: swift.accessKeyId,
      ARSESSION_S3_SECRET_ACCESS_KEY: swift.secretAccessKey,
      ARSESSION_S3_FORCE_PATH_STYLE: 'true',
    };
    const [api, worker] = await Promise.all([startCliServer(dataDir(), env, 'api'), startCliServer(dataDir(), env, 'worker')]);
    processes.push(api, worker);
    const id = await postScan(api, createKeyWithCli(dataDir(), 'traces', env));

    const request = await otlp.waitFor(
      (s) => s.kind === SERVER && s.resource['arsession.role'] === 'api' && String(s.attributes['http.route'] ?? '').includes('by_scan'),
    );
    const spans = await traceOf(request, 'arsession.store', 'arsession.conversion_job', 'arsession.convert');
    const [queue] = named(spans, 'arsession.queue');
    const [job] = named(spans, 'arsession.conversion_job');
    // Both processes, one trace: the worker's job span is the child of the API node's queue span.
    expect(queue?.kind).toBe(PRODUCER);
    expect(queue?.resource['arsession.role']).toBe('api');
    expect(job?.kind).toBe(CONSUMER);
    expect(job?.resource['arsession.role']).toBe('worker');
    expect(job?.resource['process.pid']).not.toBe(queue?.resource['process.pid']);
    expect([job?.resource['service.name'], queue?.resource['service.name']]).toEqual(['arsession-test', 'arsession-test']);
    expect(job?.parentSpanId).toBe(queue?.spanId);
    // The steps: the request read, the model's conversion in the worker (read, door detection,
    // conversion) under the job, the session stored; with the services each waited on.
    for (const step of ['arsession.read', 'arsession.detect', 'arsession.convert']) {
      expect(
        named(spans, step).map((s) => s.parentSpanId),
        step,
      ).toEqual([job!.spanId]);
    }
    expect(named(spans, 'arsession.read_request')).toHaveLength(1);
    expect(named(spans, 'arsession.model')[0]?.attributes['arsession.cache']).toBe('skipped');
    const store = named(spans, 'arsession.store')[0]!;
    expect(store.attributes['arsession.session']).toBe(id);
    expect(spans.some((s) => s.attributes['db.system'] === 'postgresql' || s.attributes['db.system.name'] === 'postgresql')).toBe(true);
    const redisSpans = spans.filter(isRedis);
    expect(redisSpans.some((s) => s.resource['arsession.role'] === 'worker')).toBe(true);
    // Redis spans name the command, never its arguments (BullMQ's carry whole jobs).
    for (const s of redisSpans) expect(String(s.attributes['db.statement'] ?? s.attributes['db.query.text'] ?? '')).toMatch(/^[a-z]*$/);
    // The object store's requests are the API node's outgoing HTTP, inside the store step.
    const puts = spans.filter(
      (s) => s.kind === 3 && String(s.attributes['url.full'] ?? s.attributes['http.url'] ?? '').startsWith(swift.endpoint),
    );
    expect(puts.length).toBeGreaterThan(0);
    expect(puts.some((s) => isUnder(spans, s, store))).toBe(true);
    expect(spans.every((s) => s.status !== 2)).toBe(true);
  });
});

describe('an embedded server', () => {
  it('traces a session through its own conversion threads; its probes are not traced', async () => {
    const dir = dataDir();
    const server = await startCliServer(dir, otelEnv(), 'all');
    processes.push(server);
    await fetch(`${server.url}/healthz`);
    const key = createKeyWithCli(dir, 'embedded');
    await postScan(server, key);
    const request = await otlp.waitFor((s) => s.kind === SERVER && s.resource['arsession.role'] === 'all');
    const spans = await traceOf(request, 'arsession.store', 'arsession.convert');
    expect(request.attributes['url.path'] ?? request.attributes['http.target']).toBe('/api/vision/v1/session/by_scan/');
    const [model] = named(spans, 'arsession.model');
    for (const step of ['arsession.read', 'arsession.detect', 'arsession.convert']) {
      expect(
        named(spans, step).map((s) => s.parentSpanId),
        step,
      ).toEqual([model!.spanId]);
    }
    expect(named(spans, 'arsession.queue')).toEqual([]);
    // A model refused is the service working: its span names the refusal and is not marked failed.
    const garbage = form({ 'alignment.point_1': '[0, 1.6, 2]', 'alignment.point_2': '[0, 0, -1]' });
    garbage.append('model_file', new Blob(['ISO-10303-21; not really']), 'broken.ifc');
    const refused = await fetch(`${server.url}/api/vision/v1/session/by_scan/`, {
      method: 'POST',
      body: garbage,
      headers: { 'X-API-Key': key },
    });
    expect(refused.status).toBe(422);
    const refusal = await otlp.waitFor((s) => s.name === 'arsession.model' && s.attributes['arsession.model.name'] === 'broken.ifc');
    expect(refusal.attributes['arsession.refused']).toBe('model_unreadable');
    expect(refusal.status).not.toBe(2);
    expect(
      otlp.spans.some(
        (s) =>
          s.resource['arsession.role'] === 'all' &&
          String(s.attributes['url.path'] ?? s.attributes['http.target'] ?? '').startsWith('/healthz'),
      ),
    ).toBe(false);
  });
});

describe('tracesRequested', () => {
  it('is on with an OTLP endpoint or a named exporter, off without, with `none`, or with the SDK disabled', () => {
    expect(tracesRequested({})).toBe(false);
    expect(tracesRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracesRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracesRequested({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(tracesRequested({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
    expect(tracesRequested({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
  });
});
