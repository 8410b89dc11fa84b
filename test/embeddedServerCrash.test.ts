// A kill -9 of the embedded server (`arsession serve` on its data directory, SQLite and files) in
// the middle of uploads, conversions and commits: the restart finds the data directory consistent
// and every session that answered 201 intact. (A cluster's nodes are killed in serverCluster.test.ts.)
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath } from './support/corpus.js';
import { createKeyWithCli, startCliServer, type CliServer } from './support/cliServer.js';
import { auditDataDir } from './support/dataDirAudit.js';
import { downloadSessionFiles } from './support/deliveredFiles.js';
import { form, sessionIdOf } from './support/serverHarness.js';
import { startManualUpload } from './support/rawUpload.js';
import { uniqueGlb, uniqueIfc } from './support/uniqueModel.js';

const BOX = corpusPath('glb', 'Box.glb');

describe('kill -9 of `arsession serve`', () => {
  /** POSTs a session to a CLI server; `undefined` when the connection died with the server. */
  async function post(
    url: string,
    path: string,
    model: [Uint8Array, string],
    key?: string,
  ): Promise<{ status: number; body: Record<string, any> } | undefined> {
    try {
      const res = await fetch(`${url}/api/vision/v1/session/${path}/`, {
        method: 'POST',
        body: form({ model_file: [new Blob([model[0]]), model[1]] }),
        headers: key ? { 'X-API-Key': key } : {},
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    } catch {
      return undefined;
    }
  }
  const box = (): [Uint8Array, string] => [uniqueGlb(BOX, randomUUID()), 'box.glb'];

  /** Polls until `ready()` holds (or fails the test after `ms`). */
  async function until(ready: () => boolean, ms: number, what: string): Promise<void> {
    const deadline = Date.now() + ms;
    while (!ready()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((done) => setTimeout(done, 10));
    }
  }

  /** Asserts the consistency a restarted server must leave, and that every 201 still delivers its files. */
  async function expectConsistent(server: CliServer, dataDir: string, answered: readonly string[]): Promise<void> {
    const audit = auditDataDir(dataDir);
    expect(audit).toMatchObject({
      integrity: 'ok',
      foreignKeyViolations: 0,
      uploads: [],
      unownedSessionEntries: [],
      unownedModelFiles: [],
      damagedSessionFiles: [],
      damagedModelFiles: [],
    });
    expect(audit.sessionIds).toEqual(expect.arrayContaining([...answered]));
    for (const id of answered) {
      const { status, files } = await downloadSessionFiles(server.url, id);
      expect({ id, status }).toEqual({ id, status: 200 });
      for (const f of files) expect({ status: f.status, ...f.served }).toEqual({ status: 200, ...f.promised });
    }
  }

  it(
    'during uploads and conversions, and again amid a burst: after each ' + 'restart the data directory is consistent and every 201 intact',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'arsession-kill9-'));
      const env = { ARSESSION_WORKERS: '2', ARSESSION_QUEUE: '16' };
      const key = createKeyWithCli(dataDir, 'acme');
      const answered: string[] = [];
      const record = (r: { status: number; body: Record<string, any> } | undefined) => {
        if (r?.status === 201) answered.push(sessionIdOf(r.body.deeplink as string));
        return r;
      };
      let server = await startCliServer(dataDir, env);
      try {
        // Sessions finished before the crash, saved to the account and anonymous.
        for (const k of [key, undefined, key]) expect(record(await post(server.url, 'by_plane', box(), k))?.status).toBe(201);

        // In flight at the kill: two IFC conversions (seconds each), an upload stalled halfway, and
        // a stream of small sessions, some keyed.
        const conversions = [
          post(server.url, 'by_plane', [uniqueIfc(corpusPath('ifc', 'AC20-FZK-Haus.ifc'), randomUUID()), 'house.ifc'], key).then(record),
          post(server.url, 'by_plane', [uniqueIfc(corpusPath('ifc', 'Office_A_20110811.ifc'), randomUUID()), 'office.ifc']).then(record),
        ];
        const stalled = startManualUpload(`${server.url}/api/vision/v1/session/by_plane/`, {
          field: 'model_file',
          fileName: 'stalled.glb',
          declaredFileBytes: 4 << 20,
        });
        await stalled.send(new Uint8Array(512 << 10).fill(7));
        let streaming = true;
        const stream = async (k?: string) => {
          while (streaming) if (record(await post(server.url, 'by_plane', box(), k)) === undefined) return;
        };
        const streams = [stream(key), stream()];
        // Kill once a conversion has begun writing its session's USDZ (staged in uploads/ until the
        // session is committed) and the stalled upload is on disk.
        const inUploads = () => readdirSync(join(dataDir, 'uploads'));
        await until(
          () => inUploads().some((e) => e.endsWith('.usdz')) && inUploads().some((e) => !e.endsWith('.usdz')),
          20_000,
          'a conversion and an upload in progress',
        );
        await server.kill9();
        streaming = false;
        await Promise.all([...conversions, ...streams, stalled.closed]);

        // What the crash left behind is really there, so that the clean-up below is tested, not vacuous.
        const crashed = auditDataDir(dataDir);
        if (process.env.ARSESSION_TEST_LOG) console.error('left by the kill:', crashed);
        expect(crashed.integrity).toBe('ok');
        expect(crashed.uploads.length + crashed.unownedSessionEntries.length).toBeGreaterThan(0);

        server = await startCliServer(dataDir, env);
        expect(server.output()).toContain('removed files left by an interrupted run');
        await expectConsistent(server, dataDir, answered);

        // A second kill at an arbitrary moment of a burst of small sessions (keyed ones save models).
        const burst = Array.from({ length: 12 }, (_, i) => post(server.url, 'by_plane', box(), i % 2 ? key : undefined).then(record));
        await until(() => answered.length >= 5, 20_000, 'the first answers of the burst');
        await server.kill9();
        await Promise.all(burst);

        server = await startCliServer(dataDir, env);
        await expectConsistent(server, dataDir, answered);
        // The restarted server works on the same directory: a new session, and a code claimed.
        expect(record(await post(server.url, 'by_plane', box(), key))?.status).toBe(201);
        const code = (await post(server.url, 'by_plane', box()))!;
        const claim = await fetch(`${server.url}/api/vision/v1/session/claim/`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ onetime_code: code.body.onetime_code }),
        });
        expect(claim.status).toBe(200);
      } finally {
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
