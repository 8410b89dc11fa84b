// The distributed mode as operators run it: two API processes and two worker processes
// (`arsession serve --role api|worker`, real processes) against one PostgreSQL, one S3-compatible
// store (OpenStack Swift) and one Redis, all private, all on loopback. Sessions cross API nodes,
// one-time codes are claimed once cluster-wide, and kill -9 of a worker or an API node loses
// nothing that was promised.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectStore } from '../packages/server/src/objects/ObjectStore.js';
import { openS3ObjectStore } from '../packages/server/src/objects/s3/openS3ObjectStore.js';
import { openPostgresSessionStore } from '../packages/server/src/store/postgres/openPostgresSessionStore.js';
import { removeObjectOrphans } from '../packages/server/src/sweeper/sweepExpired.js';
import { corpusPath } from './support/corpus.js';
import { createKeyWithCli, startCliServer, type CliServer } from './support/cliServer.js';
import { startPostgres, type PostgresServer } from '@arsession/bench/services';
import { startPrometheus, startRedis, type RedisServer } from '@arsession/bench/services';
import { sampleValue } from './support/prometheusText.js';
import { form } from './support/serverHarness.js';
import { startSwift, type SwiftServer } from '@arsession/bench/services';
import { ONE_PIXEL_PNG } from './support/onePixelPng.js';
import { requestFrom } from './support/requestFrom.js';

const BOX = readFileSync(corpusPath('glb', 'Box.glb'));
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let postgres: PostgresServer, swift: SwiftServer, redis: RedisServer;
let env: Record<string, string>;
let key: string;
const dirs: string[] = [];
const apis: CliServer[] = [];
const workers: CliServer[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'arsession-node-'));
  dirs.push(dir);
  return dir;
};
const startWorker = async () => {
  const w = await startCliServer(dataDir(), env, 'worker');
  workers.push(w);
  return w;
};

beforeAll(async () => {
  [postgres, swift, redis] = await Promise.all([startPostgres(), startSwift(), startRedis()]);
  env = {
    ARSESSION_DATABASE_URL: await postgres.createDatabase('cluster'),
    ARSESSION_S3_BUCKET: 'cluster',
    ARSESSION_S3_ENDPOINT: swift.endpoint,
    ARSESSION_S3_REGION: swift.region,
    ARSESSION_S3_ACCESS_KEY_ID: swift.accessKeyId,
    ARSESSION_S3_SECRET_ACCESS_KEY: swift.secretAccessKey,
    ARSESSION_S3_FORCE_PATH_STYLE: 'true',
    ARSESSION_REDIS_URL: redis.url,
    ARSESSION_QUEUE_NAME: 'cluster',
    // A killed worker's job goes to another within seconds (production keeps BullMQ's 30 s).
    ARSESSION_JOB_LOCK_S: '2',
    ARSESSION_WORKERS: '1',
    ARSESSION_QUEUE: '16',
    // Claims are counted cluster-wide (all from 127.0.0.1 here): room for every claim this file makes.
    ARSESSION_CLAIMS_PER_CLIENT_PER_MIN: '100',
    // Every role serves its metrics on a port of its own (a free one each, logged at start).
    ARSESSION_METRICS_PORT: '0',
  };
  apis.push(...(await Promise.all([startCliServer(dataDir(), env, 'api'), startCliServer(dataDir(), env, 'api')])));
  await Promise.all([startWorker(), startWorker()]);
  key = createKeyWithCli(dataDir(), 'cluster', env);
}, 180_000);

