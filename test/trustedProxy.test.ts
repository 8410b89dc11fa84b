// ARSESSION_TRUST_PROXY: behind a load balancer, who the client is and what it called come from
// X-Forwarded-* — but only when a trusted proxy wrote them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from './support/corpus.js';
import { requestFrom } from './support/requestFrom.js';
import { filePart, form, postSession, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';

const BOX = corpusPath('glb', 'Box.glb');
const FORWARDED = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'ar.example.com', 'X-Forwarded-For': '203.0.113.7' };

let plain: TestServer, behind: TestServer;
beforeAll(async () => {
  // 127.0.0.1 plays the balancer; 127.0.0.2 is a client that reached the server directly.
  [plain, behind] = await Promise.all([startTestServer(), startTestServer({ trustProxy: ['127.0.0.1'], claimsPerClientPerMinute: 3 })]);
});
afterAll(() => Promise.all([plain.stop(), behind.stop()]));

/** The detail record's page URL, asked from `from` with `headers`. */
async function pageUrl(t: TestServer, id: string, from: string, headers: Record<string, string>): Promise<string> {
  const r = await requestFrom(from, t.url, `/api/vision/v1/session/${id}/`, { headers });
  expect(r.status).toBe(200);
  return (JSON.parse(r.body) as { page_url: string }).page_url;
}

/** A twelve-digit code no session holds. */
const wrong = (i: number) => String(100_000_000_000 + i);

/** A claim of `code` from `from`, as a JSON body. */
function claim(t: TestServer, from: string, code: string, headers: Record<string, string> = {}) {
  return requestFrom(from, t.url, '/api/vision/v1/session/claim/', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ onetime_code: code }),
  });
}

describe('a trusted proxy (ARSESSION_TRUST_PROXY)', () => {
  it("off by default: X-Forwarded-Proto and -Host are ignored, the links are the connection's own", async () => {
    const id = sessionIdOf((await postSession(plain, 'by_plane', form({ model_file: filePart(BOX) }))).body.deeplink);
    expect(await pageUrl(plain, id, '127.0.0.1', FORWARDED)).toBe(`${plain.url}/s/${id}`);
  });

  it('from the trusted proxy, links are what the client called (https behind TLS); from anyone else, the headers are ignored', async () => {
    const id = sessionIdOf((await postSession(behind, 'by_plane', form({ model_file: filePart(BOX) }))).body.deeplink);
    expect(await pageUrl(behind, id, '127.0.0.1', FORWARDED)).toBe(`https://ar.example.com/s/${id}`);
    expect(await pageUrl(behind, id, '127.0.0.2', FORWARDED)).toBe(`${behind.url}/s/${id}`);
  });

  it('per-address claim limits count each client behind the proxy apart, and a direct client cannot pose as another', async () => {
    for (let i = 0; i < 3; i++) expect((await claim(behind, '127.0.0.1', wrong(i), { 'X-Forwarded-For': '203.0.113.1' })).status).toBe(404);
    expect((await claim(behind, '127.0.0.1', wrong(3), { 'X-Forwarded-For': '203.0.113.1' })).status).toBe(429);
    // Another client through the same balancer is not held back.
    expect((await claim(behind, '127.0.0.1', wrong(4), { 'X-Forwarded-For': '203.0.113.2' })).status).toBe(404);
    // A client that reached the server directly is itself, whatever it says.
    for (let i = 0; i < 3; i++)
      expect((await claim(behind, '127.0.0.2', wrong(10 + i), { 'X-Forwarded-For': `198.51.100.${i}` })).status).toBe(404);
    expect((await claim(behind, '127.0.0.2', wrong(20), { 'X-Forwarded-For': '198.51.100.99' })).status).toBe(429);
  });

  it('an IPv6 client is its /64: another address in it is held with it, one in the next /64 is not', async () => {
    for (let i = 0; i < 3; i++)
      expect((await claim(behind, '127.0.0.1', wrong(30 + i), { 'X-Forwarded-For': `2001:db8:1:2::${i + 1}` })).status).toBe(404);
    expect((await claim(behind, '127.0.0.1', wrong(40), { 'X-Forwarded-For': '2001:db8:1:2:ffff:ffff:ffff:fffe' })).status).toBe(429);
    expect((await claim(behind, '127.0.0.1', wrong(41), { 'X-Forwarded-For': '2001:db8:1:3::1' })).status).toBe(404);
  });
});
