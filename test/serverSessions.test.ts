// The seven session endpoints end to end: a real server on loopback, real corpus models, real
// SQLite, and the delivered files fetched back and checked as a USDZ package by TinyUSDZ.
import { createHash } from 'node:crypto';
import { CONVERTER_VERSION, checkUsdzPackage, convertModel } from '@arsession/convert';
import {
  circleDirectionalFrame,
  cornerDirectionalFrame,
  footprintPose,
  rectangleShortSideFrame,
  referenceImageFrame,
  segmentDirectionalFrame,
  validateOpening,
  yUpToZUp,
  type Vec3,
} from '@arsession/geometry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ac20DoorView } from './support/ac20DoorView.js';
import { corpusBytes, corpusPath } from './support/corpus.js';
import {
  filePart,
  form,
  getDetail,
  postSession,
  scrapeMetrics,
  sessionIdOf,
  startTestServer,
  type TestServer,
} from './support/serverHarness.js';
import { sampleValue } from './support/prometheusText.js';
import { uniqueGlb } from './support/uniqueModel.js';
import { farAwayIfcOpenHouse } from './support/movedIfc.js';
import { readUsdzBack } from './support/usdReader.js';
import { ONE_PIXEL_PNG } from './support/onePixelPng.js';
import { requestFrom } from './support/requestFrom.js';

const AC20 = corpusPath('ifc', 'AC20-FZK-Haus.ifc');
const BOX = corpusPath('glb', 'Box.glb');
// The Pixar package fixtures hold no geometry (refused: nothing to place); this one has a mesh.
const USDZ = corpusPath('usdz', 'simpleMaterial.usdz');

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

