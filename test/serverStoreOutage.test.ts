// The server on PostgreSQL when the database goes away and comes back: 503 with Retry-After while
// it is down (never a 500, never a hang), normal service after, with no restart of the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from './support/corpus.js';
import { startPostgres, type PostgresServer } from './support/postgresServer.js';
import { filePart, form, getDetail, postSession, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';

const BOX = corpusPath('glb', 'Box.glb');
const ANCHOR = { 'virtual_anchor.center': '[0,0,0]', 'virtual_anchor.radius': '1', 'virtual_anchor.plane_normal': '[0,1,0]', 'virtual_anchor.direction': '[1,0,0]' };

let postgres: PostgresServer;
let t: TestServer;
beforeAll(async () => {
  postgres = await startPostgres();
  t = await startTestServer({ databaseUrl: await postgres.createDatabase('outage') });
});
afterAll(async () => {
  await t.stop();
  postgres.stop();
});

describe('PostgreSQL down and back under a running server', () => {
  it('503 store_unavailable with Retry-After on every path that needs it; /readyz says why; all well again after', async () => {
    const before = await postSession(t, 'by_virtual_anchor/circle-directional', form({ model_file: filePart(BOX), ...ANCHOR }));
    expect(before.status).toBe(201);
    const id = sessionIdOf(before.body.deeplink);

    postgres.stopNow();
    try {
      const created = await postSession(t, 'by_virtual_anchor/circle-directional', form({ model_file: filePart(BOX), ...ANCHOR }));
      expect([created.status, created.headers.get('content-type'), created.body.code]).toEqual([503, expect.stringMatching(/^application\/problem\+json/), 'store_unavailable']);
      expect(created.headers.get('retry-after')).toMatch(/^\d+$/);
      const anonymous = await postSession(t, 'by_plane', form({ model_file: filePart(BOX) }), null);
      expect([anonymous.status, anonymous.body.code]).toEqual([503, 'store_unavailable']);
      const detail = await fetch(`${t.url}/api/vision/v1/session/${id}/`);
      expect([detail.status, detail.headers.get('retry-after')]).toEqual([503, expect.stringMatching(/^\d+$/)]);
      const claim = await fetch(`${t.url}/api/vision/v1/session/claim/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ onetime_code: before.body.onetime_code }) });
      expect(claim.status).toBe(503);
      const ready = await fetch(`${t.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { checks: { database: string } }).checks.database).toMatch(/cannot be reached/);
    } finally {
      postgres.start();
    }

    expect((await getDetail(t, id)).status).toBe(200);
    expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
    const after = await postSession(t, 'by_virtual_anchor/circle-directional', form({ model_file: filePart(BOX), ...ANCHOR }));
    expect(after.status).toBe(201);
  });
});
