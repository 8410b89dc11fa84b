// The SessionStore contract, held by both engines: SQLite (embedded) and a real PostgreSQL started
// for this file. The server is written once against this interface, so what it relies on is
// checked here on each engine the same way.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteSessionStore, sessionFilePath, type SessionStore } from '@arsession/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPostgresSessionStore } from '../packages/server/src/store/postgres/openPostgresSessionStore.js';
import { openDatabase } from '../packages/server/src/store/sqlite/openDatabase.js';
import type { NewSession, SavedModelInput, SessionCommit } from '../packages/server/src/store/SessionStore.js';
import { boxAsset, MODEL_FRAME, PLACEMENT_AT_ORIGIN } from '../packages/server/test/support/storedSession.js';
import { startPostgres, type PostgresServer } from '@arsession/bench/services';

let postgres: PostgresServer;
let databases = 0;
/** The database the last PostgreSQL store of a test opened (a second node connects to the same one). */
let lastPostgresUrl = '';
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres.stop());

interface Engine {
  name: string;
  open(sessionsDir: string): Promise<SessionStore>;
}

const ENGINES: Engine[] = [
  {
    name: 'sqlite',
    open: async (dir) => openSqliteSessionStore({ databasePath: join(dir, '..', 'store.sqlite'), sessionsDir: dir, mode: 'thread' }),
  },
  {
    name: 'postgres',
    open: async (dir) =>
      openPostgresSessionStore({ url: (lastPostgresUrl = await postgres.createDatabase(`contract_${++databases}`)), sessionsDir: dir }),
  },
];

