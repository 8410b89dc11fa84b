// @arsession/client against a real server: its committed types are what openapi-typescript makes
// of the document the server serves, and every operation of that document works through it.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createArsessionClient, sessionIdOf, type ArsessionClient, type SessionDetail } from '@arsession/client';
import { CONVERTER_VERSION } from '@arsession/convert';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusBytes, REPO_ROOT } from './support/corpus.js';
import { startTestServer, TEST_METRICS_TOKEN, type TestServer } from './support/serverHarness.js';
import { ONE_PIXEL_PNG } from './support/onePixelPng.js';

const CLIENT = join(REPO_ROOT, 'packages', 'client');
const box = (name = 'Box.glb') => new File([corpusBytes('glb', 'Box.glb')], name);

let t: TestServer;
let ar: ArsessionClient;
/** Every operation the client sent, as the document names it: 'POST /api/…/by_plane/'. */
const sent = new Set<string>();

beforeAll(async () => {
  t = await startTestServer();
  ar = createArsessionClient({ baseUrl: t.url, apiKey: t.key });
  ar.use({ onRequest: ({ request, schemaPath }) => void sent.add(`${request.method} ${schemaPath}`) });
});
afterAll(() => t.stop());

describe('@arsession/client types', () => {
  it("are what openapi-typescript generates from the live server's document, byte for byte", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(CLIENT, 'scripts', 'generate-types.mjs'), '--url', t.url, '--out', '-'],
      { cwd: CLIENT, maxBuffer: 16 << 20 },
    );
    expect(stdout.length).toBeGreaterThan(10_000);
    expect(stdout, 'run `pnpm --filter @arsession/client generate`').toBe(
      readFileSync(join(CLIENT, 'src', 'generated', 'openapi.ts'), 'utf8'),
    );
  });
});

