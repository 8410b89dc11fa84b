// Web clients: an operator lists the origins whose scripts may read the answers (CORS); every
// answer says which converter version gave it.
import { CONVERTER_VERSION } from '@arsession/convert';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readServerConfig } from '@arsession/server';
import { startTestServer, type TestServer } from './support/serverHarness.js';

const APP = 'https://app.example.com';
let open: TestServer, closed: TestServer;
beforeAll(async () => {
  open = await startTestServer({ corsOrigins: [APP] });
  closed = await startTestServer();
});
afterAll(async () => {
  await open.stop();
  await closed.stop();
});

describe('CORS (ARSESSION_CORS_ORIGINS)', () => {
  it('a listed origin may read answers, with the headers a client needs exposed', async () => {
    const res = await fetch(`${open.url}/api/vision/v1/session/AAAAAAAAAAAAAAAAAAAAAA/`, { headers: { Origin: APP } });
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('vary')).toMatch(/Origin/);
    expect(res.headers.get('access-control-expose-headers')).toMatch(/X-Request-Id/);
  });

  it('a preflight from a listed origin is answered 204 with the methods and headers the interface takes', async () => {
    const res = await fetch(`${open.url}/api/vision/v1/session/by_plane/`, {
      method: 'OPTIONS',
      headers: { Origin: APP, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-api-key' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toContain('X-API-Key');
  });

  it('another origin, or a server that lists none, gets no CORS header', async () => {
    const other = await fetch(`${open.url}/healthz`, { headers: { Origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const none = await fetch(`${closed.url}/healthz`, { headers: { Origin: APP } });
    expect(none.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('the setting takes origins or *, and refuses anything else by name', () => {
    expect(readServerConfig({ ARSESSION_CORS_ORIGINS: `${APP}, http://localhost:3000` }).corsOrigins).toEqual([
      APP,
      'http://localhost:3000',
    ]);
    expect(readServerConfig({ ARSESSION_CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(() => readServerConfig({ ARSESSION_CORS_ORIGINS: 'https://app.example.com/path' })).toThrow(/^ARSESSION_CORS_ORIGINS: /);
  });
});

describe('the version on every answer', () => {
  it('X-Arsession-Version names the converter, on success and refusal alike', async () => {
    for (const path of ['/healthz', '/no-such-path']) {
      expect((await fetch(`${closed.url}${path}`)).headers.get('x-arsession-version')).toBe(CONVERTER_VERSION);
    }
  });
});