afterAll(async () => {
  await Promise.all([...apis, ...workers].map((p) => p.kill9()));
  await Promise.all([swift.stop(), redis.stop()]);
  postgres.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function post(
  api: CliServer,
  path: string,
  fields: Record<string, string>,
  files: Record<string, [Buffer, string]>,
): Promise<{ status: number; body: Record<string, any> }> {
  const body = form(fields);
  for (const [field, [bytes, name]] of Object.entries(files)) body.append(field, new Blob([bytes]), name);
  const res = await fetch(`${api.url}/api/vision/v1/session/${path}/`, { method: 'POST', body, headers: { 'X-API-Key': key } });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
const idOf = (deeplink: string) => deeplink.slice(deeplink.lastIndexOf('/') + 1);

/** The cluster's session store and object store, as an operator's tool would open them. */
async function clusterStores() {
  const store = await openPostgresSessionStore({ url: env.ARSESSION_DATABASE_URL!, sessionsDir: dataDir() });
  const objects = await openS3ObjectStore({
    endpoint: swift.endpoint,
    bucket: 'cluster',
    region: swift.region,
    accessKeyId: swift.accessKeyId,
    secretAccessKey: swift.secretAccessKey,
    forcePathStyle: true,
    redirect: false,
  });
  return { store, objects };
}

/**
 * Starts a session request whose multipart body stops after its first 100 kB and never ends: it is
 * in flight until the node dies. Resolves whether the node answered it (true) or the connection
 * broke (false).
 */
function stalledUpload(api: CliServer): Promise<boolean> {
  return new Promise((resolve) => {
    const boundary = 'stalled-upload';
    const req = httpRequest(`${api.url}/api/vision/v1/session/by_plane/`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': '10000000', 'x-api-key': key },
    });
    req.on('error', () => resolve(false));
    req.on('response', (res) => {
      res.resume();
      resolve(true);
    });
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="model_file"; filename="stalled.glb"\r\n\r\n`);
    req.write(Buffer.concat([BOX, Buffer.alloc(100_000, 0x20)]));
  });
}

/**
 * Waits until the store lists the same session and saved-model objects twice, half a second
 * apart: what a killed node had sent has landed. Throws when it is still changing after 10 s.
 */
async function listingHoldsStill(objects: ObjectStore): Promise<void> {
  const listing = async () =>
    JSON.stringify([[...(await objects.sessionsWithFiles()).entries()], [...(await objects.savedModelObjects()).entries()]]);
  let last = await listing();
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const now = await listing();
    if (now === last) return;
    last = now;
  }
  throw new Error('the object store was still changing 10 s after the node was killed');
}

/** A session as another node serves it: detail, and every file with the size and hash the detail promises. */
async function readThrough(api: CliServer, id: string): Promise<{ status: number; files: Array<{ ok: boolean }> }> {
  const detail = await fetch(`${api.url}/api/vision/v1/session/${id}/`);
  if (detail.status !== 200) return { status: detail.status, files: [] };
  const d = (await detail.json()) as { model_assets: Array<{ usdz_url: string; usdz_bytes: number; usdz_sha256: string }> };
  const files = await Promise.all(
    d.model_assets.map(async (a) => {
      const bytes = new Uint8Array(await (await fetch(a.usdz_url.replace(/^https?:\/\/[^/]+/, api.url))).arrayBuffer());
      return { ok: bytes.length === a.usdz_bytes && sha256(bytes) === a.usdz_sha256 };
    }),
  );
  return { status: 200, files };
}

const ENDPOINTS: Array<[string, Record<string, string>]> = [
  ['by_plane', {}],
  [
    'by_scan',
    { 'alignment.corners': '[[-0.45, 0, 1], [0.45, 0, 1], [0.45, 2.1, 1], [-0.45, 2.1, 1]]', 'alignment.wall_normal': '[0, 0, 1]' },
  ],
  [
    'by_virtual_anchor/rectangle-short-side',
    {
      'virtual_anchor.center': '[1, 0, 2]',
      'virtual_anchor.width': '0.6',
      'virtual_anchor.height': '1.2',
      'virtual_anchor.plane_normal': '[0, 1, 0]',
      'virtual_anchor.short_side_direction': '[1, 0, 0]',
    },
  ],
  [
    'by_virtual_anchor/segment-directional',
    {
      'virtual_anchor.segment_point_1': '[0, 0, 0]',
      'virtual_anchor.segment_point_2': '[2, 0, 1]',
      'virtual_anchor.plane_normal': '[0, 1, 0]',
    },
  ],
  [
    'by_virtual_anchor/circle-directional',
    {
      'virtual_anchor.center': '[0, 1, 0]',
      'virtual_anchor.radius': '0.5',
      'virtual_anchor.plane_normal': '[0, 0, 1]',
      'virtual_anchor.direction': '[1, 1, 0]',
    },
  ],
  [
    'by_virtual_anchor/corner-directional',
    {
      'virtual_anchor.corner': '[3, 0, -1]',
      'virtual_anchor.edge_1_direction': '[1, 0, 0]',
      'virtual_anchor.edge_2_direction': '[0, 0, 1]',
      'virtual_anchor.plane_normal': '[0, 1, 0]',
    },
  ],
  [
    'by_refimage',
    {
      'reference_image.physical_width': '0.3',
      'reference_image.center': '[0, 1.5, 0]',
      'reference_image.normal': '[0, 0, 1]',
      'reference_image.up': '[0, 1, 0]',
    },
  ],
];

describe('two API nodes, two workers', () => {
  it.each(ENDPOINTS.map(([path, fields], i) => [path, fields, i] as const))(
    '%s through one API node, read, downloaded and claimed through the other',
    async (path, fields, i) => {
      const [mine, other] = [apis[i % 2]!, apis[(i + 1) % 2]!];
      // A model of its own per endpoint (the bytes differ), so each is really converted by a worker.
      const model = Buffer.concat([BOX, Buffer.alloc(4 * (i + 1), 0x20)]);
      const files: Record<string, [Buffer, string]> = {
        model_file: [model, `box-${i}.glb`],
        ...(path === 'by_refimage' && { reference_image: [ONE_PIXEL_PNG, 'poster.png'] }),
      };
      const created = await post(mine, path, fields, files);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = idOf(created.body.deeplink);
      expect(await readThrough(other, id)).toEqual({ status: 200, files: [{ ok: true }] });
      const claim = await fetch(`${other.url}/api/vision/v1/session/claim/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ onetime_code: created.body.onetime_code }),
      });
      expect(claim.status).toBe(200);
      expect(((await claim.json()) as { session_id: string }).session_id).toBe(id);
    },
  );

  it('a Quick Look package first asked of both nodes at once: one file, the same bytes through either', async () => {
    const created = await post(apis[0]!, 'by_plane', {}, { model_file: [Buffer.concat([BOX, Buffer.alloc(40, 0x20)]), 'asked-twice.glb'] });
    const id = idOf(created.body.deeplink);
    const ask = (api: CliServer) =>
      fetch(`${api.url}/api/vision/v1/session/${id}/files/0.quicklook.usdz`).then(async (r) => ({
        status: r.status,
        etag: r.headers.get('etag'),
        hash: sha256(new Uint8Array(await r.arrayBuffer())),
      }));
    const answers = await Promise.all([ask(apis[0]!), ask(apis[1]!), ask(apis[0]!), ask(apis[1]!)]);
    expect(answers.every((a) => a.status === 200 && a.etag === `"${answers[0]!.hash}"` && a.hash === answers[0]!.hash)).toBe(true);
    const { store, objects } = await clusterStores();
    try {
      expect((await store.find(id))!.files.filter((f) => f.name === '0.quicklook.usdz')).toHaveLength(1);
      expect(sha256(await objects.readSessionFile(id, '0.quicklook.usdz'))).toBe(answers[0]!.hash);
    } finally {
      await store.close();
    }
  });

  it('one code claimed by four clients through both nodes at once: exactly one 200, and its retry through the other node', async () => {
    const created = await post(apis[0]!, 'by_plane', {}, { model_file: [BOX, 'box.glb'] });
    const claim = (api: CliServer, client: string) =>
      requestFrom(client, api.url, '/api/vision/v1/session/claim/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ onetime_code: created.body.onetime_code }),
      });
    const clients = ['127.0.0.11', '127.0.0.12', '127.0.0.13', '127.0.0.14'];
    const answers = await Promise.all(clients.map((client, k) => claim(apis[k % 2]!, client)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404, 404]);
    // The winner's answer was lost: it asks the other node, which answers the same session.
    const winner = answers.findIndex((a) => a.status === 200);
    const retry = await claim(apis[(winner + 1) % 2]!, clients[winner]!);
    expect(retry.status).toBe(200);
    expect(JSON.parse(retry.body)).toEqual(JSON.parse(answers[winner]!.body));
  });

  it('a key revoked through one node fails on the next request on the other', async () => {
    const other = createKeyWithCli(dataDir(), 'revoked', env);
    const check = (api: CliServer) => fetch(`${api.url}/api/vision/v1/models/`, { headers: { 'X-API-Key': other } }).then((r) => r.status);
    expect([await check(apis[0]!), await check(apis[1]!)]).toEqual([200, 200]);
    const store = await openPostgresSessionStore({ url: env.ARSESSION_DATABASE_URL!, sessionsDir: dataDir() });
    await store.revokeApiKey(other);
    await store.close();
    expect([await check(apis[1]!), await check(apis[0]!)]).toEqual([401, 401]);
  });
});