describe.each(ENGINES)('SessionStore on $name', (engine) => {
  let root: string, sessionsDir: string, store: SessionStore;
  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'arsession-store-'));
    sessionsDir = join(root, 'sessions');
    mkdirSync(sessionsDir);
    store = await engine.open(sessionsDir);
    return async () => {
      await store.close();
      rmSync(root, { recursive: true, force: true });
    };
  });

  /** A session with one staged file, expiring `ttlMs` from now. */
  const sessionOf = (id: string, options: { ttlMs?: number; accountId?: number | null; createdAt?: number } = {}): SessionCommit => {
    const staged = join(root, `${id}.staged`);
    writeFileSync(staged, `usdz of ${id}`);
    const createdAt = options.createdAt ?? Date.now();
    const record: NewSession = {
      id,
      method: 'by_plane',
      createdAt,
      expiresAt: createdAt + (options.ttlMs ?? 60_000),
      accountId: options.accountId ?? null,
      placement: PLACEMENT_AT_ORIGIN,
      modelFrame: MODEL_FRAME,
      assets: [boxAsset(0), boxAsset(1)],
      files: [{ name: '0.usdz', contentType: 'model/vnd.usdz+zip', bytes: 1, sha256: '0'.repeat(64), downloadName: 'attachment' }],
    };
    return { record, saved: [], files: [{ from: staged, name: '0.usdz' }] };
  };

  it('commits a session: its file placed, its record read back as written, its code 6 digits', async () => {
    const commit = sessionOf('aaaaaaaaaaaaaaaaaaaaa1');
    const code = await store.commit(commit);
    expect(code).toMatch(/^\d{12}$/);
    expect(readFileSync(sessionFilePath(sessionsDir, 'aaaaaaaaaaaaaaaaaaaaa1', '0.usdz'), 'utf8')).toBe('usdz of aaaaaaaaaaaaaaaaaaaaa1');
    expect(existsSync(commit.files[0]!.from)).toBe(false);
    const found = await store.find('aaaaaaaaaaaaaaaaaaaaa1');
    expect(found).toEqual({ ...commit.record, onetimeCode: code, codeClaimed: false, filesDeleted: false });
    expect(await store.find('nope')).toBeUndefined();
  });

  it('a session that cannot be stored leaves nothing: no row, no file', async () => {
    const first = sessionOf('bbbbbbbbbbbbbbbbbbbbb1');
    await store.commit(first);
    // The same id again: its file name is taken, so it fails before any row is written.
    const again = sessionOf('bbbbbbbbbbbbbbbbbbbbb1');
    await expect(store.commit(again)).rejects.toThrow();
    expect(readFileSync(sessionFilePath(sessionsDir, 'bbbbbbbbbbbbbbbbbbbbb1', '0.usdz'), 'utf8')).toBe('usdz of bbbbbbbbbbbbbbbbbbbbb1');
    // A missing staged file fails it too, and places nothing.
    const missing = sessionOf('bbbbbbbbbbbbbbbbbbbbb2');
    rmSync(missing.files[0]!.from);
    await expect(store.commit(missing)).rejects.toThrow(/ENOENT/);
    expect(await store.find('bbbbbbbbbbbbbbbbbbbbb2')).toBeUndefined();
  });

  it('live sessions never share a code; a code is claimed once, even by claims at the same time', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `cccccccccccccccccccc${String(i).padStart(2, '0')}`);
    const codes = await Promise.all(ids.map((id) => store.commit(sessionOf(id))));
    expect(new Set(codes).size).toBe(codes.length);
    const claims = await Promise.all(Array.from({ length: 8 }, () => store.claim(codes[0]!)));
    expect(claims.filter((c) => c.ok)).toEqual([{ ok: true, session: { id: ids[0], expiresAt: expect.any(Number) } }]);
    expect((await store.find(ids[0]!))?.codeClaimed).toBe(true);
    expect(await store.claim('000000')).toEqual(codes.includes('000000') ? expect.anything() : { ok: false });
  });

  it('the client that claimed a code gets its session again within the retry window; nobody else, and not after', async () => {
    const now = Date.now();
    const code = await store.commit(sessionOf('rrrrrrrrrrrrrrrrrrrrr1'));
    const me = { key: 'client-a', retrySince: now - 60_000 };
    // Two of my claims at once (the first timed out on my side): both answer the session, one of them as a retry.
    const both = await Promise.all([store.claim(code, now, -1, me), store.claim(code, now, -1, me)]);
    const session = { id: 'rrrrrrrrrrrrrrrrrrrrr1', expiresAt: expect.any(Number) };
    expect(both.map((c) => c.ok && c.session)).toEqual([session, session]);
    expect(both.filter((c) => c.ok && c.retried)).toHaveLength(1);
    expect(await store.claim(code, now + 1000, -1, { key: 'client-b', retrySince: now - 60_000 })).toEqual({ ok: false });
    expect(await store.claim(code, now + 1000)).toEqual({ ok: false });
    // Past the window (my claim made before retrySince), it is used like any other.
    expect(await store.claim(code, now + 1000, -1, { key: 'client-a', retrySince: now + 1 })).toEqual({ ok: false });
  });

  it("an expired session's code does not claim; the sweep finds it, marks it and later forgets it", async () => {
    const now = Date.now();
    const code = await store.commit(sessionOf('ddddddddddddddddddddd1', { createdAt: now - 10_000, ttlMs: 5_000 }));
    await store.commit(sessionOf('ddddddddddddddddddddd2'));
    expect(await store.claim(code, now)).toEqual({ ok: false });
    expect(await store.expiredWithFiles(now)).toEqual([{ id: 'ddddddddddddddddddddd1', files: ['0.usdz'] }]);
    await store.markFilesDeleted('ddddddddddddddddddddd1');
    expect(await store.expiredWithFiles(now)).toEqual([]);
    expect((await store.find('ddddddddddddddddddddd1'))?.filesDeleted).toBe(true);
    expect(await store.forgetOldSessions(60_000, now)).toBe(0);
    expect(await store.forgetOldSessions(1_000, now)).toBe(1);
    expect(await store.existingSessions(['ddddddddddddddddddddd1', 'ddddddddddddddddddddd2', 'zz'])).toEqual(
      new Set(['ddddddddddddddddddddd2']),
    );
  });

  it('keys: issued once, checked, listed without secrets, revoked for the very next check', async () => {
    const key = await store.createApiKey('  acme ');
    expect(key).toMatch(/^ars_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const account = await store.authenticate(key);
    expect(account).toEqual({ id: expect.any(Number), name: 'acme' });
    expect(await store.authenticate(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
    expect(await store.authenticate('')).toBeUndefined();
    const [listed] = await store.listApiKeys();
    expect(listed).toEqual({ id: key.slice(4, 20), account: 'acme', createdAt: expect.any(String), revokedAt: null });
    expect(JSON.stringify(await store.listApiKeys())).not.toContain(key.slice(21));
    expect(await store.revokeApiKey(listed!.id)).toBe(true);
    expect(await store.authenticate(key)).toBeUndefined();
    expect(await store.revokeApiKey(key)).toBe(false);
    await expect(store.createApiKey('no/slashes')).rejects.toBeInstanceOf(RangeError);
  });

  it('saved models: listed per account, newest first, a page at a time; their files known to the clean-up', async () => {
    const key = await store.createApiKey('studio');
    const account = (await store.authenticate(key))!;
    const commit = sessionOf('eeeeeeeeeeeeeeeeeeeee1', { accountId: account.id });
    const saved: SavedModelInput[] = [
      { id: 'm1', sourceName: 'a.ifc', format: 'ifc', bytes: 10, sha256: '1'.repeat(64), storedAs: 'eeeeeeeeeeeeeeeeeeeee1-a.ifc' },
      { id: 'm2', sourceName: 'b.glb', format: 'glb', bytes: 20, sha256: '2'.repeat(64), storedAs: 'eeeeeeeeeeeeeeeeeeeee1-b.glb' },
      { id: 'm3', sourceName: 'c.glb', format: 'glb', bytes: 30, sha256: '3'.repeat(64), storedAs: 'eeeeeeeeeeeeeeeeeeeee1-c.glb' },
    ];
    await store.commit({ ...commit, saved });
    const all = await store.savedModels(account.id, { limit: 10 });
    expect(all.models.map((m) => [m.id, m.sessionId, m.sourceName, m.format, m.bytes])).toEqual([
      ['m1', 'eeeeeeeeeeeeeeeeeeeee1', 'a.ifc', 'ifc', 10],
      ['m2', 'eeeeeeeeeeeeeeeeeeeee1', 'b.glb', 'glb', 20],
      ['m3', 'eeeeeeeeeeeeeeeeeeeee1', 'c.glb', 'glb', 30],
    ]);
    expect(all.next).toBeUndefined();
    const first = await store.savedModels(account.id, { limit: 2 });
    expect(first.models.map((m) => m.id)).toEqual(['m1', 'm2']);
    const second = await store.savedModels(account.id, { limit: 2, after: first.next! });
    expect(second).toEqual({ models: [all.models[2]], next: undefined });
    expect(await store.savedModels(account.id + 1000, { limit: 10 })).toEqual({ models: [], next: undefined });
    expect(await store.savedModelFiles()).toEqual(new Set(saved.map((m) => m.storedAs)));
    expect(await store.savedModelUsage(account.id, ['2'.repeat(64), '9'.repeat(64)])).toEqual({
      count: 3,
      bytes: 60,
      present: new Set(['2'.repeat(64)]),
    });
    expect(await store.savedModelUsage(account.id + 1000, [])).toEqual({ count: 0, bytes: 0, present: new Set() });
  });

  it('a saved model is kept once per content and account; deleted by its account only', async () => {
    const account = (await store.authenticate(await store.createApiKey('studio')))!;
    const other = (await store.authenticate(await store.createApiKey('other')))!;
    const model = (id: string, sha: string): SavedModelInput => ({
      id,
      sourceName: `${id}.glb`,
      format: 'glb',
      bytes: 5,
      sha256: sha.repeat(64),
      storedAs: `${id}.glb`,
    });
    await store.commit({ ...sessionOf('fffffffffffffffffffff1', { accountId: account.id }), saved: [model('x1', 'a')] });
    // The same content again (a race the request's own check did not see) is not listed twice.
    await store.commit({ ...sessionOf('fffffffffffffffffffff2', { accountId: account.id }), saved: [model('x2', 'a'), model('x3', 'b')] });
    await store.commit({ ...sessionOf('fffffffffffffffffffff3', { accountId: other.id }), saved: [model('y1', 'a')] });
    expect((await store.savedModels(account.id, { limit: 10 })).models.map((m) => m.id).sort()).toEqual(['x1', 'x3']);
    expect((await store.savedModels(other.id, { limit: 10 })).models.map((m) => m.id)).toEqual(['y1']);
    expect(await store.deleteSavedModel(other.id, 'x1')).toBeUndefined();
    expect(await store.deleteSavedModel(account.id, 'x1')).toBe('x1.glb');
    expect(await store.deleteSavedModel(account.id, 'x1')).toBeUndefined();
    expect((await store.savedModels(account.id, { limit: 10 })).models.map((m) => m.id)).toEqual(['x3']);
    expect(await store.savedModelFiles()).toEqual(new Set(['x3.glb', 'y1.glb']));
  });

  it("a session ends early by its own account only: then it is expired, its code dead, its files the caller's to delete", async () => {
    const account = (await store.authenticate(await store.createApiKey('studio')))!;
    const other = (await store.authenticate(await store.createApiKey('other')))!;
    const commit = sessionOf('ggggggggggggggggggggg1', { accountId: account.id });
    const code = await store.commit(commit);
    await store.commit(sessionOf('ggggggggggggggggggggg2'));
    expect(await store.endSession('ggggggggggggggggggggg2', account.id)).toEqual({ ended: false, reason: 'not_yours' });
    expect(await store.endSession('ggggggggggggggggggggg1', other.id)).toEqual({ ended: false, reason: 'not_yours' });
    expect(await store.endSession('ggggggggggggggggggggg9', account.id)).toEqual({ ended: false, reason: 'unknown' });
    const now = Date.now();
    expect(await store.endSession('ggggggggggggggggggggg1', account.id, now)).toEqual({ ended: true, files: ['0.usdz'] });
    expect((await store.find('ggggggggggggggggggggg1'))!.expiresAt).toBe(now);
    expect(await store.claim(code, now + 1)).toEqual({ ok: false });
    expect(await store.endSession('ggggggggggggggggggggg1', account.id, now + 1)).toEqual({ ended: false, reason: 'expired' });
  });

  it('one sweep leader at a time: a second node skips the round while the first sweeps', async () => {
    const other = engine.name === 'postgres' ? await openPostgresSessionStore({ url: lastPostgresUrl, sessionsDir }) : store;
    let release!: () => void;
    const first = store.leadSweep(() => new Promise<string>((r) => (release = () => r('swept'))));
    await new Promise((r) => setTimeout(r, 100));
    const second = await other.leadSweep(async () => 'also swept');
    release();
    expect(await first).toBe('swept');
    // SQLite has one process by construction: it always leads. PostgreSQL elects one node.
    expect(second).toBe(engine.name === 'postgres' ? undefined : 'also swept');
    expect(await other.leadSweep(async () => 'next round')).toBe('next round');
    if (other !== store) await other.close();
  });

  it('answers ping while it is up', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });
});

