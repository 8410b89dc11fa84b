// The distributed server (PostgreSQL, an S3-compatible store and Redis, all real, all private) when
// one of them goes away and comes back: 503 with Retry-After while it is down (never a 500, never a
// hang), normal service after, with no restart of the server. And files served by redirect.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readServerConfig, startServer } from '@arsession/server';
import { Queue } from 'bullmq';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from './support/corpus.js';
import { startPostgres, type PostgresServer } from '@arsession/bench/services';
import { startRedis, type RedisServer } from '@arsession/bench/services';
import { startSwift, type SwiftServer } from '@arsession/bench/services';
import {
  filePart,
  form,
  getDetail,
  postSession,
  sessionIdOf,
  scrapeMetrics,
  startTestServer,
  type TestServer,
} from './support/serverHarness.js';
import { sampleValue } from './support/prometheusText.js';

/** How many requests the server counts as failed by a backing service (its /metrics). */
async function serviceErrors(t: TestServer, service: string, kind: string): Promise<number> {
  return sampleValue(await (await scrapeMetrics(t)).text(), 'arsession_backing_service_errors_total', { service, kind }) ?? 0;
}

/** Waits until the server says it is ready (/readyz 200: store, queue, object store and disk answer), up to 30 s. */
async function untilReady(server: TestServer): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 30_000; await new Promise((done) => setTimeout(done, 200))) {
    if ((await fetch(`${server.url}/readyz`)).status === 200) return;
  }
  throw new Error('the server did not become ready within 30 s');
}

const BOX = corpusPath('glb', 'Box.glb');
const ANCHOR = {
  'virtual_anchor.center': '[0,0,0]',
  'virtual_anchor.radius': '1',
  'virtual_anchor.plane_normal': '[0,1,0]',
  'virtual_anchor.direction': '[1,0,0]',
};

let postgres: PostgresServer;
let swift: SwiftServer;
let redis: RedisServer;
let t: TestServer;
beforeAll(async () => {
  [postgres, swift, redis] = await Promise.all([startPostgres(), startSwift(), startRedis()]);
  t = await startTestServer({
    databaseUrl: await postgres.createDatabase('outage'),
    s3Bucket: 'outage',
    s3Endpoint: swift.endpoint,
    s3Region: swift.region,
    s3AccessKeyId: swift.accessKeyId,
    s3SecretAccessKey: swift.secretAccessKey,
    s3ForcePathStyle: true,
    redisUrl: redis.url,
    queueName: 'outage',
  });
});
afterAll(async () => {
  await t.stop();
  postgres.stop();
  await Promise.all([swift.stop(), redis.stop()]);
});