describe('shared state across nodes', () => {
  it('a model converted through one node is placed from the shared cache through the other, with no job queued', async () => {
    const model = Buffer.concat([BOX, Buffer.alloc(77, 0x20)]);
    const first = await post(apis[0]!, 'by_plane', {}, { model_file: [model, 'cached.glb'] });
    expect(first.status).toBe(201);
    const events = new QueueEvents('cluster', { connection: { url: redis.url } });
    await events.waitUntilReady();
    let added = 0;
    events.on('added', () => added++);
    try {
      const second = await post(apis[1]!, 'by_plane', {}, { model_file: [model, 'again.glb'] });
      expect(second.status).toBe(201);
      // A job, had one been added, is announced within milliseconds: give it time to show.
      await new Promise((r) => setTimeout(r, 500));
      expect(added).toBe(0);
      const [a, b] = await Promise.all(
        [first, second].map(
          async (r) =>
            (await (await fetch(`${apis[0]!.url}/api/vision/v1/session/${idOf(r.body.deeplink)}/`)).json()) as {
              model_assets: Array<{ usdz_sha256: string; glb_sha256: string }>;
            },
        ),
      );
      expect(b!.model_assets[0]).toMatchObject({
        usdz_sha256: a!.model_assets[0]!.usdz_sha256,
        glb_sha256: a!.model_assets[0]!.glb_sha256,
      });
      expect(await readThrough(apis[0]!, idOf(second.body.deeplink))).toEqual({ status: 200, files: [{ ok: true }] });
    } finally {
      await events.close();
    }
  });

  it("claims from one client are throttled across nodes: the limit counts every node's attempts", async () => {
    // A deployment of its own on the same Redis (its counters named after its queue), limit 4 a minute.
    const limited = { ...env, ARSESSION_QUEUE_NAME: 'throttled', ARSESSION_CLAIMS_PER_CLIENT_PER_MIN: '4' };
    const nodes = await Promise.all([startCliServer(dataDir(), limited, 'api'), startCliServer(dataDir(), limited, 'api')]);
    try {
      const claim = (api: CliServer) =>
        fetch(`${api.url}/api/vision/v1/session/claim/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ onetime_code: '000000000000' }),
        });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await claim(nodes[i % 2]!)).status);
      expect(statuses).toEqual([404, 404, 404, 404, 429, 429]);
    } finally {
      await Promise.all(nodes.map((n) => n.kill9()));
    }
  });

  it('both roles echo their settings at start, secrets hidden', () => {
    for (const node of [apis[0]!, workers[0]!]) {
      const line = JSON.parse(
        node
          .output()
          .split('\n')
          .find((l) => /arsession (listening|worker ready)/.test(l))!,
      ) as { config: Record<string, unknown> };
      expect(line.config).toMatchObject({
        ARSESSION_S3_BUCKET: 'cluster',
        ARSESSION_S3_SECRET_ACCESS_KEY: '***',
        ARSESSION_REDIS_URL: redis.url,
      });
      expect(node.output()).not.toContain(swift.secretAccessKey);
    }
  });

  it('a split role without what the nodes share is refused at start, naming what to set', async () => {
    const { ARSESSION_S3_BUCKET: _bucket, ARSESSION_DATABASE_URL: _db, ...partial } = env;
    for (const role of ['api', 'worker'] as const) {
      const started = await startCliServer(dataDir(), { ...partial, ARSESSION_S3_BUCKET: '', ARSESSION_DATABASE_URL: '' }, role).then(
        () => 'started',
        (err: Error) => err.message,
      );
      expect(started).toMatch(/needs what they share; set ARSESSION_S3_BUCKET/);
      if (role === 'api') expect(started).toMatch(/ARSESSION_DATABASE_URL/);
    }
  });
});

describe('a real Prometheus scraping every role', () => {
  /** Where a node serves its metrics: its start-up line says. */
  const metricsUrlOf = (node: CliServer): string => {
    const line = node
      .output()
      .split('\n')
      .find((l) => /arsession (listening|worker ready)/.test(l))!;
    return (JSON.parse(line) as { metrics: string }).metrics;
  };
  /** A metric summed over every node, read straight from them. */
  const direct = async (name: string, labels: Record<string, string>) => {
    const texts = await Promise.all([...apis, ...workers].map(async (n) => (await fetch(metricsUrlOf(n))).text()));
    return texts.reduce((sum, text) => sum + (sampleValue(text, name, labels) ?? 0), 0);
  };
  /** Polls `read` until it gives `want` (Prometheus scrapes each second), at most 30 s. */
  const eventually = async <T>(read: () => Promise<T>, want: T): Promise<T> => {
    let got = await read();
    for (let i = 0; i < 60 && JSON.stringify(got) !== JSON.stringify(want); i++) {
      await new Promise((r) => setTimeout(r, 500));
      got = await read();
    }
    return got;
  };

  it('scrapes both API nodes and both workers, and sees the series a distributed session produced', async () => {
    const prometheus = await startPrometheus([...apis, ...workers].map(metricsUrlOf));
    try {
      // A model of its own, so a worker really converts it.
      const created = await post(apis[0]!, 'by_plane', {}, { model_file: [Buffer.concat([BOX, Buffer.alloc(64, 0x20)]), 'scraped.glb'] });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const scalar = async (expr: string) => (await prometheus.query(expr))[0]?.value;

      expect(await eventually(async () => (await prometheus.query('up')).map((s) => s.value), [1, 1, 1, 1])).toEqual([1, 1, 1, 1]);
      const roles = async () =>
        (await prometheus.query('count by (role) (process_resident_memory_bytes)')).map((s) => `${s.metric.role} ${s.value}`).sort();
      expect(await eventually(roles, ['api 2', 'worker 2'])).toEqual(['api 2', 'worker 2']);
      // What the nodes say now, read from them directly, is what Prometheus comes to hold.
      const sessions = await direct('arsession_sessions_created_total', { method: 'by_plane' });
      const requests = await direct('arsession_http_request_duration_seconds_count', {
        route: '/api/vision/v1/session/by_plane',
        method: 'POST',
        status: '201',
      });
      const converted = await direct('arsession_conversion_duration_seconds_count', {
        role: 'worker',
        format: 'glb',
        outcome: 'converted',
      });
      expect(sessions).toBeGreaterThanOrEqual(1);
      expect(converted).toBeGreaterThanOrEqual(1);
      expect(await eventually(() => scalar('sum(arsession_sessions_created_total{method="by_plane"})'), sessions)).toBe(sessions);
      expect(
        await eventually(
          () =>
            scalar(
              'sum(arsession_http_request_duration_seconds_count{route="/api/vision/v1/session/by_plane",method="POST",status="201"})',
            ),
          requests,
        ),
      ).toBe(requests);
      expect(
        await eventually(
          () => scalar('sum(arsession_conversion_duration_seconds_count{role="worker",format="glb",outcome="converted"})'),
          converted,
        ),
      ).toBe(converted);
      // The API nodes report the shared queue's depth; nothing waits now.
      expect(
        await eventually(
          async () => (await prometheus.query('arsession_queue_jobs{role="api",state="waiting"}')).map((s) => s.value),
          [0, 0],
        ),
      ).toEqual([0, 0]);
    } finally {
      await prometheus.stop();
    }
  }, 90_000);
});

describe('kill -9', () => {
  it('of the worker converting a model: the job finishes on another worker and the request still gets its 201', async () => {
    // One worker left to take the job, so that the one killed is the one converting it.
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    const victim = await startWorker();
    const queue = new Queue('cluster', { connection: { url: redis.url } });
    try {
      // A model big enough to be mid-conversion when the worker dies (web-ifc on 3 MB of IFC).
      const request = post(
        apis[0]!,
        'by_plane',
        {},
        { model_file: [readFileSync(corpusPath('ifc', 'ISSUE_021_Mini_Project.ifc')), 'mini.ifc'] },
      );
      for (let i = 0; i < 200 && (await queue.getActiveCount()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(await queue.getActiveCount()).toBe(1);
      await victim.kill9();
      workers.splice(workers.indexOf(victim), 1);
      await startWorker();
      const created = await request;
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(await readThrough(apis[1]!, idOf(created.body.deeplink))).toEqual({ status: 200, files: [{ ok: true }] });
      // Nothing of the killed attempt is left: the job's scratch objects went with the request, and
      // a sweep with no grace at all finds no object that no row owns.
      const { store, objects } = await clusterStores();
      try {
        expect([...(await objects.scratchObjects()).keys()].filter((k) => k.startsWith(idOf(created.body.deeplink)))).toEqual([]);
        const swept = await removeObjectOrphans(store, objects, { graceMs: 3600_000, scratchGraceMs: 3600_000 }, Date.now() + 7200_000);
        expect(swept.sessions).not.toContain(idOf(created.body.deeplink));
        expect(await store.find(idOf(created.body.deeplink))).toBeDefined();
      } finally {
        await store.close();
      }
    } finally {
      await queue.close();
    }
  }, 120_000);

  it('of an API node during uploads: every session that answered 201 is ' +
    "intact; a sweep then leaves exactly the committed sessions' objects", async () => {
    const victim = await startCliServer(dataDir(), env, 'api');
    // Requests of several sizes, so that some are still uploading or converting when the node dies.
    const sent = Array.from({ length: 6 }, (_, i) =>
      post(victim, 'by_plane', {}, { model_file: [Buffer.concat([BOX, Buffer.alloc(100 + i * 400_000, 0x20)]), `m${i}.glb`] }).catch(
        () => undefined,
      ),
    );
    // And one whose body stops halfway: in flight when the node dies, however fast the node is.
    const stalled = stalledUpload(victim);
    // The node dies as soon as one session has committed (others are turned away at once, 429, with
    // more uploads from one address than it takes), the larger uploads most likely still going.
    const committedBeforeKill = new Set<number>();
    sent.forEach((p, i) => void p.then((r) => r?.status === 201 && committedBeforeKill.add(i)));
    for (let i = 0; i < 500 && committedBeforeKill.size === 0; i++) await new Promise((r) => setTimeout(r, 10));
    await victim.kill9();
    const results = await Promise.all(sent);
    expect(await stalled).toBe(false);
    const answered = results.filter((r) => r?.status === 201);
    expect(answered.length).toBeGreaterThan(0);
    for (const r of answered) expect(await readThrough(apis[1]!, idOf(r!.body.deeplink))).toEqual({ status: 200, files: [{ ok: true }] });
    const { store, objects } = await clusterStores();
    try {
      // An upload the node had sent whole before it died may still be landing in the store; the
      // sweeper runs again and again, but the one sweep here runs once what was sent has landed.
      await listingHoldsStill(objects);
      // What the killed node had put for sessions that never committed is owned by no row: a sweep
      // past the grace removes it (saved models and scratch objects too), and nothing else.
      await removeObjectOrphans(store, objects, { graceMs: 3600_000, scratchGraceMs: 3600_000 }, Date.now() + 7200_000);
      const withFiles = await objects.sessionsWithFiles();
      const owned = await store.existingSessions([...withFiles.keys()]);
      expect([...withFiles.keys()].filter((id) => !owned.has(id))).toEqual([]);
      for (const r of answered) expect(owned.has(idOf(r!.body.deeplink))).toBe(true);
      // Rows never point at missing files: every committed session lists exactly what the store holds.
      for (const id of owned) expect((await store.find(id))!.files.map((f) => f.name).sort()).toEqual(withFiles.get(id)!.names.sort());
      expect([...(await objects.savedModelObjects()).keys()].sort()).toEqual([...(await store.savedModelFiles())].sort());
    } finally {
      await store.close();
    }
  }, 120_000);
});