describe('PostgreSQL restarted under a running store', () => {
  it('503 store_unavailable with Retry-After while it is down; normal service after, with no reopening', async () => {
    const url = await postgres.createDatabase('outage');
    const dir = mkdtempSync(join(tmpdir(), 'arsession-store-'));
    const store = await openPostgresSessionStore({ url, sessionsDir: dir });
    try {
      const key = await store.createApiKey('outage');
      postgres.stopNow();
      const down = await store.authenticate(key).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(down).toMatchObject({ status: 503, code: 'store_unavailable', headers: { 'Retry-After': expect.stringMatching(/^\d+$/) } });
      await expect(store.ping()).rejects.toMatchObject({ status: 503 });
      postgres.start();
      expect(await store.authenticate(key)).toEqual({ id: expect.any(Number), name: 'outage' });
    } finally {
      postgres.start();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('two stores on one database see one another at once (two API nodes)', async () => {
    const url = await postgres.createDatabase('two_nodes');
    const dir = mkdtempSync(join(tmpdir(), 'arsession-store-'));
    const [a, b] = [await openPostgresSessionStore({ url, sessionsDir: dir }), await openPostgresSessionStore({ url, sessionsDir: dir })];
    try {
      const key = await a.createApiKey('shared');
      expect(await b.authenticate(key)).toEqual({ id: expect.any(Number), name: 'shared' });
      await b.revokeApiKey(key);
      expect(await a.authenticate(key)).toBeUndefined();
    } finally {
      await Promise.all([a.close(), b.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite data directories from before saved models were kept once per content', () => {
  it('are brought up to date: copies saved before are dropped, the first kept, the rest untouched', () => {
    const dir = mkdtempSync(join(tmpdir(), 'arsession-migrate-'));
    try {
      const path = join(dir, 'arsession.sqlite');
      const db = openDatabase(path);
      const version = db.pragma('user_version', { simple: true }) as number;
      // The database as the version before left it: no unique index, the same file saved twice,
      // and nothing of what came after (who claimed a code).
      db.exec('DROP INDEX saved_models_content');
      db.exec('ALTER TABLE sessions DROP COLUMN claimed_at; ALTER TABLE sessions DROP COLUMN claimed_by;');
      db.prepare('INSERT INTO accounts (id, name, created_at) VALUES (1, ?, 0), (2, ?, 0)').run('a', 'b');
      const insert = db.prepare(
        'INSERT INTO saved_models (id, account_id, session_id, source_name, format, bytes, ' +
          "sha256, stored_as, created_at) VALUES (?, ?, 's', 'm.glb', 'glb', 1, ?, ?, ?)",
      );
      for (const [id, account, sha, at] of [
        ['first', 1, 'x', 1],
        ['copy', 1, 'x', 2],
        ['own', 1, 'y', 3],
        ['theirs', 2, 'x', 4],
      ] as const)
        insert.run(id, account, sha, `${id}.glb`, at);
      db.pragma(`user_version = ${version - 2}`);
      db.close();
      const reopened = openDatabase(path);
      expect((reopened.prepare('SELECT id FROM saved_models ORDER BY id').all() as Array<{ id: string }>).map((r) => r.id)).toEqual([
        'first',
        'own',
        'theirs',
      ]);
      expect(() =>
        reopened
          .prepare(
            'INSERT INTO saved_models (id, account_id, session_id, source_name, format, bytes, sha256, ' +
              "stored_as, created_at) VALUES ('again', 1, 's', 'm', 'glb', 1, 'x', 'again.glb', 5)",
          )
          .run(),
      ).toThrow(/UNIQUE/);
      reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