describe('PostgreSQL down and back under a running server', () => {
  it('503 store_unavailable with Retry-After on every path that needs it; /readyz says why; all well again after', async () => {
    // Every service just started on a loaded machine: the outage is measured from a server ready.
    await untilReady(t);
    const before = await postSession(t, 'by_virtual_anchor/circle-directional', form({ model_file: filePart(BOX), ...ANCHOR }));
    expect(before.status, JSON.stringify(before.body)).toBe(201);
    const id = sessionIdOf(before.body.deeplink);
    const counted = await serviceErrors(t, 'store', 'store_unavailable');

    postgres.stopNow();
    try {
      const created = await postSession(t, 'by_virtual_anchor/circle-directional', form({ model_file: filePart(BOX), ...ANCHOR }));
      expect([created.status, created.headers.get('content-type'), created.body.code]).toEqual([
        503,
        expect.stringMatching(/^application\/problem\+json/),
        'store_unavailable',
      ]);
      expect(created.headers.get('retry-after')).toMatch(/^\d+$/);
      const anonymous = await postSession(t, 'by_plane', form({ model_file: filePart(BOX) }), null);
      expect([anonymous.status, anonymous.body.code]).toEqual([503, 'store_unavailable']);
      const detail = await fetch(`${t.url}/api/vision/v1/session/${id}/`);
      expect([detail.status, detail.headers.get('retry-after')]).toEqual([503, expect.stringMatching(/^\d+$/)]);
      const claim = await fetch(`${t.url}/api/vision/v1/session/claim/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ onetime_code: before.body.onetime_code }),
      });
      expect(claim.status).toBe(503);
      const ready = await fetch(`${t.url}/readyz`);
      expect(ready.status).toBe(503);
      // Which check failed, never the error's own text (hosts, ports, database messages).
      const readiness = await ready.text();
      expect((JSON.parse(readiness) as { checks: { database: string } }).checks.database).toBe('cannot be reached');
      expect(readiness).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|postgres|:\d{4,5}/i);
    } finally {
      postgres.start();
    }

    expect((await getDetail(t, id)).status).toBe(200);
    expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
    const after = await postSession(t, 'by_virtual_anchor/circle-directional', form({ model_file: filePart(BOX), ...ANCHOR }));
    expect(after.status).toBe(201);
    // The operator sees it: four requests failed by the store (create twice, detail, claim).
    expect((await serviceErrors(t, 'store', 'store_unavailable')) - counted).toBe(4);
  });
});

describe('the object store down and back under a running server', () => {
  it('503 object_store_unavailable on create and download, details still served; all well again after', async () => {
    const before = await postSession(t, 'by_virtual_anchor/circle-directional', form({ model_file: filePart(BOX), ...ANCHOR }));
    expect(before.status).toBe(201);
    const id = sessionIdOf(before.body.deeplink);
    const url = (await getDetail(t, id)).body.model_assets[0].usdz_url as string;
    const counted = await serviceErrors(t, 'objects', 'object_store_unavailable');
    await swift.stopProxy();
    try {
      // A model never converted before, so that the request really needs the store.
      const created = await postSession(t, 'by_plane', form({ model_file: filePart(corpusPath('glb', 'DamagedHelmet.glb')) }), null);
      expect([created.status, created.body.code, created.headers.get('retry-after')]).toEqual([
        503,
        'object_store_unavailable',
        expect.stringMatching(/^\d+$/),
      ]);
      expect((await getDetail(t, id)).status).toBe(200);
      const file = await fetch(url);
      expect([file.status, file.headers.get('retry-after')]).toEqual([503, expect.stringMatching(/^\d+$/)]);
      const ready = await fetch(`${t.url}/readyz`);
      expect(ready.status).toBe(503);
      const readiness = await ready.text();
      expect((JSON.parse(readiness) as { checks: { objects: string } }).checks.objects).toBe('cannot be reached');
      expect(readiness).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|swift|:\d{4,5}/i);
    } finally {
      await swift.startProxy();
    }
    const file = await fetch(url);
    expect(file.status).toBe(200);
    expect((await file.arrayBuffer()).byteLength).toBe((await getDetail(t, id)).body.model_assets[0].usdz_bytes);
    expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
    // The create and the download.
    expect((await serviceErrors(t, 'objects', 'object_store_unavailable')) - counted).toBe(2);
  });
});

describe('files answered by a redirect to a presigned URL (ARSESSION_S3_REDIRECT)', () => {
  it('307 to a URL that serves the file, ranges included, with its type and download name', async () => {
    const r = await startTestServer({
      databaseUrl: await postgres.createDatabase('redirect'),
      s3Bucket: 'redirect',
      s3Endpoint: swift.endpoint,
      s3Region: swift.region,
      s3AccessKeyId: swift.accessKeyId,
      s3SecretAccessKey: swift.secretAccessKey,
      s3ForcePathStyle: true,
      s3Redirect: true,
    });
    try {
      const created = await postSession(r, 'by_plane', form({ model_file: filePart(BOX) }), null);
      const asset = (await getDetail(r, sessionIdOf(created.body.deeplink))).body.model_assets[0];
      const answer = await fetch(asset.usdz_url, { redirect: 'manual' });
      expect(answer.status).toBe(307);
      const target = answer.headers.get('location')!;
      expect(target.startsWith(swift.endpoint)).toBe(true);
      const whole = await fetch(target);
      const bytes = new Uint8Array(await whole.arrayBuffer());
      expect([whole.status, bytes.length, createHash('sha256').update(bytes).digest('hex')]).toEqual([
        200,
        asset.usdz_bytes,
        asset.usdz_sha256,
      ]);
      expect(whole.headers.get('content-type')).toBe('model/vnd.usdz+zip');
      expect(whole.headers.get('content-disposition')).toMatch(/Box\.usdz/);
      const part = await fetch(target, { headers: { range: 'bytes=0-3' } });
      expect([part.status, Buffer.from(await part.arrayBuffer()).toString()]).toEqual([206, 'PK\u0003\u0004']);
    } finally {
      await r.stop();
    }
  });
});

describe('Redis down and back under a running server', () => {
  it('503 queue_unavailable for a conversion while it is down; sessions still read; all well again after', async () => {
    const before = await postSession(t, 'by_plane', form({ model_file: filePart(BOX) }), null);
    expect(before.status).toBe(201);
    const id = sessionIdOf(before.body.deeplink);
    const counted = await serviceErrors(t, 'queue', 'queue_unavailable');
    await redis.kill();
    try {
      // A model never converted before (the cache would answer without the queue).
      const created = await postSession(t, 'by_plane', form({ model_file: filePart(corpusPath('glb', 'BoxTextured.glb')) }), null);
      expect([created.status, created.body.code, created.headers.get('retry-after')]).toEqual([
        503,
        'queue_unavailable',
        expect.stringMatching(/^\d+$/),
      ]);
      expect((await getDetail(t, id)).status).toBe(200);
      const ready = await fetch(`${t.url}/readyz`);
      expect(ready.status).toBe(503);
      expect((await serviceErrors(t, 'queue', 'queue_unavailable')) - counted).toBe(1);
    } finally {
      await redis.start();
    }
    // The queue's connections reconnect by themselves; the next request goes through.
    let after = await postSession(t, 'by_plane', form({ model_file: filePart(corpusPath('glb', 'BoxTextured.glb')) }), null);
    for (let i = 0; i < 20 && after.status === 503; i++) {
      await new Promise((r) => setTimeout(r, 250));
      after = await postSession(t, 'by_plane', form({ model_file: filePart(corpusPath('glb', 'BoxTextured.glb')) }), null);
    }
    expect(after.status).toBe(201);
  });
});

describe('a cluster queue deeper than ARSESSION_CLUSTER_QUEUE', () => {
  it('503 saturated with Retry-After, before the model is put in the object store', async () => {
    // An API node whose queue has no worker, and three jobs already waiting from other nodes.
    const dataDir = mkdtempSync(join(tmpdir(), 'arsession-saturated-'));
    const config = readServerConfig(
      {},
      {
        port: 0,
        host: '127.0.0.1',
        dataDir,
        databaseUrl: await postgres.createDatabase('saturated'),
        s3Bucket: 'saturated',
        s3Endpoint: swift.endpoint,
        s3Region: swift.region,
        s3AccessKeyId: swift.accessKeyId,
        s3SecretAccessKey: swift.secretAccessKey,
        s3ForcePathStyle: true,
        redisUrl: redis.url,
        queueName: 'saturated',
        clusterQueue: 3,
      },
    );
    const backlog = new Queue('saturated', { connection: { url: redis.url } });
    const server = await startServer(config, { role: 'api', logger: pino({ level: 'silent' }) });
    try {
      await Promise.all([1, 2, 3].map((i) => backlog.add('convert', { from: `another node ${i}` })));
      const res = await fetch(`${server.url}/api/vision/v1/session/by_plane/`, {
        method: 'POST',
        body: form({ model_file: filePart(corpusPath('glb', 'Avocado-Draco.glb')) }),
      });
      const body = (await res.json()) as { code: string };
      expect([res.status, body.code, res.headers.get('retry-after')]).toEqual([503, 'saturated', expect.stringMatching(/^\d+$/)]);
      expect(await server.context.objects.scratchObjects()).toEqual(new Map());
      expect(await backlog.getWaitingCount()).toBe(3);
    } finally {
      await backlog.obliterate({ force: true });
      await backlog.close();
      await server.close(1000);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