describe('@arsession/client on a real server', () => {
  let detail: SessionDetail;
  let onetimeCode: string;

  it('creates a session by each of the seven methods, typed 201s', async () => {
    const session = '/api/vision/v1/session';
    const answers = [
      await ar.POST(`${session}/by_plane/`, { body: { model_file: box('plane.glb') } }),
      await ar.POST(`${session}/by_scan/`, {
        body: {
          model_file: box(),
          'alignment.corners': '[[-0.45, 0, 1], [0.45, 0, 1], [0.45, 2.1, 1], [-0.45, 2.1, 1]]',
          'alignment.wall_normal': '[0, 0, 1]',
        },
      }),
      await ar.POST(`${session}/by_virtual_anchor/circle-directional/`, {
        body: {
          model_file: box(),
          'virtual_anchor.center': '[0, 1, 0]',
          'virtual_anchor.radius': '0.5',
          'virtual_anchor.plane_normal': '[0, 0, 1]',
          'virtual_anchor.direction': '[1, 1, 0]',
        },
      }),
      await ar.POST(`${session}/by_virtual_anchor/rectangle-short-side/`, {
        body: {
          model_file: box(),
          'virtual_anchor.center': '[1, 0, 2]',
          'virtual_anchor.width': '0.6',
          'virtual_anchor.height': '1.2',
          'virtual_anchor.plane_normal': '[0, 1, 0]',
          'virtual_anchor.short_side_direction': '[1, 0, 0]',
        },
      }),
      await ar.POST(`${session}/by_virtual_anchor/corner-directional/`, {
        body: {
          model_file: box(),
          'virtual_anchor.corner': '[3, 0, -1]',
          'virtual_anchor.edge_1_direction': '[1, 0, 0]',
          'virtual_anchor.edge_2_direction': '[0, 0, 1]',
          'virtual_anchor.plane_normal': '[0, 1, 0]',
        },
      }),
      await ar.POST(`${session}/by_virtual_anchor/segment-directional/`, {
        body: {
          model_file: box(),
          'virtual_anchor.segment_point_1': '[0, 0, 0]',
          'virtual_anchor.segment_point_2': '[2, 0, 1]',
          'virtual_anchor.plane_normal': '[0, 1, 0]',
        },
      }),
      await ar.POST(`${session}/by_refimage/`, {
        body: {
          model_file: box(),
          reference_image: new File([ONE_PIXEL_PNG], 'poster.png'),
          'reference_image.physical_width': '0.3',
          'reference_image.center': '[0, 1.5, 0]',
          'reference_image.normal': '[0, 0, 1]',
          'reference_image.up': '[0, 1, 0]',
        },
      }),
    ];
    for (const a of answers) {
      expect(a.response.status, JSON.stringify(a.error)).toBe(201);
      expect(a.data!.onetime_code).toMatch(/^\d{12}$/);
    }
    const methods = await Promise.all(
      answers.map(async (a) => {
        const { data } = await ar.GET('/api/vision/v1/session/{session_id}/', {
          params: { path: { session_id: sessionIdOf(a.data!.deeplink) } },
        });
        return data!.placement.method;
      }),
    );
    expect(methods).toEqual([
      'by_plane',
      'by_scan',
      'by_virtual_anchor',
      'by_virtual_anchor',
      'by_virtual_anchor',
      'by_virtual_anchor',
      'by_refimage',
    ]);
    const first = await ar.GET('/api/vision/v1/session/{session_id}/', {
      params: { path: { session_id: sessionIdOf(answers[0]!.data!.deeplink) } },
    });
    detail = first.data!;
    onetimeCode = answers[0]!.data!.onetime_code;
    expect(detail.model_assets[0]!.source_name).toBe('plane.glb');
  });

  it('downloads a delivered file, reads the saved models, and claims the code once', async () => {
    const asset = detail.model_assets[0]!;
    const file = await ar.GET('/api/vision/v1/session/{session_id}/files/{name}', {
      params: { path: { session_id: detail.session_id, name: new URL(asset.usdz_url).pathname.split('/').pop()! } },
      parseAs: 'arrayBuffer',
    });
    expect(file.response.headers.get('content-type')).toBe('model/vnd.usdz+zip');
    expect((file.data as ArrayBuffer).byteLength).toBe(asset.usdz_bytes);
    // A GLB's elements are its nodes; an id no element has is a typed 404.
    expect(asset.element_records!.count).toBeGreaterThan(0);
    const element = await ar.GET('/api/vision/v1/session/{session_id}/elements/{global_id}', {
      params: { path: { session_id: detail.session_id, global_id: '/nodes/1' }, query: { order: 0 } },
    });
    expect(element.data).toMatchObject({ id: '/nodes/1', global_id: null, order: 0 });
    const missing = await ar.GET('/api/vision/v1/session/{session_id}/elements/{global_id}', {
      params: { path: { session_id: detail.session_id, global_id: '1Oms875aH3Wg$9l65H2ZGw' } },
    });
    expect(missing.error).toMatchObject({ status: 404, code: 'element_not_found' });

    const saved = await ar.GET('/api/vision/v1/models/');
    expect(saved.data!.account).toBe('tester');
    expect(saved.data!.models.map((m) => m.source_name)).toContain('plane.glb');

    const claim = await ar.POST('/api/vision/v1/session/claim/', { body: { onetime_code: onetimeCode } });
    expect(claim.data).toMatchObject({ session_id: detail.session_id, deeplink: detail.deeplink });
    // Its answer lost, the same client claims again: the same session.
    const again = await ar.POST('/api/vision/v1/session/claim/', { body: { onetime_code: onetimeCode } });
    expect(again.data).toEqual(claim.data);
    // The key pages its saved models and deletes one.
    // Seven sessions made from one file keep it once.
    const page = await ar.GET('/api/vision/v1/models/', { params: { query: { limit: 5 } } });
    expect(page.data!.models).toHaveLength(1);
    expect(page.data!.next_cursor).toBeNull();
    const modelId = page.data!.models[0]!.id;
    expect((await ar.GET('/api/vision/v1/models/{model_id}', { params: { path: { model_id: modelId } } })).data).toEqual(
      page.data!.models[0],
    );
    const bytes = await ar.GET('/api/vision/v1/models/{model_id}/file', {
      params: { path: { model_id: modelId } },
      parseAs: 'arrayBuffer',
    });
    expect((bytes.data as ArrayBuffer).byteLength).toBe(page.data!.models[0]!.bytes);
    const gone = await ar.DELETE('/api/vision/v1/models/{model_id}', { params: { path: { model_id: page.data!.models[0]!.id } } });
    expect(gone.response.status).toBe(204);
  });

  it('serves the session page, its assets, the document, health, readiness and metrics', async () => {
    const page = await ar.GET('/s/{session_id}', { params: { path: { session_id: detail.session_id } }, parseAs: 'text' });
    expect(page.data).toContain(detail.session_id);
    const style = await ar.GET('/s/assets/{name}', { params: { path: { name: 'session-page.css' } }, parseAs: 'text' });
    expect(style.response.headers.get('content-type')).toMatch(/^text\/css/);
    const reference = await ar.GET('/docs', { parseAs: 'text' });
    expect(reference.data).toContain('arsession');
    expect((await ar.GET('/docs/redoc.standalone.js', { parseAs: 'text' })).response.headers.get('content-type')).toMatch(
      /^text\/javascript/,
    );
    expect((await ar.GET('/', { parseAs: 'text' })).data).toContain('/docs');
    const doc = await ar.GET('/api/vision/v1/openapi.json');
    expect(doc.data).toMatchObject({ openapi: '3.1.0' });
    expect((await ar.GET('/healthz')).data).toEqual({ status: 'ok', version: CONVERTER_VERSION });
    expect((await ar.GET('/readyz')).data!.status).toBe('ready');
    // No app configured here: the association is a typed 404 naming the setting.
    expect((await ar.GET('/.well-known/apple-app-site-association')).error).toMatchObject({ status: 404, code: 'not_found' });
    const metrics = await ar.GET('/metrics', { parseAs: 'text', headers: { Authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
    expect(metrics.data).toMatch(/^# HELP arsession_sessions_created_total /m);
  });

  it('takes points, corners and numbers as values, and a saved model by its id', async () => {
    const session = '/api/vision/v1/session';
    const corners: [[number, number, number], [number, number, number], [number, number, number], [number, number, number]] = [
      [-0.45, 0, 1],
      [0.45, 0, 1],
      [0.45, 2.1, 1],
      [-0.45, 2.1, 1],
    ];
    const scan = await ar.POST(`${session}/by_scan/`, {
      body: { model_file: box(), 'alignment.corners': corners, 'alignment.wall_normal': [0, 0, 1] },
    });
    expect(scan.response.status, JSON.stringify(scan.error)).toBe(201);
    const circle = await ar.POST(`${session}/by_virtual_anchor/circle-directional/`, {
      body: {
        model_file: box(),
        'virtual_anchor.center': [0, 1, 0],
        'virtual_anchor.radius': 0.5,
        'virtual_anchor.plane_normal': [0, 0, 1],
        'virtual_anchor.direction': [1, 1, 0],
        conversion: { mode: 'auto' },
      },
    });
    expect(circle.response.status, JSON.stringify(circle.error)).toBe(201);
    const placed = await ar.GET('/api/vision/v1/session/{session_id}/', {
      params: { path: { session_id: sessionIdOf(circle.data!.deeplink) } },
    });
    expect(placed.data!.placement).toMatchObject({ method: 'by_virtual_anchor', anchor_type: 'circle_directional', radius: 0.5 });
    const saved = await ar.GET('/api/vision/v1/models/');
    const reused = await ar.POST(`${session}/by_plane/`, { body: { model_id: saved.data!.models[0]!.id } });
    expect(reused.response.status, JSON.stringify(reused.error)).toBe(201);
  });

  it('gives a refusal as a typed problem naming the field', async () => {
    const { error, response } = await ar.POST('/api/vision/v1/session/by_scan/', {
      body: { model_file: box(), 'alignment.wall_normal': '[0, 0, 1]' },
    });
    expect(response.status).toBe(400);
    expect(error!.errors.some((e) => e.field.startsWith('alignment.'))).toBe(true);
    const keyless = createArsessionClient({ baseUrl: t.url });
    expect((await keyless.GET('/api/vision/v1/models/')).error).toMatchObject({ status: 401, code: 'api_key_missing' });
  });

  it('ends the session its key made', async () => {
    const ended = await ar.DELETE('/api/vision/v1/session/{session_id}/', { params: { path: { session_id: detail.session_id } } });
    expect(ended.response.status).toBe(204);
    expect(
      (await ar.GET('/api/vision/v1/session/{session_id}/', { params: { path: { session_id: detail.session_id } } })).error,
    ).toMatchObject({ status: 410, code: 'session_expired' });
  });

  it('has driven every operation of the served document', async () => {
    const doc = (await (await fetch(`${t.url}/api/vision/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect([...sent].filter((s) => operations.includes(s)).sort()).toEqual(operations.sort());
  });
});

/**
 * The mistakes a newcomer makes with a session form, each refused by the compiler: the tests'
 * type check (tsc -p tsconfig.tests.json, in the test command) fails on an unused @ts-expect-error.
 */
function mistakesTheCompilerRefuses(ar: ArsessionClient, file: File): void {
  const scan = '/api/vision/v1/session/by_scan/';
  // @ts-expect-error a model file and model files at once
  void ar.POST('/api/vision/v1/session/by_plane/', { body: { model_file: file, model_files: [file] } });
  // @ts-expect-error a saved model's id and a file at once
  void ar.POST('/api/vision/v1/session/by_plane/', { body: { model_file: file, model_id: 'm' } });
  // @ts-expect-error no model at all
  void ar.POST('/api/vision/v1/session/by_plane/', { body: { 'conversion.mode': 'auto' } });
  // @ts-expect-error a point of two coordinates
  void ar.POST(scan, { body: { model_file: file, 'alignment.point_1': [0, 1.6], 'alignment.point_2': [0, 0, -1] } });
  void ar.POST(scan, {
    body: {
      model_file: file,
      // @ts-expect-error three corners where an opening has four
      'alignment.corners': [
        [0, 0, 0],
        [1, 0, 0],
        [1, 2, 0],
      ],
      'alignment.wall_normal': [0, 0, 1],
    },
  });
  void ar.POST('/api/vision/v1/session/by_virtual_anchor/circle-directional/', {
    body: {
      model_file: file,
      'virtual_anchor.center': [0, 0, 0],
      // @ts-expect-error a radius that is not a number
      'virtual_anchor.radius': [0.5],
      'virtual_anchor.plane_normal': [0, 1, 0],
      'virtual_anchor.direction': [1, 0, 0],
    },
  });
}
// Never run: compiled only, by the type check above.
void mistakesTheCompilerRefuses;
