// The served OpenAPI document is valid OpenAPI 3.1 and describes every route the server answers;
// and `arsession serve` starts on its defaults and stops cleanly on SIGTERM.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { SESSION_ENDPOINTS } from '@arsession/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/corpus.js';
import { startTestServer, type TestServer } from './support/serverHarness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

describe('GET /api/vision/v1/openapi.json', () => {
  it('passes the OpenAPI 3.1 schema validator', async () => {
    const doc = (await (await fetch(`${t.url}/api/vision/v1/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it("passes Redocly's recommended rules (the spec's trailing slashes the one exception, in redocly.yaml)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arsession-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, await (await fetch(`${t.url}/api/vision/v1/openapi.json`)).text());
      const lint = await promisify(execFile)(
        join(REPO_ROOT, 'node_modules', '.bin', 'redocly'),
        ['lint', '--config', join(REPO_ROOT, 'redocly.yaml'), '--format=summary', file],
        {
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        },
      ).catch((e: { stdout: string; stderr: string }) => e);
      expect(`${lint.stdout}${lint.stderr}`).not.toMatch(/^(error|warning)\s/m);
      expect(`${lint.stdout}${lint.stderr}`).toContain('Your API description is valid');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('documents all seven session endpoints and every other route, each with an operationId and its client errors', async () => {
    type Operation = { operationId?: string; responses: Record<string, unknown> };
    const doc = (await (await fetch(`${t.url}/api/vision/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation>> };
    const paths = Object.keys(doc.paths);
    expect(SESSION_ENDPOINTS).toHaveLength(7);
    for (const e of SESSION_ENDPOINTS) expect(paths).toContain(`/api/vision/v1/session/${e.path}/`);
    const others = [
      '/api/vision/v1/session/claim/',
      '/api/vision/v1/session/{session_id}/',
      '/api/vision/v1/session/{session_id}/files/{name}',
      '/api/vision/v1/session/{session_id}/elements/{global_id}',
      '/api/vision/v1/models/',
      '/api/vision/v1/models/{model_id}',
      '/api/vision/v1/models/{model_id}/file',
      '/api/vision/v1/openapi.json',
      '/s/{session_id}',
      '/s/assets/{name}',
      '/',
      '/docs',
      '/docs/redoc.standalone.js',
      '/healthz',
      '/readyz',
      '/metrics',
      '/.well-known/apple-app-site-association',
    ];
    expect(paths.sort()).toEqual([...SESSION_ENDPOINTS.map((e) => `/api/vision/v1/session/${e.path}/`), ...others].sort());
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.values(ops).map((op) => ({ path, op })));
    expect(new Set(operations.map(({ op }) => op.operationId)).size).toBe(operations.length);
    for (const { path, op } of operations)
      expect(
        Object.keys(op.responses).some((s) => s.startsWith('4')),
        path,
      ).toBe(true);
  });
});

describe('arsession serve', () => {
  it('listens on PORT with a data directory of its own, logs its configuration, and exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'arsession-serve-'));
    const child = spawn(join(REPO_ROOT, 'node_modules', '.bin', 'arsession'), ['serve'], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ARSESSION_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const listening = await new Promise<{ url: string; config: Record<string, unknown> }>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const line = out.split('\n').find((l) => l.includes('arsession listening'));
          if (line) resolve(JSON.parse(line) as { url: string; config: Record<string, unknown> });
        });
        child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
      });
      expect(listening.config).toMatchObject({
        ARSESSION_DATA_DIR: dataDir,
        ARSESSION_DEEPLINK_SCHEME: 'arsession',
        ARSESSION_SESSION_TTL_S: 86400,
      });
      expect((await fetch(`${listening.url}/readyz`)).status).toBe(200);
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).toContain('arsession stopped');
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a setting that does not parse, naming the variable', async () => {
    const child = spawn(join(REPO_ROOT, 'node_modules', '.bin', 'arsession'), ['serve'], {
      env: { ...process.env, PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(err).toMatch(/PORT: expected an integer/);
  });
});

describe('warning codes', () => {
  it('the document lists every code an asset can carry as an enum, each described', async () => {
    const { ASSET_WARNING_CODES } = await import('../packages/server/src/records/warningCodes.js');
    const { openapiDocument } = await import('../packages/server/src/openapi/openapiDocument.js');
    const doc = openapiDocument({}) as {
      components: {
        schemas: { ModelAsset: { properties: { warnings: { items: { properties: { code: { enum: string[]; description: string } } } } } } };
      };
    };
    const code = doc.components.schemas.ModelAsset.properties.warnings.items.properties.code;
    expect(code.enum.sort()).toEqual(Object.keys(ASSET_WARNING_CODES).sort());
    for (const c of code.enum) expect(code.description).toContain(`${c}: `);
    expect(code.enum).toContain('budget_simplified');
    expect(code.enum).toContain('reality_failed');
  });
});

describe('schema descriptions', () => {
  it('every property of every schema in the document says what it is', async () => {
    const { openapiDocument } = await import('../packages/server/src/openapi/openapiDocument.js');
    const doc = openapiDocument({}) as { components: { schemas: Record<string, unknown> } };
    const undescribed: string[] = [];
    const walk = (schema: unknown, path: string): void => {
      if (!schema || typeof schema !== 'object') return;
      const s = schema as Record<string, unknown>;
      for (const [field, p] of Object.entries((s.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if (typeof p.description !== 'string' || p.description.length < 3) undescribed.push(`${path}.${field}`);
        walk(p, `${path}.${field}`);
      }
      for (const key of ['items', 'oneOf', 'anyOf', 'allOf']) [s[key]].flat().forEach((x) => walk(x, path));
    };
    for (const [name, schema] of Object.entries(doc.components.schemas)) walk(schema, name);
    expect(undescribed).toEqual([]);
  });
});
