// The store thread: key checks and session commits answered from its own thread and connection.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionFilePath } from '../src/files/sessionFiles.js';
import { createApiKey } from '../src/store/sqlite/apiKeys.js';
import { openDatabase, type Db } from '../src/store/sqlite/openDatabase.js';
import { findSession } from '../src/store/sqlite/sessions.js';
import { createStoreThread, type StoreThread } from '../src/store/sqlite/storeThread.js';
import { MODEL_FRAME, PLACEMENT_AT_ORIGIN } from './support/storedSession.js';
import type { SessionCommit } from '../src/store/SessionStore.js';

let root: string, db: Db, store: StoreThread;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arsession-store-'));
  mkdirSync(join(root, 'sessions'));
  db = openDatabase(join(root, 'db.sqlite'));
  store = createStoreThread({ databasePath: join(root, 'db.sqlite'), sessionsDir: join(root, 'sessions') });
});
afterEach(async () => {
  await store.close();
  db.close();
  rmSync(root, { recursive: true, force: true });
});

function commitOf(id: string): SessionCommit {
  const staged = join(root, `${id}.usdz`);
  writeFileSync(staged, id);
  return {
    record: {
      id,
      method: 'by_plane',
      createdAt: Date.now(),
      expiresAt: Date.now() + 60_000,
      accountId: null,
      placement: PLACEMENT_AT_ORIGIN,
      modelFrame: MODEL_FRAME,
      assets: [],
      files: [{ name: '0.usdz', contentType: 'model/vnd.usdz+zip', bytes: id.length, sha256: '0'.repeat(64), downloadName: 'attachment' }],
    },
    saved: [],
    files: [{ from: staged, name: '0.usdz' }],
  };
}

describe('createStoreThread', () => {
  it('checks keys: the account of a valid key, nothing for a wrong or revoked one', async () => {
    const key = createApiKey(db, 'acme');
    const answers = await Promise.all([store.authenticate(key), store.authenticate(`${key.slice(0, -1)}x`), store.authenticate('')]);
    expect(answers).toEqual([{ id: expect.any(Number), name: 'acme' }, undefined, undefined]);
    db.prepare('UPDATE api_keys SET revoked_at = 1').run();
    // Revoked through another connection (the operator's command): refused on the next request.
    expect(await store.authenticate(key)).toBeUndefined();
  });

  it('commits sessions sent together, each readable from another connection once answered', async () => {
    const codes = await Promise.all(['s1', 's2', 's3'].map((id) => store.commit(commitOf(id))));
    expect(codes).toEqual([expect.stringMatching(/^\d{12}$/), expect.stringMatching(/^\d{12}$/), expect.stringMatching(/^\d{12}$/)]);
    for (const [i, id] of ['s1', 's2', 's3'].entries()) {
      expect(findSession(db, id)?.onetimeCode).toBe(codes[i]);
      expect(readFileSync(sessionFilePath(join(root, 'sessions'), id, '0.usdz'), 'utf8')).toBe(id);
    }
  });

  it('rejects a session that cannot be stored, with the reason, and goes on with the next', async () => {
    const broken = commitOf('broken');
    rmSync(broken.files[0]!.from);
    await expect(store.commit(broken)).rejects.toThrow(/ENOENT/);
    expect(readdirSync(join(root, 'sessions'))).toEqual([]);
    await expect(store.commit(commitOf('next'))).resolves.toMatch(/^\d{12}$/);
  });

  it('close answers what was sent first, then refuses', async () => {
    const pending = store.commit(commitOf('last'));
    await store.close();
    await expect(pending).resolves.toMatch(/^\d{12}$/);
    expect(findSession(db, 'last')).toBeDefined();
    await expect(store.commit(commitOf('late'))).rejects.toThrow(/closed/);
  });
});

describe('a store thread that fails', () => {
  it('fails the requests in flight, and the next request starts a new thread', async () => {
    const faulty = createStoreThread({
      databasePath: join(root, 'db.sqlite'),
      sessionsDir: join(root, 'sessions'),
      workerScript: new URL('../../../test/support/faultyStoreThread.mjs', import.meta.url),
    });
    try {
      const key = createApiKey(db, 'acme');
      expect(await faulty.authenticate(key)).toEqual({ id: expect.any(Number), name: 'acme' });
      // Sent in the same turn: one batch, lost with the thread.
      const [crashed, alongside] = await Promise.allSettled([faulty.authenticate('fault-crash'), faulty.commit(commitOf('alongside'))]);
      expect(crashed).toMatchObject({ status: 'rejected', reason: { message: 'injected fault: the store thread crashed' } });
      expect(alongside).toMatchObject({ status: 'rejected' });
      expect(findSession(db, 'alongside')).toBeUndefined();
      expect(await faulty.authenticate(key)).toEqual({ id: expect.any(Number), name: 'acme' });
      await expect(faulty.commit(commitOf('after'))).resolves.toMatch(/^\d{12}$/);
    } finally {
      await faulty.close();
    }
  });
});