function expectSessionResponse(body: Record<string, unknown>): string {
  expect(Object.keys(body).sort()).toEqual(['deeplink', 'expires_at', 'onetime_code']);
  expect(body.deeplink).toMatch(/^arsession:\/\/session\/[A-Za-z0-9_-]{22}$/);
  expect(body.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  expect(Date.parse(body.expires_at as string) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
  expect(body.onetime_code).toMatch(/^\d{12}$/);
  return sessionIdOf(body.deeplink as string);
}

const close = (a: readonly number[], b: readonly number[], tol = 1e-6) =>
  a.forEach((v, i) => expect(Math.abs(v - b[i]!)).toBeLessThan(tol));

describe('by_plane', () => {
  it('IFC without a key: 201, then a detail whose USDZ fetches and passes the package rules', async () => {
    const r = await postSession(t, 'by_plane', form({ model_file: filePart(AC20) }), null);
    expect(r.status).toBe(201);
    // It carries the one-time code: no cache may keep it.
    expect(r.headers.get('cache-control')).toBe('no-store');
    const id = expectSessionResponse(r.body);
    const detail = await getDetail(t, id);
    expect(detail.status).toBe(200);
    const d = detail.body;
    expect(d.session_id).toBe(id);
    expect(d.model_assets).toHaveLength(1);
    const asset = d.model_assets[0];
    expect(asset).toMatchObject({ order: 0, source_name: 'AC20-FZK-Haus.ifc', preferred_format: 'usdz', reality_url: null, format: 'ifc' });
    const file = await fetch(asset.usdz_url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('model/vnd.usdz+zip');
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(bytes.byteLength).toBe(asset.usdz_bytes);
    expect(checkUsdzPackage(bytes).repaired).toEqual([]);
    const back = await readUsdzBack(bytes);
    expect(back.meshes.reduce((s, m) => s + m.triangles, 0)).toBe(asset.triangles);
    // The placement is the geometry package's footprint of the same conversion.
    const direct = await convertModel(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'), { outputs: [] });
    expect(d.placement.method).toBe('by_plane');
    close(d.placement.anchor.position, footprintPose(direct.bounds).position);
    expect(d.model_frame).toEqual({ up_axis: 'y', handedness: 'right', units: 'm', offset: direct.offset });
  });
});

describe('by_scan', () => {
  let viewer: Vec3, gaze: Vec3, face: { corners: Vec3[]; normal: Vec3 };
  beforeAll(async () => {
    ({ viewer, gaze, face } = await ac20DoorView());
  });

  it('mode 1 detects the door the viewer looks at (IFC semantics), corners in the delivered frame', async () => {
    const r = await postSession(
      t,
      'by_scan',
      form({ model_file: filePart(AC20), 'alignment.point_1': JSON.stringify(viewer), 'alignment.point_2': JSON.stringify(gaze) }),
    );
    expect(r.status).toBe(201);
    const { body: d } = await getDetail(t, expectSessionResponse(r.body));
    expect(d.placement).toMatchObject({ method: 'by_scan', found: 'detected', detection: { method: 'semantic' } });
    expect(d.placement.detection.confidence).toBeGreaterThan(0);
    expect(d.placement.detection.source.id).toMatch(/\S/);
    // Delivered frame = model frame − offset; the IFC door face is already in it.
    d.placement.corners.forEach((c: number[], i: number) => close(c, face.corners[i]!, 0.03));
    close(d.placement.wall_normal, face.normal, 1e-3);
  });

  it('the same scan sent z-up gives the same placement', async () => {
    const send = (system: 'y-up' | 'z-up') =>
      postSession(
        t,
        'by_scan',
        form({
          model_file: filePart(AC20),
          'alignment.point_1': JSON.stringify(system === 'z-up' ? yUpToZUp([0, 0, 0], viewer) : viewer),
          'alignment.point_2': JSON.stringify(system === 'z-up' ? yUpToZUp([0, 0, 0], gaze) : gaze),
          'alignment.coordinate_system': system,
        }),
      );
    const [y, z] = [await send('y-up'), await send('z-up')];
    expect([y.status, z.status]).toEqual([201, 201]);
    const [dy, dz] = [await getDetail(t, sessionIdOf(y.body.deeplink)), await getDetail(t, sessionIdOf(z.body.deeplink))];
    dy.body.placement.corners.forEach((c: number[], i: number) => close(c, dz.body.placement.corners[i], 1e-6));
    close(dy.body.placement.frame.matrix, dz.body.placement.frame.matrix, 1e-6);
  });

  it('mode 2 with a GLB: the given corners come back validated, as the geometry package validates them', async () => {
    const corners = [
      [-0.45, 0, 1],
      [0.45, 0, 1],
      [0.45, 2.1, 1],
      [-0.45, 2.1, 1],
    ];
    const r = await postSession(
      t,
      'by_scan',
      form({ model_files: [filePart(BOX)], 'alignment.corners': JSON.stringify(corners), 'alignment.wall_normal': '[0, 0, 1]' }),
    );
    expect(r.status).toBe(201);
    const { body: d } = await getDetail(t, expectSessionResponse(r.body));
    const expected = validateOpening({ corners, wallNormal: [0, 0, 1] });
    expect(d.placement).toMatchObject({ method: 'by_scan', found: 'given' });
    expect(d.placement.detection).toBeUndefined();
    expect(d.placement.width).toBeCloseTo(expected.width, 6);
    d.placement.corners.forEach((c: number[], i: number) => close(c, expected.corners[i]!));
    close(d.placement.frame.matrix, Array.from(expected.frame.matrix));
  });
});

describe('the same file several times in one request', () => {
  it('is converted once: each asset has the same delivered files, the conversion counted once', async () => {
    const glb = uniqueGlb(corpusPath('glb', 'BoxTextured.glb'), `twins-${Date.now()}`);
    const count = async () =>
      sampleValue(await (await scrapeMetrics(t)).text(), 'arsession_conversion_duration_seconds_count', {
        format: 'glb',
        outcome: 'converted',
      }) ?? 0;
    const before = await count();
    const r = await postSession(
      t,
      'by_plane',
      form({
        model_files: [
          [new Blob([glb]), 'a.glb'],
          [new Blob([glb]), 'b.glb'],
          [new Blob([glb]), 'c.glb'],
        ],
      }),
      null,
    );
    expect(r.status).toBe(201);
    expect((await count()) - before).toBe(1);
    const assets = (await getDetail(t, sessionIdOf(r.body.deeplink))).body.model_assets as Array<{
      source_name: string;
      usdz_sha256: string;
      glb_sha256: string;
      usdz_url: string;
      triangles: number;
    }>;
    expect(assets.map((a) => a.source_name)).toEqual(['a.glb', 'b.glb', 'c.glb']);
    expect(new Set(assets.map((a) => a.usdz_sha256)).size).toBe(1);
    expect(new Set(assets.map((a) => a.glb_sha256)).size).toBe(1);
    // Each asset serves its own file, whole.
    for (const a of assets)
      expect(
        createHash('sha256')
          .update(new Uint8Array(await (await fetch(a.usdz_url)).arrayBuffer()))
          .digest('hex'),
      ).toBe(a.usdz_sha256);
  });
});

describe('by_virtual_anchor (four kinds), several files of every format', () => {
  const kinds = [
    {
      path: 'rectangle-short-side',
      fields: { center: [1, 0, 2], width: 0.6, height: 1.2, plane_normal: [0, 1, 0], short_side_direction: [1, 0, 0.2] },
      expected: () =>
        rectangleShortSideFrame({ center: [1, 0, 2], width: 0.6, height: 1.2, planeNormal: [0, 1, 0], shortSideDirection: [1, 0, 0.2] }),
    },
    {
      path: 'segment-directional',
      fields: { segment_point_1: [0, 0, 0], segment_point_2: [2, 0, 1], plane_normal: [0, 1, 0], placement_source: 'model_surface' },
      expected: () => segmentDirectionalFrame({ segmentPoint1: [0, 0, 0], segmentPoint2: [2, 0, 1], planeNormal: [0, 1, 0] }),
    },
    {
      path: 'circle-directional',
      fields: { center: [0, 1, 0], radius: 0.5, plane_normal: [0, 0, 1], direction: [1, 1, 0] },
      expected: () => circleDirectionalFrame({ center: [0, 1, 0], radius: 0.5, planeNormal: [0, 0, 1], direction: [1, 1, 0] }),
    },
    {
      path: 'corner-directional',
      fields: { corner: [3, 0, -1], edge_1_direction: [1, 0, 0], edge_2_direction: [0, 0, 1], plane_normal: [0, 1, 0] },
      expected: () =>
        cornerDirectionalFrame({ corner: [3, 0, -1], edge1Direction: [1, 0, 0], edge2Direction: [0, 0, 1], planeNormal: [0, 1, 0] }),
    },
  ];

  it.each(kinds)('$path: the anchor frame of the geometry package, assets in upload order', async ({ path, fields, expected }) => {
    const parts: Record<string, string> = Object.fromEntries(
      Object.entries(fields).map(([k, v]) => [`virtual_anchor.${k}`, typeof v === 'string' ? v : JSON.stringify(v)]),
    );
    const r = await postSession(
      t,
      `by_virtual_anchor/${path}`,
      form({ ...parts, model_files: [filePart(BOX, 'first.glb'), filePart(USDZ, 'second.usdz'), filePart(BOX, 'third.glb')] }),
    );
    expect(r.status).toBe(201);
    const { body: d } = await getDetail(t, expectSessionResponse(r.body));
    expect(d.model_assets.map((a: { order: number; source_name: string; format: string }) => [a.order, a.source_name, a.format])).toEqual([
      [0, 'first.glb', 'glb'],
      [1, 'second.usdz', 'usdz'],
      [2, 'third.glb', 'glb'],
    ]);
    const frame = expected();
    expect(d.placement).toMatchObject({ method: 'by_virtual_anchor', anchor_type: frame.kind });
    close(d.placement.pose.matrix, Array.from(frame.pose.matrix));
    for (const a of d.model_assets) {
      const res = await fetch(a.usdz_url);
      expect(res.headers.get('content-type')).toBe('model/vnd.usdz+zip');
      expect(checkUsdzPackage(new Uint8Array(await res.arrayBuffer())).repaired).toEqual([]);
    }
  });

  it('an anchor in a georeferenced IFC (5·10⁵ m away) is reported in the delivered frame (shifted by model_frame.offset)', async () => {
    const r = await postSession(
      t,
      'by_virtual_anchor/circle-directional',
      form({
        model_file: [new Blob([farAwayIfcOpenHouse()]), 'far-house.ifc'],
        'virtual_anchor.center': '[500010, 0, -600005]',
        'virtual_anchor.radius': '1',
        'virtual_anchor.plane_normal': '[0, 1, 0]',
        'virtual_anchor.direction': '[1, 0, 0]',
      }),
    );
    expect(r.status).toBe(201);
    const { body: d } = await getDetail(t, sessionIdOf(r.body.deeplink));
    expect(Math.hypot(...(d.model_frame.offset as number[]))).toBeGreaterThan(1000);
    close(d.placement.pose.position, [500010 - d.model_frame.offset[0], 0 - d.model_frame.offset[1], -600005 - d.model_frame.offset[2]]);
    expect(Math.hypot(...(d.placement.pose.position as number[]))).toBeLessThan(100); // near the delivered geometry
  });
});

describe('by_refimage', () => {
  it('keeps the image with the session and reports its frame', async () => {
    const r = await postSession(
      t,
      'by_refimage',
      form({
        model_file: filePart(BOX),
        reference_image: [new Blob([ONE_PIXEL_PNG]), 'poster.png'],
        'reference_image.physical_width': '0.3',
        'reference_image.center': '[0, 1.5, 0]',
        'reference_image.normal': '[0, 0, 1]',
        'reference_image.up': '[0, 1, 0]',
        'conversion.mode': 'auto',
      }),
    );
    expect(r.status).toBe(201);
    const { body: d } = await getDetail(t, expectSessionResponse(r.body));
    const expected = referenceImageFrame({ center: [0, 1.5, 0], normal: [0, 0, 1], up: [0, 1, 0], physicalWidth: 0.3 });
    expect(d.placement).toMatchObject({ method: 'by_refimage', physical_width: 0.3 });
    close(d.placement.pose.matrix, Array.from(expected.pose.matrix));
    const image = await fetch(d.placement.image_url);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(ONE_PIXEL_PNG)).toBe(true);
  });
});

describe('files, paths and claim', () => {
  let id: string, code: string, usdzUrl: string, sha: string;
  beforeAll(async () => {
    const r = await postSession(t, 'by_plane', form({ model_file: filePart(BOX) }), null);
    id = sessionIdOf(r.body.deeplink);
    code = r.body.onetime_code;
    const { body: d } = await getDetail(t, id);
    usdzUrl = d.model_assets[0].usdz_url;
    sha = d.model_assets[0].usdz_sha256;
  });

  it('serves files with a strong ETag, conditional requests and byte ranges', async () => {
    const whole = await fetch(usdzUrl);
    expect(whole.headers.get('etag')).toBe(`"${sha}"`);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-disposition')).toMatch(/^inline; filename="Box\.usdz"/);
    const bytes = Buffer.from(await whole.arrayBuffer());
    // fetch() adds `Cache-Control: no-cache` to a conditional request unless one is given.
    const notModified = await fetch(usdzUrl, { headers: { 'If-None-Match': `"${sha}"`, 'Cache-Control': 'max-age=0' } });
    expect(notModified.status).toBe(304);
    const part = await fetch(usdzUrl, { headers: { Range: 'bytes=10-29' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-29/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 30))).toBe(true);
    expect((await fetch(usdzUrl.replace(/0\.usdz$/, '..%2Farsession.sqlite'))).status).toBe(404);
  });

  it('answers every path with or without its trailing slash', async () => {
    expect((await fetch(`${t.url}/api/vision/v1/session/${id}`)).status).toBe(200);
    expect((await fetch(`${t.url}/api/vision/v1/session/${id}/`)).status).toBe(200);
    const noSlash = await fetch(`${t.url}/api/vision/v1/session/by_plane`, { method: 'POST', body: form({ model_file: filePart(BOX) }) });
    expect(noSlash.status).toBe(201);
    expect((await fetch(`${t.url}/healthz/`)).status).toBe(200);
  });

  it('claim: the one-time code works once (JSON or form); its own client may retry, anyone else gets 404', async () => {
    const first = await fetch(`${t.url}/api/vision/v1/session/claim/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ onetime_code: code }),
    });
    expect(first.status).toBe(200);
    const answer = await first.json();
    expect(answer).toMatchObject({ session_id: id, deeplink: `arsession://session/${id}` });
    // The answer was lost on the way: the same client asks again, as a form this time, and gets the same.
    const retry = await fetch(`${t.url}/api/vision/v1/session/claim`, { method: 'POST', body: form({ onetime_code: code }) });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('cache-control')).toBe('no-store');
    expect(await retry.json()).toEqual(answer);
    // Another client (another address) is not that client: the code is used.
    const other = await requestFrom('127.0.0.7', t.url, '/api/vision/v1/session/claim/', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ onetime_code: code }),
    });
    expect(other.status).toBe(404);
    expect((JSON.parse(other.body) as { errors: Array<{ field: string }> }).errors[0]!.field).toBe('onetime_code');
  });

  it('saves the models of a keyed request to its account, listed with the key', async () => {
    // Bytes no request of this suite sent before (a model is saved once per content).
    const bytes = uniqueGlb(BOX, 'saved-box');
    const r = await postSession(t, 'by_plane', form({ model_file: [new Blob([bytes]), 'saved-box.glb'] }));
    expect(r.status).toBe(201);
    const list = await fetch(`${t.url}/api/vision/v1/models/`, { headers: { 'X-API-Key': t.key } });
    const body = (await list.json()) as {
      account: string;
      models: Array<{ source_name: string; session_id: string; bytes: number; sha256: string }>;
    };
    expect(body.account).toBe('tester');
    const saved = body.models.find((m) => m.source_name === 'saved-box.glb');
    expect(saved).toMatchObject({
      session_id: sessionIdOf(r.body.deeplink),
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    expect(body.models.some((m) => m.session_id === id)).toBe(false); // the anonymous upload is not saved
  });

  it('health and readiness', async () => {
    expect(await (await fetch(`${t.url}/healthz`)).json()).toEqual({ status: 'ok', version: CONVERTER_VERSION });
    const ready = await fetch(`${t.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: unknown }).checks).toEqual({
      database: 'ok',
      jobs: 'ok',
      objects: 'ok',
      data_dir: 'ok',
      accepting: 'ok',
    });
  });
});
