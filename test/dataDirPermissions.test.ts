import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from './support/corpus.js';
import { filePart, form, getDetail, postSession, sessionIdOf, startTestServer, type TestServer } from './support/serverHarness.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

/** Every entry under `dir` with its permission bits. */
function modesUnder(dir: string): Array<{ path: string; dir: boolean; mode: number }> {
  return [
    { path: dir, dir: true, mode: statSync(dir).mode & 0o777 },
    ...readdirSync(dir, { recursive: true, withFileTypes: true }).map((e) => {
      const path = join(e.parentPath, e.name);
      return { path, dir: e.isDirectory(), mode: statSync(path).mode & 0o777 };
    }),
  ];
}

describe('the data directory', () => {
  it("is its user's alone: folders 0700, files 0600 (uploads, the database, delivered files, saved models)", async () => {
    // With a key: the model is saved to the account too.
    const r = await postSession(t, 'by_plane', form({ model_file: filePart(corpusPath('glb', 'Box.glb')) }));
    expect(r.status).toBe(201);
    expect((await getDetail(t, sessionIdOf(r.body.deeplink))).status).toBe(200);
    const entries = modesUnder(t.dataDir);
    expect(entries.filter((e) => !e.dir).length).toBeGreaterThan(2);
    const open = entries.filter((e) => (e.dir ? e.mode !== 0o700 : (e.mode & 0o077) !== 0));
    expect(open.map((e) => `${e.path} ${e.mode.toString(8)}`)).toEqual([]);
  });
});
