import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { readServerConfig, startServer, type RunningServer, type ServerConfig } from '@arsession/server';
import { pino } from 'pino';
import pg from 'pg';
import { inject } from 'vitest';
import { createHash } from 'node:crypto';

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
 * unless `ARSESSION_TEST_LOG` is set (then they go to stderr).
 */
export async function startTestServer(overrides: Partial<ServerConfig> = {}, dataDir = mkdtempSync(join(tmpdir(), 'arsession-server-'))): Promise<TestServer> {
  const databaseUrl = await testDatabaseUrl(dataDir);
  const config = readServerConfig({}, { port: 0, host: '127.0.0.1', dataDir, workers: 2, queue: 8, ...(databaseUrl && { databaseUrl }), ...overrides });
  const logger = pino({ level: process.env.ARSESSION_TEST_LOG ? 'info' : 'silent' }, pino.destination(2));
  const server = await startServer(config, { logger });
  const key = await server.context.sessions.createApiKey('tester');
  return {
    server, url: server.url, dataDir, key,
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
export async function postSession(t: TestServer, path: string, body: FormData, key: string | null = t.key): Promise<{ status: number; body: Record<string, any>; headers: Headers }> {
  const res = await fetch(`${t.url}/api/vision/v1/session/${path}/`, { method: 'POST', body, headers: key === null ? {} : { 'X-API-Key': key } });
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
  return { status: res.status, body: await res.json() as Record<string, any> };
}

/**
 * In the `postgres` test project, the database of a data directory (one per directory, so a server
 * restarted on the same directory finds its sessions again); elsewhere none (SQLite in the directory).
 */
export async function testDatabaseUrl(dataDir: string): Promise<string | undefined> {
  if (process.env.ARSESSION_TEST_STORE !== 'postgres') return undefined;
  const admin = inject('postgresAdminUrl');
  const name = `t_${createHash('sha256').update(dataDir).digest('hex').slice(0, 20)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return admin.replace(/\/postgres$/, `/${name}`);
}
