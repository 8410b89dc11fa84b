// Faults (issue 7): a conversion worker that crashes or hangs costs its own request a clear error
// within the configured timeout and nothing else; the pool replaces the worker. Workers are made
// to fail on purpose by test/support/faultyConversionWorker.mjs, a wrapper of the real worker that
// the real pool runs; every other request is converted by the real worker.
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { conversionPoolStats } from '@arsession/convert';
import { sessionOfEntry, type SqliteSessionStore } from '@arsession/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath } from './support/corpus.js';
import { downloadSessionFiles } from './support/deliveredFiles.js';
import { startFaultyWorkerServer } from './support/faultyWorkerServer.js';
import { form, postSession, sessionIdOf, type TestServer } from './support/serverHarness.js';
import { uniqueGlb } from './support/uniqueModel.js';

const BOX = corpusPath('glb', 'Box.glb');
const CONVERSION_TIMEOUT_S = 1;
const WORKERS = 2;

let t: TestServer;
beforeAll(async () => {
  t = await startFaultyWorkerServer({ workers: WORKERS, queue: 8, conversionTimeoutSeconds: CONVERSION_TIMEOUT_S });
});
afterAll(() => t.stop());

/** POSTs a by_plane session whose model has this name and fresh bytes (so no cache answers for the worker). */
async function postModel(name: string): Promise<{ status: number; body: Record<string, any>; headers: Headers; ms: number }> {
  const started = performance.now();
  const r = await postSession(t, 'by_plane', form({ model_file: [new Blob([uniqueGlb(BOX, randomUUID())]), name] }), null);
  return { ...r, ms: performance.now() - started };
}

/** Asserts a 201 whose files download with the size and SHA-256 the detail record reports. */
async function expectIntactSession(r: { status: number; body: Record<string, any> }): Promise<void> {
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const { status, files } = await downloadSessionFiles(t.url, sessionIdOf(r.body.deeplink as string));
  expect(status).toBe(200);
  expect(files).toHaveLength(1);
  for (const f of files) expect({ status: f.status, ...f.served }).toEqual({ status: 200, ...f.promised });
}

/** Asserts the worker's failure came back as a 422 problem naming the model's field and file. */
function expectWorkerFailure(r: { status: number; body: Record<string, any>; headers: Headers }, fileName: string, detail: RegExp): void {
  expect(r.status).toBe(422);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({ status: 422, code: 'model_unreadable', file: fileName, errors: [{ field: 'model_file' }] });
  expect(r.body.detail).toMatch(detail);
}

/** Waits until the pool has no thread beyond those it holds (idle or busy), i.e. every discarded worker has ended. */
async function poolSettled(): Promise<ReturnType<typeof conversionPoolStats>> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const s = conversionPoolStats();
    if (s.started - s.exited === s.idle + s.busy || Date.now() > deadline) return s;
    await new Promise((done) => setTimeout(done, 20));
  }
}

/**
 * Nothing of a failed request stays in the data directory: no upload, and no session file
 * without its database row. Uploads of a 201 are removed just after the answer, hence the short wait.
 */
async function expectNoLeftovers(): Promise<void> {
  const leftovers = () => {
    const rows = new Set(
      ((t.server.context.sessions as SqliteSessionStore).db.prepare('SELECT id FROM sessions').all() as Array<{ id: string }>).map(
        (r) => r.id,
      ),
    );
    return [
      ...readdirSync(join(t.dataDir, 'uploads')).map((e) => `uploads/${e}`),
      ...readdirSync(join(t.dataDir, 'sessions'))
        .filter((e) => !rows.has(sessionOfEntry(e)))
        .map((e) => `sessions/${e}`),
    ];
  };
  const deadline = Date.now() + 2000;
  while (leftovers().length > 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
  expect(leftovers()).toEqual([]);
}

describe('a conversion worker that hangs', () => {
  it(
    'its request gets a 422 once the conversion timeout passes, ' + 'the thread is stopped, and concurrent requests get their 201',
    async () => {
      await poolSettled();
      const before = conversionPoolStats();
      const [hung, ...others] = await Promise.all([
        postModel('fault-hang.glb'),
        postModel('a.glb'),
        postModel('b.glb'),
        postModel('c.glb'),
      ]);

      expectWorkerFailure(
        hung!,
        'fault-hang.glb',
        new RegExp(`fault-hang\\.glb: the parser did not finish within ${CONVERSION_TIMEOUT_S} s`),
      );
      // The timeout, not something sooner, ended it; and not much later (a worker start is ~1 s on a busy machine).
      expect(hung!.ms).toBeGreaterThanOrEqual(CONVERSION_TIMEOUT_S * 1000);
      expect(hung!.ms).toBeLessThan(CONVERSION_TIMEOUT_S * 1000 + 4000);
      for (const r of others) await expectIntactSession(r);

      const after = await poolSettled();
      // The spinning thread ended (terminate() works on a runaway loop), and no thread is unaccounted for.
      expect(after.exited).toBeGreaterThan(before.exited);
      expect(after.started - after.exited).toBe(after.idle + after.busy);
      expect(after.busy).toBe(0);
      await expectNoLeftovers();
    },
  );
});

describe('a conversion worker that crashes', () => {
  it('an uncaught error and an exit without an answer each fail only their own request, with a 422 naming the model', async () => {
    await poolSettled();
    const before = conversionPoolStats();
    const [crashed, exited, ...others] = await Promise.all([
      postModel('fault-crash.glb'),
      postModel('fault-exit.glb'),
      postModel('d.glb'),
      postModel('e.glb'),
    ]);

    expectWorkerFailure(crashed!, 'fault-crash.glb', /fault-crash\.glb: the parser crashed \(injected fault: the parser crashed\)/);
    expectWorkerFailure(exited!, 'fault-exit.glb', /fault-exit\.glb: the parser stopped without an answer \(exit code 3\)/);
    for (const r of others) await expectIntactSession(r);

    const after = await poolSettled();
    expect(after.exited - before.exited).toBeGreaterThanOrEqual(2);
    expect(after.started - after.exited).toBe(after.idle + after.busy);
    await expectNoLeftovers();
  });

  it('a worker that crashes while idle in the pool takes neither the server nor a later request with it', async () => {
    await poolSettled();
    const before = conversionPoolStats();
    // Converted normally; the thread throws ~150 ms later, between jobs.
    await expectIntactSession(await postModel('fault-crash-idle.glb'));
    const deadline = Date.now() + 3000;
    while (conversionPoolStats().exited === before.exited && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
    expect(conversionPoolStats().exited).toBeGreaterThan(before.exited);

    // The dead worker left the pool: a full set of concurrent conversions all succeed.
    const again = await Promise.all(Array.from({ length: WORKERS + 1 }, (_, i) => postModel(`after-${i}.glb`)));
    for (const r of again) await expectIntactSession(r);
    expect((await fetch(`${t.url}/readyz`)).status).toBe(200);
  });
});

describe('after every fault', () => {
  it('the pool converts at full width again: as many requests as workers at once, all 201', async () => {
    const results = await Promise.all(Array.from({ length: WORKERS * 2 }, (_, i) => postModel(`later-${i}.glb`)));
    for (const r of results) await expectIntactSession(r);
    const s = await poolSettled();
    expect(s.started - s.exited).toBe(s.idle + s.busy);
    expect(s.idle).toBeGreaterThanOrEqual(1);
  });
});
