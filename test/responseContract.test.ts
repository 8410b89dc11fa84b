// The check every test's fetch goes through (test/support/responseContract.ts) refuses answers
// that break the served OpenAPI document, and accepts the ones that keep it.
import { describe, expect, it } from 'vitest';
import { checkResponse, ResponseContractError } from './support/responseContract.js';

const SESSION = {
  deeplink: 'arsession://session/3q2-7wEjS0mZ1T2V0X9dQg',
  expires_at: '2026-11-25T10:00:00.000Z',
  onetime_code: '012345678901',
};
const json = (body: unknown, status: number, type = 'application/json') =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': `${type}; charset=utf-8` } });
const at = (path: string) => new URL(`http://127.0.0.1:1${path}`);

describe('checkResponse', () => {
  it("accepts a 201 in the document's shape, with or without the trailing slash", async () => {
    await expect(checkResponse('POST', at('/api/vision/v1/session/by_plane/'), json(SESSION, 201))).resolves.toBeUndefined();
    await expect(checkResponse('POST', at('/api/vision/v1/session/by_plane'), json(SESSION, 201))).resolves.toBeUndefined();
  });

  it('refuses a field the document does not describe, naming it', async () => {
    await expect(checkResponse('POST', at('/api/vision/v1/session/by_plane/'), json({ ...SESSION, debug: true }, 201))).rejects.toThrow(
      /additional properties 'debug'/,
    );
  });

  it('refuses a missing field, a wrong type and a malformed value', async () => {
    const { onetime_code: _, ...missing } = SESSION;
    for (const body of [
      missing,
      { ...SESSION, onetime_code: 123456 },
      { ...SESSION, onetime_code: '12345' },
      { ...SESSION, expires_at: '2026-13-45T99:00:00Z' },
    ]) {
      await expect(checkResponse('POST', at('/api/vision/v1/session/by_plane/'), json(body, 201))).rejects.toBeInstanceOf(
        ResponseContractError,
      );
    }
  });

  it('refuses a status the operation does not list, and a content type it does not list for the status', async () => {
    await expect(checkResponse('GET', at('/healthz'), json({ status: 'ok' }, 500))).rejects.toThrow(/lists only 200/);
    await expect(checkResponse('GET', at('/healthz'), json({ status: 'ok' }, 200, 'text/plain'))).rejects.toThrow(
      /content type 'text\/plain'/,
    );
  });

  it('checks problem bodies even on paths the document does not list', async () => {
    const problem = {
      type: 'urn:arsession:problem:not_found',
      title: 'Not Found',
      status: 404,
      detail: 'no endpoint',
      code: 'not_found',
      errors: [{ field: 'path', message: 'unknown endpoint' }],
    };
    await expect(checkResponse('GET', at('/nowhere'), json(problem, 404, 'application/problem+json'))).resolves.toBeUndefined();
    await expect(
      checkResponse('GET', at('/nowhere'), json({ ...problem, errors: 'none' }, 404, 'application/problem+json')),
    ).rejects.toThrow(/errors/);
  });

  it('prefers a literal path to a template: /s/assets/{name} is not a session page', async () => {
    await expect(
      checkResponse(
        'GET',
        at('/s/assets/session-page.css'),
        new Response('body{}', { status: 200, headers: { 'content-type': 'text/css' } }),
      ),
    ).resolves.toBeUndefined();
    await expect(
      checkResponse(
        'GET',
        at('/s/assets/session-page.css'),
        new Response('<p>', { status: 410, headers: { 'content-type': 'text/html' } }),
      ),
    ).rejects.toThrow(/lists only 200, 404/);
  });
});
