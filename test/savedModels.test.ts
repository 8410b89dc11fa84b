// What a key keeps: its saved models (once per content, held to a quota, a page at a time,
// deletable) and the sessions it made (ended early by it alone). A real server on loopback; in the
// distributed project, on PostgreSQL and an S3-compatible store.
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from './support/corpus.js';
import { form, getDetail, postSession, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';
import { uniqueGlb } from './support/uniqueModel.js';

const API = '/api/vision/v1';
const BOX = corpusPath('glb', 'Box.glb');

/** A Box GLB whose bytes no other request sent. */
const freshBox = (): [Blob, string] => [new Blob([uniqueGlb(BOX, randomUUID())]), 'box.glb'];

interface SavedModels {
  account: string;
  models: Array<{ id: string; session_id: string; source_name: string; bytes: number; sha256: string }>;
  next_cursor: string | null;
}

async function listModels(
  t: TestServer,
  key: string,
  query = '',
): Promise<{ status: number; body: SavedModels & { code?: string; errors?: Array<{ field: string }> } }> {
  const res = await fetch(`${t.url}${API}/models/${query}`, { headers: { 'X-API-Key': key } });
  return { status: res.status, body: (await res.json()) as SavedModels };
}

/** Every saved model's file the object store holds (the data directory's models/, or the bucket). */
async function storedModelFiles(t: TestServer): Promise<Set<string>> {
  const objects = t.server.context.objects;
  if (objects.engine === 'files') return new Set(readdirSync(join(t.dataDir, 'models')));
  return new Set((await objects.savedModelObjects()).keys());
}

function deleteModel(t: TestServer, key: string, id: string): Promise<Response> {
  return fetch(`${t.url}${API}/models/${id}`, { method: 'DELETE', headers: { 'X-API-Key': key } });
}

describe('saved models: once per content, a page at a time, deletable', () => {
  let t: TestServer, key: string;
  beforeAll(async () => {
    t = await startTestServer();
    key = await t.server.context.sessions.createApiKey(`saver-${randomUUID().slice(0, 8)}`);
  });
  afterAll(() => t.stop());

  it('the same file sent again, or twice in one request, is saved once', async () => {
    const box = freshBox();
    expect((await postSession(t, 'by_plane', form({ model_file: box }), key)).status).toBe(201);
    expect((await postSession(t, 'by_plane', form({ model_file: box }), key)).status).toBe(201);
    expect(
      (
        await postSession(
          t,
          'by_virtual_anchor/circle-directional',
          form({
            model_files: [box, box],
            'virtual_anchor.center': '[0,0,0]',
            'virtual_anchor.radius': '1',
            'virtual_anchor.plane_normal': '[0,1,0]',
            'virtual_anchor.direction': '[1,0,0]',
          }),
          key,
        )
      ).status,
    ).toBe(201);
    const { body } = await listModels(t, key);
    expect(body.models).toHaveLength(1);
    expect(await storedModelFiles(t)).toHaveProperty('size', 1);
  });

  it('pages newest first; every model on exactly one page', async () => {
    for (let i = 0; i < 4; i++) expect((await postSession(t, 'by_plane', form({ model_file: freshBox() }), key)).status).toBe(201);
    const all = (await listModels(t, key)).body.models;
    expect(all).toHaveLength(5);
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page = await listModels(t, key, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      pages.push(page.body.models.map((m) => m.id));
      cursor = page.body.next_cursor;
    } while (cursor !== null && pages.length < 10);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(all.map((m) => m.id));
  });

  it('a page size or cursor it did not make is refused by name', async () => {
    for (const limit of ['0', '1001', 'ten', '2.5']) {
      const r = await listModels(t, key, `?limit=${limit}`);
      expect(r.status).toBe(400);
      expect(r.body.errors?.[0]?.field).toBe('limit');
    }
    for (const cursor of ['abc', Buffer.from('[1,2]').toString('base64url'), Buffer.from('{"a":1}').toString('base64url')]) {
      const r = await listModels(t, key, `?cursor=${cursor}`);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_cursor', errors: [{ field: 'cursor' }] });
    }
  });

  it('a saved model is fetched by its key: its record, and its bytes as uploaded with their SHA-256 as ETag', async () => {
    const bytes = uniqueGlb(BOX, randomUUID());
    expect((await postSession(t, 'by_plane', form({ model_file: [new Blob([bytes]), 'fetched.glb'] }), key)).status).toBe(201);
    const model = (await listModels(t, key)).body.models.find((m) => m.source_name === 'fetched.glb')!;
    const record = await fetch(`${t.url}${API}/models/${model.id}`, { headers: { 'X-API-Key': key } });
    expect(await record.json()).toEqual(model);
    const file = await fetch(`${t.url}${API}/models/${model.id}/file`, { headers: { 'X-API-Key': key } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('model/gltf-binary');
    expect(file.headers.get('etag')).toBe(`"${model.sha256}"`);
    expect(file.headers.get('content-disposition')).toContain('fetched.glb');
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    expect(
      (await fetch(`${t.url}${API}/models/${model.id}/file`, { headers: { 'X-API-Key': key, 'If-None-Match': `"${model.sha256}"` } }))
        .status,
    ).toBe(304);
    const stranger = await t.server.context.sessions.createApiKey(`peek-${randomUUID().slice(0, 8)}`);
    for (const path of [`${model.id}`, `${model.id}/file`])
      expect((await fetch(`${t.url}${API}/models/${path}`, { headers: { 'X-API-Key': stranger } })).status).toBe(404);
  });

  it('a saved model makes a new session by its id, without being sent or saved again', async () => {
    const bytes = uniqueGlb(BOX, randomUUID());
    expect((await postSession(t, 'by_plane', form({ model_file: [new Blob([bytes]), 'again.glb'] }), key)).status).toBe(201);
    const before = (await listModels(t, key)).body.models;
    const model = before.find((m) => m.source_name === 'again.glb')!;
    const reused = await postSession(t, 'by_plane', form({ model_id: model.id }), key);
    expect(reused.status, JSON.stringify(reused.body)).toBe(201);
    const detail = await getDetail(t, sessionIdOf(reused.body.deeplink as string));
    expect(detail.body.model_assets[0]).toMatchObject({ source_name: 'again.glb', source_bytes: bytes.length, triangles: 12 });
    expect((await listModels(t, key)).body.models).toEqual(before);
    // The same id through a method that needs more fields works alike.
    expect(
      (
        await postSession(
          t,
          'by_virtual_anchor/circle-directional',
          form({
            model_id: model.id,
            'virtual_anchor.center': '[0, 0, 0]',
            'virtual_anchor.radius': '0.5',
            'virtual_anchor.plane_normal': '[0, 1, 0]',
            'virtual_anchor.direction': '[0, 0, -1]',
          }),
          key,
        )
      ).status,
    ).toBe(201);
  });

  it('a model_id is refused by name: beside a model file, without a key, or of another account', async () => {
    const model = (await listModels(t, key)).body.models[0]!;
    const both = await postSession(t, 'by_plane', form({ model_id: model.id, model_file: freshBox() }), key);
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ code: 'mutually_exclusive', errors: [{ field: 'model_id' }] });
    const keyless = await postSession(t, 'by_plane', form({ model_id: model.id }), null);
    expect(keyless.status).toBe(401);
    expect(keyless.body).toMatchObject({ code: 'api_key_missing' });
    const stranger = await t.server.context.sessions.createApiKey(`reuse-${randomUUID().slice(0, 8)}`);
    const theirs = await postSession(t, 'by_plane', form({ model_id: model.id }), stranger);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ code: 'model_not_found', errors: [{ field: 'model_id' }] });
  });

  it('DELETE forgets a model and its file; another account cannot, and learns nothing', async () => {
    const [victim, ...rest] = (await listModels(t, key)).body.models;
    const before = await storedModelFiles(t);
    const stranger = await t.server.context.sessions.createApiKey(`stranger-${randomUUID().slice(0, 8)}`);
    const refused = await deleteModel(t, stranger, victim!.id);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ code: 'model_not_found', errors: [{ field: 'model_id' }] });
    expect((await deleteModel(t, key, 'no-such-model')).status).toBe(404);
    expect((await fetch(`${t.url}${API}/models/${victim!.id}`, { method: 'DELETE' })).status).toBe(401);

    const deleted = await deleteModel(t, key, victim!.id);
    expect(deleted.status).toBe(204);
    expect((await listModels(t, key)).body.models.map((m) => m.id)).toEqual(rest.map((m) => m.id));
    const after = await storedModelFiles(t);
    expect(after.size).toBe(before.size - 1);
    expect([...after].every((f) => before.has(f))).toBe(true);
    expect((await deleteModel(t, key, victim!.id)).status).toBe(404);
  });
});

