// The universal-link association through a real server: the configured apps open session pages,
// served as iOS fetches it (JSON, no redirect); without an app none is served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/serverHarness.js';
import { readServerConfig } from '@arsession/server';

let withApps: TestServer, without: TestServer;
beforeAll(async () => {
  [withApps, without] = await Promise.all([
    startTestServer({ appleAppIds: ['ABCDE12345.com.example.viewer', 'ABCDE12345.com.example.viewer.beta'] }),
    startTestServer(),
  ]);
});
afterAll(() => Promise.all([withApps?.stop(), without?.stop()]));

describe('/.well-known/apple-app-site-association', () => {
  it('names the configured apps for session pages, as JSON and without a redirect', async () => {
    const res = await fetch(`${withApps.url}/.well-known/apple-app-site-association`, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { applinks: { details: Array<{ appIDs: string[]; components: Array<{ '/': string }> }> } };
    expect(body.applinks.details).toHaveLength(1);
    expect(body.applinks.details[0]!.appIDs).toEqual(['ABCDE12345.com.example.viewer', 'ABCDE12345.com.example.viewer.beta']);
    expect(body.applinks.details[0]!.components.map((c) => c['/'])).toEqual(['/s/*']);
  });

  it('is not served when no app is configured, and a malformed identifier stops the start by name', async () => {
    const res = await fetch(`${without.url}/.well-known/apple-app-site-association`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: string }).detail).toContain('ARSESSION_APPLE_APP_IDS');
    expect(() => readServerConfig({ ARSESSION_APPLE_APP_IDS: 'com.example.viewer' })).toThrow(
      /^ARSESSION_APPLE_APP_IDS: "com.example.viewer"/,
    );
  });
});
