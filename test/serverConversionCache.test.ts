// The conversion cache: a model uploaded again (same bytes) is not converted again, yet every
// session still gets its own complete, correct files — and a door is always looked for afresh.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { sessionFilePath } from '@arsession/server';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ac20DoorView, type DoorView } from './support/ac20DoorView.js';
import { corpusPath } from './support/corpus.js';
import { filePart, form, getDetail, postSession, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';
import { storedFiles } from './support/storedFiles.js';

const BOX = corpusPath('glb', 'Box.glb');
const HELMET = corpusPath('glb', 'DamagedHelmet.glb');
const AC20 = corpusPath('ifc', 'AC20-FZK-Haus.ifc');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Conversion-cache entries with files, wherever the server keeps them (its data directory, or the bucket). */
const cacheEntries = async (t: TestServer) => (await t.server.context.objects.cachedEntries()).size;

async function usdzOf(t: TestServer, sessionId: string): Promise<{ url: string; bytes: Uint8Array; detail: Record<string, any> }> {
  const { body } = await getDetail(t, sessionId);
  const url = body.model_assets[0].usdz_url as string;
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return { url, bytes: new Uint8Array(await response.arrayBuffer()), detail: body };
}

describe('the same model uploaded twice', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.stop());

  it('is converted once; both sessions serve the same complete USDZ, linked rather than copied', async () => {
    const a = await postSession(t, 'by_plane', form({ model_file: filePart(HELMET, 'first.glb') }));
    const b = await postSession(t, 'by_plane', form({ model_file: filePart(HELMET, 'second.glb') }));
    expect([a.status, b.status]).toEqual([201, 201]);
    const [ida, idb] = [sessionIdOf(a.body.deeplink), sessionIdOf(b.body.deeplink)];
    const first = await usdzOf(t, ida),
      second = await usdzOf(t, idb);
    expect(sha256(second.bytes)).toBe(sha256(first.bytes));
    expect(second.detail.model_assets[0].usdz_sha256).toBe(sha256(second.bytes));
    expect(second.detail.model_assets[0].usdz_bytes).toBe(second.bytes.length);
    // Everything but the names is the asset the conversion described.
    const { source_name: _a, ...restA } = first.detail.model_assets[0];
    const { source_name: _b, ...restB } = second.detail.model_assets[0];
    const withoutUrls = (a: Record<string, any>) => ({
      ...a,
      usdz_url: undefined,
      glb_url: undefined,
      quick_look: { ...a.quick_look, usdz_url: undefined },
      element_records: { ...a.element_records, url: undefined },
    });
    expect(withoutUrls(restB)).toEqual(withoutUrls(restA));
    // One cache entry; in the data directory one inode shared by the cache and both sessions, in
    // an object store one object per session, put from that entry.
    expect(await cacheEntries(t)).toBe(1);
    if (t.server.context.objects.engine === 'files')
      expect(statSync(sessionFilePath(join(t.dataDir, 'sessions'), idb, '0.usdz')).nlink).toBe(3);
    else
      expect([await storedFiles(t, ida), await storedFiles(t, idb)]).toEqual([
        ['0.elements.json.gz', '0.glb', '0.usdz'],
        ['0.elements.json.gz', '0.glb', '0.usdz'],
      ]);
  });

  it('saves the source with the hash taken while it streamed', async () => {
    const r = await postSession(t, 'by_plane', form({ model_file: filePart(BOX, 'hashed.glb') }));
    expect(r.status).toBe(201);
    const list = (await (await fetch(`${t.url}/api/vision/v1/models/`, { headers: { 'X-API-Key': t.key } })).json()) as {
      models: Array<{ source_name: string; sha256: string; bytes: number }>;
    };
    const saved = list.models.find((m) => m.source_name === 'hashed.glb')!;
    expect(saved.sha256).toBe(sha256(readFileSync(BOX)));
    expect(saved.bytes).toBe(readFileSync(BOX).length);
  });
});

describe('eviction', () => {
  it('a session keeps its file when its cache entry is evicted', async () => {
    const t = await startTestServer({ cacheEntries: 1 });
    try {
      const a = await postSession(t, 'by_plane', form({ model_file: filePart(HELMET) }));
      const before = await usdzOf(t, sessionIdOf(a.body.deeplink));
      expect((await postSession(t, 'by_plane', form({ model_file: filePart(BOX) }))).status).toBe(201);
      expect(await cacheEntries(t)).toBe(1);
      const after = await usdzOf(t, sessionIdOf(a.body.deeplink));
      expect(sha256(after.bytes)).toBe(sha256(before.bytes));
      expect(sha256(after.bytes)).toBe(before.detail.model_assets[0].usdz_sha256);
      // The evicted model is converted again and stays correct.
      const again = await postSession(t, 'by_plane', form({ model_file: filePart(HELMET) }));
      expect(sha256((await usdzOf(t, sessionIdOf(again.body.deeplink))).bytes)).toBe(sha256(before.bytes));
    } finally {
      await t.stop();
    }
  });

  it('ARSESSION_CACHE_ENTRIES=0 keeps nothing', async () => {
    const t = await startTestServer({ cacheEntries: 0 });
    try {
      expect((await postSession(t, 'by_plane', form({ model_file: filePart(BOX) }))).status).toBe(201);
      expect((await postSession(t, 'by_plane', form({ model_file: filePart(BOX) }))).status).toBe(201);
      expect(await cacheEntries(t)).toBe(0);
    } finally {
      await t.stop();
    }
  });
});

describe('door detection on a cached model', () => {
  let view: DoorView;
  beforeAll(async () => {
    view = await ac20DoorView();
  });

  it('still looks for the door the viewer faces, and refuses a blank gaze, after the model was cached', async () => {
    const t = await startTestServer();
    try {
      expect((await postSession(t, 'by_plane', form({ model_file: filePart(AC20) }))).status).toBe(201);
      expect(await cacheEntries(t)).toBe(1);
      const found = await postSession(
        t,
        'by_scan',
        form({
          model_file: filePart(AC20),
          'alignment.point_1': JSON.stringify(view.viewer),
          'alignment.point_2': JSON.stringify(view.gaze),
        }),
      );
      expect(found.status).toBe(201);
      const { body } = await getDetail(t, sessionIdOf(found.body.deeplink));
      expect(body.placement).toMatchObject({ found: 'detected' });
      body.placement.corners.forEach((c: number[], i: number) =>
        c.forEach((v, k) => expect(Math.abs(v - view.face.corners[i]![k]!)).toBeLessThan(0.03)),
      );
      // Gazing at the sky from the same spot: no door, and no guess taken from the cache.
      const up = await postSession(
        t,
        'by_scan',
        form({ model_file: filePart(AC20), 'alignment.point_1': JSON.stringify(view.viewer), 'alignment.point_2': '[0, 1, 0]' }),
      );
      expect(up.status).toBe(422);
      expect(up.body.code).toBe('door_not_found');
    } finally {
      await t.stop();
    }
  });
});
