// Packages that place themselves in AR Quick Look, made for every session on first request: each placement method's
// anchoring (Apple's schema) checked against the detail record's placement numerically, with our
// USD reader (where the model stands relative to the anchor) and TinyUSDZ (the anchoring values),
// through a real server on loopback.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readUsdz } from '@arsession/convert';
import { createPose, invertPose, type Vec3 } from '@arsession/geometry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from './support/corpus.js';
import { filePart, form, getDetail, postSession, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';
import { inMetresYUp, startOpenUsd, type OpenUsd } from './support/openUsd/openUsd.js';
import { rawZipEntries, readUsdzBack } from './support/usdReader.js';
import { ONE_PIXEL_PNG } from './support/onePixelPng.js';

const BOX = corpusPath('glb', 'Box.glb');

let t: TestServer;
let usd: OpenUsd;
beforeAll(async () => {
  [t, usd] = await Promise.all([startTestServer(), startOpenUsd()]);
});
afterAll(async () => {
  await Promise.all([t?.stop(), usd?.close()]);
});

interface Frame {
  position: number[];
  rotation: number[];
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * The session's detail and its first asset's Quick Look package: made on its first request (until
 * then the detail gives no size or hash), then served with its hash as ETag and listed in the detail.
 */
async function session(path: string, fields: Record<string, string>, model = BOX, extra: Record<string, [Blob, string]> = {}) {
  const r = await postSession(t, path, form({ model_file: filePart(model), ...fields, ...extra }));
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const id = sessionIdOf(r.body.deeplink);
  const before = (await getDetail(t, id)).body.model_assets[0].quick_look;
  if (before.anchoring !== 'none') expect([before.bytes, before.sha256]).toEqual([null, null]);
  const response = await fetch(before.usdz_url);
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const { body } = await getDetail(t, id);
  const asset = body.model_assets[0];
  expect([bytes.length, sha256(bytes)]).toEqual([asset.quick_look.bytes, asset.quick_look.sha256]);
  expect(response.headers.get('etag')).toBe(`"${asset.quick_look.sha256}"`);
  return { detail: body, asset, bytes, id };
}

/** The asset's bounds as the anchor sees them: every corner through the inverse of the anchor's frame. */
function boundsInAnchor(bounds: { min: number[]; max: number[] }, frame: Frame) {
  const inv = invertPose(createPose(frame.position as Vec3, frame.rotation as [number, number, number, number])).matrix;
  const corners = [0, 1, 2, 3, 4, 5, 6, 7].map((i) => {
    const p = [i & 1 ? bounds.max[0]! : bounds.min[0]!, i & 2 ? bounds.max[1]! : bounds.min[1]!, i & 4 ? bounds.max[2]! : bounds.min[2]!];
    return [0, 1, 2].map((r) => inv[r]! * p[0]! + inv[4 + r]! * p[1]! + inv[8 + r]! * p[2]! + inv[12 + r]!);
  });
  return {
    min: [0, 1, 2].map((k) => Math.min(...corners.map((c) => c[k]!))),
    max: [0, 1, 2].map((k) => Math.max(...corners.map((c) => c[k]!))),
  };
}

/**
 * The package: one ARKit-ready layer, the model where the placement puts it relative to the anchor,
 * as our reader finds it and as a real OpenUSD draws it (with the triangles the detail states).
 */
async function expectPlaced(
  bytes: Uint8Array,
  asset: { bounds: { min: number[]; max: number[] }; triangles: number },
  frame: Frame,
  leftOut = 0,
): Promise<void> {
  const scene = await readUsdz(bytes);
  expect(scene.arkitPackage).toBeDefined();
  const expected = boundsInAnchor(asset.bounds, frame);
  // Drawn inside the stated bounds, and short of them by no more than what the budget left out
  // (a simplified delivery keeps a subset of the full model's vertices).
  const near = (found: { min: number[]; max: number[] }) =>
    [0, 1, 2].forEach((k) => {
      expect(found.min[k]!).toBeGreaterThanOrEqual(expected.min[k]! - 5e-5);
      expect(found.max[k]!).toBeLessThanOrEqual(expected.max[k]! + 5e-5);
      expect(found.min[k]! - expected.min[k]!).toBeLessThanOrEqual(leftOut + 5e-5);
      expect(expected.max[k]! - found.max[k]!).toBeLessThanOrEqual(leftOut + 5e-5);
    });
  near(scene.bounds);
  const drawn = await usd.open(bytes, 'quick_look.usdz');
  expect(drawn.error).toBeUndefined();
  expect(drawn.triangles).toBe(asset.triangles);
  near(inMetresYUp(drawn));
}

describe('the Quick Look package of each placement', () => {
  it("by_plane: a horizontal plane; the footprint anchor at the anchor's origin, the model standing on it", async () => {
    const { detail, asset, bytes } = await session('by_plane', {});
    expect(detail.placement.quick_look).toMatchObject({ anchoring: 'plane', alignment: 'horizontal' });
    expect(detail.placement.quick_look.frame.position).toEqual(detail.placement.anchor.position);
    expect(asset.quick_look).toMatchObject({ anchoring: 'plane', reason: null });
    await expectPlaced(bytes, asset, detail.placement.quick_look.frame);
    const scene = await readUsdz(bytes);
    expect(scene.bounds.min[1]).toBeCloseTo(0, 6);
    expect((scene.bounds.min[0]! + scene.bounds.max[0]!) / 2).toBeCloseTo(0, 6);
    const back = await readUsdzBack(bytes);
    expect(back.text).toMatch(/uniform token preliminary:anchoring:type = "plane"/);
    expect(back.text).toMatch(/uniform token preliminary:planeAnchoring:alignment = "horizontal"/);
  });

  it('a model over the AR budget: its package draws the simplified triangles the detail states, where the placement says', async () => {
    const { detail, asset, bytes } = await session('by_plane', {}, corpusPath('ifc', 'ISSUE_021_Mini_Project.ifc'));
    expect(asset.ar_budget.steps).toContain('simplified');
    expect(asset.triangles).toBe(asset.ar_budget.delivered.triangles);
    expect(asset.triangles).toBeLessThanOrEqual(100_000);
    // The detail's bounds are the full model's, on which the placement is computed.
    await expectPlaced(bytes, asset, detail.placement.quick_look.frame, asset.ar_budget.max_uncovered_m);
  });

  it("by_scan: a vertical plane at the opening's bottom centre, +Y the wall normal, +X the opening's right", async () => {
    const corners = [
      [-0.45, 0, 1],
      [0.45, 0, 1],
      [0.45, 2.1, 1],
      [-0.45, 2.1, 1],
    ];
    const { detail, asset, bytes } = await session('by_scan', {
      'alignment.corners': JSON.stringify(corners),
      'alignment.wall_normal': '[0, 0, 1]',
    });
    const ql = detail.placement.quick_look;
    expect(ql).toMatchObject({ anchoring: 'plane', alignment: 'vertical' });
    const [bl, br] = detail.placement.corners as number[][];
    ql.frame.position.forEach((v: number, k: number) => expect(v).toBeCloseTo((bl![k]! + br![k]!) / 2, 6));
    // +Y along the normal, +X along BL → BR, +Z down.
    const m = ql.frame.matrix as number[];
    expect([m[4], m[5], m[6]]).toEqual([0, 0, 1]);
    expect([m[0], m[1], m[2]]).toEqual([1, 0, 0]);
    expect([m[8], m[9], m[10]]).toEqual([0, -1, 0]);
    await expectPlaced(bytes, asset, ql.frame);
    expect((await readUsdzBack(bytes)).text).toMatch(/uniform token preliminary:planeAnchoring:alignment = "vertical"/);
  });

  it("a virtual anchor on a level plane: horizontal, the anchor's own frame", async () => {
    const { detail, asset, bytes } = await session('by_virtual_anchor/segment-directional', {
      'virtual_anchor.segment_point_1': '[0, 0.5, 0]',
      'virtual_anchor.segment_point_2': '[2, 0.5, 1]',
      'virtual_anchor.plane_normal': '[0, 1, 0]',
    });
    expect(detail.placement.quick_look).toMatchObject({
      anchoring: 'plane',
      alignment: 'horizontal',
      frame: { position: detail.placement.pose.position },
    });
    detail.placement.quick_look.frame.rotation.forEach((v: number, k: number) =>
      expect(v).toBeCloseTo(detail.placement.pose.rotation[k], 6),
    );
    await expectPlaced(bytes, asset, detail.placement.quick_look.frame);
  });

  it('a virtual anchor on an upright plane: vertical', async () => {
    const { detail, asset, bytes } = await session('by_virtual_anchor/circle-directional', {
      'virtual_anchor.center': '[0, 1, 0]',
      'virtual_anchor.radius': '0.5',
      'virtual_anchor.plane_normal': '[0, 0, 1]',
      'virtual_anchor.direction': '[1, 0, 0]',
    });
    expect(detail.placement.quick_look).toMatchObject({ anchoring: 'plane', alignment: 'vertical', frame: { position: [0, 1, 0] } });
    await expectPlaced(bytes, asset, detail.placement.quick_look.frame);
  });

  it('a virtual anchor on a tilted plane: none, with the reason; the plain USDZ serves', async () => {
    const { detail, asset, bytes } = await session('by_virtual_anchor/rectangle-short-side', {
      'virtual_anchor.center': '[1, 0, 2]',
      'virtual_anchor.width': '0.6',
      'virtual_anchor.height': '1.2',
      'virtual_anchor.plane_normal': '[0, 1, 1]',
      'virtual_anchor.short_side_direction': '[1, 0, 0]',
    });
    expect(detail.placement.quick_look).toEqual({ anchoring: 'none', reason: expect.stringMatching(/tilted 45° from level/) });
    expect(asset.quick_look).toMatchObject({
      anchoring: 'none',
      reason: detail.placement.quick_look.reason,
      usdz_url: asset.usdz_url,
      sha256: asset.usdz_sha256,
    });
    expect(rawZipEntries(bytes).length).toBeGreaterThan(0);
  });

  it('by_refimage: the image, in the package, at its physical width in centimetres; the model where the placement says', async () => {
    const { detail, asset, bytes } = await session(
      'by_refimage',
      {
        'reference_image.physical_width': '0.3',
        'reference_image.center': '[0, 1.5, 0]',
        'reference_image.normal': '[0, 0, 1]',
        'reference_image.up': '[0, 1, 0]',
      },
      BOX,
      { reference_image: [new Blob([ONE_PIXEL_PNG]), 'poster.png'] },
    );
    const ql = detail.placement.quick_look;
    expect(ql).toMatchObject({
      anchoring: 'image',
      physical_width: 0.3,
      frame: { position: detail.placement.pose.position, rotation: detail.placement.pose.rotation },
    });
    const image = rawZipEntries(bytes).find((e) => e.name === 'reference_image.png');
    expect(Buffer.from(image!.data).equals(ONE_PIXEL_PNG)).toBe(true);
    const back = await readUsdzBack(bytes);
    expect(back.text).toMatch(/uniform token preliminary:anchoring:type = "image"/);
    expect(back.text).toMatch(/rel preliminary:imageAnchoring:referenceImage = <\/Anchored\/ReferenceImage>/);
    expect(Number(/uniform double physicalWidth = ([\d.]+)/.exec(back.text)![1])).toBeCloseTo(30, 9);
    await expectPlaced(bytes, asset, ql.frame);
  });

  it('an ARKit-ready upload in centimetres, delivered as uploaded: its package anchors it too, in its own units', async () => {
    const { detail, asset, bytes } = await session('by_plane', {}, corpusPath('usdz', 'clean_clean_arkit.usdz'));
    expect(asset.usdz_delivery).toBe('as_uploaded');
    expect(asset.quick_look.anchoring).toBe('plane');
    await expectPlaced(bytes, asset, detail.placement.quick_look.frame);
    // The plain USDZ is still the upload, byte for byte.
    const plain = Buffer.from(await (await fetch(asset.usdz_url)).arrayBuffer());
    expect(plain.equals(readFileSync(corpusPath('usdz', 'clean_clean_arkit.usdz')))).toBe(true);
  });

  it("several models: each package places its model in the first model's frame", async () => {
    const fd = form({
      'alignment.corners': '[[-0.45, 0, 1], [0.45, 0, 1], [0.45, 2.1, 1], [-0.45, 2.1, 1]]',
      'alignment.wall_normal': '[0, 0, 1]',
    });
    fd.append('model_files', new Blob([readFileSync(BOX)]), 'box.glb');
    fd.append('model_files', new Blob([readFileSync(corpusPath('ifc', 'IfcOpenHouse_IFC4.ifc'))]), 'house.ifc');
    const r = await postSession(t, 'by_scan', fd);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const { body } = await getDetail(t, sessionIdOf(r.body.deeplink));
    const frame = body.placement.quick_look.frame as Frame;
    for (const asset of body.model_assets) {
      const bytes = new Uint8Array(await (await fetch(asset.quick_look.usdz_url)).arrayBuffer());
      // A model's delivered frame is the first model's moved by their offsets' difference.
      const shift = [0, 1, 2].map((k) => asset.offset[k] - body.model_assets[0].offset[k]);
      const inFirst = {
        min: asset.bounds.min.map((v: number, k: number) => v + shift[k]!),
        max: asset.bounds.max.map((v: number, k: number) => v + shift[k]!),
      };
      await expectPlaced(bytes, { bounds: inFirst, triangles: asset.triangles }, frame);
    }
  });
});

describe('packages and previews made on first request', () => {
  it('requests that arrive together share one making: the same bytes for all, one file listed, and it stays', async () => {
    const r = await postSession(t, 'by_plane', form({ model_file: filePart(BOX) }));
    const id = sessionIdOf(r.body.deeplink);
    const { body } = await getDetail(t, id);
    const urls = [body.model_assets[0].quick_look.usdz_url, body.preview_glb_url] as string[];
    const answers = await Promise.all(
      [...urls, ...urls, ...urls, ...urls].map(async (url) => {
        const response = await fetch(url);
        return {
          url,
          status: response.status,
          etag: response.headers.get('etag'),
          hash: sha256(new Uint8Array(await response.arrayBuffer())),
        };
      }),
    );
    for (const url of urls) {
      const mine = answers.filter((a) => a.url === url);
      expect(new Set(mine.map((a) => `${a.status} ${a.etag} "${a.hash}"`))).toEqual(new Set([`200 "${mine[0]!.hash}" "${mine[0]!.hash}"`]));
    }
    const stored = await t.server.context.sessions.find(id);
    expect(stored!.files.map((f) => f.name).sort()).toEqual(['0.elements.json.gz', '0.glb', '0.quicklook.usdz', '0.usdz', 'preview.glb']);
    // Asked again, it is the file made then, not another.
    const again = await fetch(urls[0]!);
    expect(again.headers.get('etag')).toBe(answers[0]!.etag);
  });

  it('an upload that anchors itself already keeps its own anchoring: none, with the reason, and no package is made', async () => {
    const { bytes } = await session('by_plane', {});
    const r = await postSession(t, 'by_plane', form({ model_file: [new Blob([bytes]), 'anchored.usdz'] }));
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const id = sessionIdOf(r.body.deeplink);
    const asset = (await getDetail(t, id)).body.model_assets[0];
    expect(asset.usdz_delivery).toBe('as_uploaded');
    expect(asset.quick_look).toMatchObject({
      anchoring: 'none',
      reason: expect.stringMatching(/anchors itself already/),
      usdz_url: asset.usdz_url,
      sha256: asset.usdz_sha256,
    });
    expect((await fetch(asset.usdz_url.replace(/0\.usdz$/, '0.quicklook.usdz'))).status).toBe(404);
  });

  it('a session that expired answers 410 for a file it never made, and makes none', async () => {
    const short = await startTestServer({ sessionTtlSeconds: 1, sweepIntervalSeconds: 3600 });
    try {
      const r = await postSession(short, 'by_plane', form({ model_file: filePart(BOX) }));
      const id = sessionIdOf(r.body.deeplink);
      const url = (await getDetail(short, id)).body.model_assets[0].quick_look.usdz_url as string;
      await new Promise((done) => setTimeout(done, 1200));
      expect((await fetch(url)).status).toBe(410);
      expect((await short.server.context.sessions.find(id))!.files.map((f) => f.name).sort()).toEqual([
        '0.elements.json.gz',
        '0.glb',
        '0.usdz',
      ]);
    } finally {
      await short.stop();
    }
  });
});
