import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { readServerConfig, startServer, type RunningServer, type ServerConfig } from '@arsession/server';
import { pino } from 'pino';
import pg from 'pg';
import { inject } from 'vitest';
import { createHash } from 'node:crypto';

/** The metrics token test servers serve `/metrics` on their public port with (see {@link scrapeMetrics}). */
export const TEST_METRICS_TOKEN = 'test-metrics-token-0123456789';

/** A test server's `/metrics` on its public port, as Prometheus scrapes it: with the bearer token. */
export function scrapeMetrics(t: TestServer): Promise<Response> {
  return fetch(`${t.url}/metrics`, { headers: { Authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
}

/** A real server on a random loopback port with its own data directory. */
export interface TestServer {
  server: RunningServer;
  url: string;
  dataDir: string;
  /** A valid API key of account `tester`. */
  key: string;
  stop(keepData?: boolean): Promise<void>;
}

/**
 * Starts the real server (Express, SQLite file, worker pool) on 127.0.0.1:0. Logs are silenced
 * unless `ARSESSION_TEST_LOG` is set (then they go to stderr), or go to the `logger` given.
 */
export async function startTestServer(
  overrides: Partial<ServerConfig> = {},
  dataDir = mkdtempSync(join(tmpdir(), 'arsession-server-')),
  logger = pino({ level: process.env.ARSESSION_TEST_LOG ? 'info' : 'silent' }, pino.destination(2)),
): Promise<TestServer> {
  const distributed = await distributedSettings(dataDir);
  const config = readServerConfig(
    {},
    {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      workers: 2,
      queue: 8,
      metricsToken: TEST_METRICS_TOKEN,
      // Suites make hundreds of sessions from one address; the allowance itself is tested apart.
      sessionsPerClientPerHour: 100_000,
      sessionsPerKeyPerHour: 100_000,
      ...distributed,
      ...overrides,
    },
  );
  const server = await startServer(config, { logger });
  const key = await server.context.sessions.createApiKey('tester');
  return {
    server,
    url: server.url,
    dataDir,
    key,
    async stop(keepData = false) {
      await server.close(1000);
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A file part for FormData, read from disk (the name is the file's base name unless given). */
export function filePart(path: string, name = basename(path)): [Blob, string] {
  return [new Blob([readFileSync(path)]), name];
}

/** Builds a multipart form: strings as fields, `[Blob, name]` pairs as files, arrays as repeated parts. */
export function form(parts: Record<string, string | [Blob, string] | Array<[Blob, string]>>): FormData {
  const fd = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    const values = Array.isArray(value) && Array.isArray(value[0]) ? (value as Array<[Blob, string]>) : [value as string | [Blob, string]];
    for (const v of values) {
      if (typeof v === 'string') fd.append(name, v);
      else fd.append(name, v[0], v[1]);
    }
  }
  return fd;
}

/** POSTs a form to a session endpoint (`by_plane`, `by_virtual_anchor/…`). */
export async function postSession(
  t: TestServer,
  path: string,
  body: FormData,
  key: string | null = t.key,
): Promise<{ status: number; body: Record<string, any>; headers: Headers }> {
  const res = await fetch(`${t.url}/api/vision/v1/session/${path}/`, {
    method: 'POST',
    body,
    headers: key === null ? {} : { 'X-API-Key': key },
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {}, headers: res.headers };
}

/** The session id of a deeplink. */
export function sessionIdOf(deeplink: string): string {
  return deeplink.slice(deeplink.lastIndexOf('/') + 1);
}

/** GETs a session's detail record. */
export async function getDetail(t: TestServer, id: string): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(`${t.url}/api/vision/v1/session/${id}/`);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** The settings of the distributed mode for a test server, in the `distributed` test project; none elsewhere. */
export interface DistributedSettings {
  databaseUrl: string;
  s3Bucket: string;
  s3Endpoint: string;
  s3Region: string;
  s3AccessKeyId: string;
  s3SecretAccessKey: string;
  s3ForcePathStyle: true;
  redisUrl: string;
  queueName: string;
}

/**
 * In the `distributed` test project, a database, a bucket and a queue of a data directory's own
 * (one per directory, so a server restarted on the same directory finds its sessions again);
 * elsewhere none (SQLite, files and threads in the process).
 */
export async function distributedSettings(dataDir: string): Promise<DistributedSettings | undefined> {
  if (process.env.ARSESSION_TEST_MODE !== 'distributed') return undefined;
  const admin = inject('postgresAdminUrl');
  const s3 = inject('s3');
  const name = `t${createHash('sha256').update(dataDir).digest('hex').slice(0, 20)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return {
    databaseUrl: admin.replace(/\/postgres$/, `/${name}`),
    s3Bucket: name,
    s3Endpoint: s3.endpoint,
    s3Region: s3.region,
    s3AccessKeyId: s3.accessKeyId,
    s3SecretAccessKey: s3.secretAccessKey,
    s3ForcePathStyle: true,
    redisUrl: inject('redisUrl'),
    queueName: name,
  };
}

/** {@link distributedSettings} as the environment variables `arsession` reads. */
export async function distributedEnv(dataDir: string): Promise<Record<string, string>> {
  const d = await distributedSettings(dataDir);
  if (!d) return {};
  return {
    ARSESSION_DATABASE_URL: d.databaseUrl,
    ARSESSION_S3_BUCKET: d.s3Bucket,
    ARSESSION_S3_ENDPOINT: d.s3Endpoint,
    ARSESSION_S3_REGION: d.s3Region,
    ARSESSION_S3_ACCESS_KEY_ID: d.s3AccessKeyId,
    ARSESSION_S3_SECRET_ACCESS_KEY: d.s3SecretAccessKey,
    ARSESSION_S3_FORCE_PATH_STYLE: 'true',
    ARSESSION_REDIS_URL: d.redisUrl,
    ARSESSION_QUEUE_NAME: d.queueName,
  };
}