describe('saved-model quotas', () => {
  let t: TestServer, key: string;
  const boxBytes = uniqueGlb(BOX, 'size').length;
  beforeAll(async () => {
    // Room for three boxes' bytes but two models; the bytes quota is met by a larger model.
    t = await startTestServer({ savedModelsPerAccount: 2, savedModelBytesPerAccount: boxBytes * 3 + 500 });
    key = await t.server.context.sessions.createApiKey(`quota-${randomUUID().slice(0, 8)}`);
  });
  afterAll(() => t.stop());

  it(
    'past the count a request that would save more is 429 naming ' + 'the quota; the same content again, or a deletion, makes room',
    async () => {
      const first = freshBox();
      expect((await postSession(t, 'by_plane', form({ model_file: first }), key)).status).toBe(201);
      expect((await postSession(t, 'by_plane', form({ model_file: freshBox() }), key)).status).toBe(201);
      const over = await postSession(t, 'by_plane', form({ model_file: freshBox() }), key);
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({ code: 'saved_models_count_quota', errors: [{ field: 'X-API-Key' }] });
      expect(over.body.detail).toContain('ARSESSION_SAVED_MODELS_PER_ACCOUNT');
      // Content it keeps already takes no room.
      expect((await postSession(t, 'by_plane', form({ model_file: first }), key)).status).toBe(201);
      // Without a key nothing is saved, so no quota applies.
      expect((await postSession(t, 'by_plane', form({ model_file: freshBox() }), null)).status).toBe(201);
      const oldest = (await listModels(t, key)).body.models.at(-1)!;
      expect((await deleteModel(t, key, oldest.id)).status).toBe(204);
      expect((await postSession(t, 'by_plane', form({ model_file: freshBox() }), key)).status).toBe(201);
      expect((await listModels(t, key)).body.models).toHaveLength(2);
    },
  );

  it('past the bytes a request is 413 naming the quota, and nothing of it is kept', async () => {
    const other = await t.server.context.sessions.createApiKey(`bytes-${randomUUID().slice(0, 8)}`);
    const files = await storedModelFiles(t);
    const big = await postSession(
      t,
      'by_plane',
      form({ model_file: [new Blob([uniqueGlb(corpusPath('glb', 'CesiumMan.glb'), randomUUID())]), 'man.glb'] }),
      other,
    );
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'saved_models_bytes_quota', errors: [{ field: 'model_file' }] });
    expect(big.body.detail).toContain('ARSESSION_SAVED_MODELS_PER_ACCOUNT_MB');
    expect((await listModels(t, other)).body.models).toEqual([]);
    expect(await storedModelFiles(t)).toEqual(files);
  });
});

describe('a key ends the sessions it made', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.stop());

  const end = (id: string, key?: string) =>
    fetch(`${t.url}${API}/session/${id}/`, { method: 'DELETE', headers: key ? { 'X-API-Key': key } : {} });

  it('204: its code is dead, its id answers 410, its files are gone', async () => {
    const made = await postSession(t, 'by_plane', form({ model_file: freshBox() }));
    expect(made.status).toBe(201);
    const id = sessionIdOf(made.body.deeplink as string);
    const detail = await getDetail(t, id);
    const fileUrl = detail.body.model_assets[0].usdz_url as string;
    expect((await end(id, t.key)).status).toBe(204);
    expect((await getDetail(t, id)).status).toBe(410);
    expect((await fetch(fileUrl)).status).toBe(410);
    const claim = await fetch(`${t.url}${API}/session/claim`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ onetime_code: made.body.onetime_code }),
    });
    expect(claim.status).toBe(404);
    expect((await t.server.context.sessions.find(id))?.filesDeleted).toBe(true);
    expect((await end(id, t.key)).status).toBe(410);
  });

  it("a session made without a key, or by another account, is not the key's to end", async () => {
    const anonymous = sessionIdOf((await postSession(t, 'by_plane', form({ model_file: freshBox() }), null)).body.deeplink as string);
    const theirs = sessionIdOf((await postSession(t, 'by_plane', form({ model_file: freshBox() }))).body.deeplink as string);
    const other = await t.server.context.sessions.createApiKey(`other-${randomUUID().slice(0, 8)}`);
    for (const [id, key] of [
      [anonymous, t.key],
      [theirs, other],
    ] as const) {
      const r = await end(id, key);
      expect(r.status).toBe(403);
      expect(await r.json()).toMatchObject({ code: 'not_your_session', errors: [{ field: 'session_id' }] });
      expect((await getDetail(t, id)).status).toBe(200);
    }
    expect((await end(theirs)).status).toBe(401);
    expect((await end('AAAAAAAAAAAAAAAAAAAAAA', t.key)).status).toBe(404);
    expect((await end('not-an-id', t.key)).status).toBe(404);
  });
});
