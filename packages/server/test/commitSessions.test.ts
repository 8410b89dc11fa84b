// The session commit: staged files moved into the sessions directory, rows — all or nothing per session.
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkRenewing } from '../src/files/linkRenewing.js';
import { sessionFilePath } from '../src/files/sessionFiles.js';
import type { SessionCommit } from '../src/store/SessionStore.js';
import { commitSessions } from '../src/store/sqlite/commitSessions.js';
import { createApiKey } from '../src/store/sqlite/apiKeys.js';
import { openDatabase, type Db } from '../src/store/sqlite/openDatabase.js';
import { findSession } from '../src/store/sqlite/sessions.js';
import { boxAsset, MODEL_FRAME, PLACEMENT_AT_ORIGIN } from './support/storedSession.js';

let root: string, db: Db, sessionsDir: string, staging: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arsession-commit-'));
  db = openDatabase(join(root, 'db.sqlite'));
  sessionsDir = join(root, 'sessions');
  staging = join(root, 'uploads');
  mkdirSync(sessionsDir);
  mkdirSync(staging);
});
afterEach(() => {
  db.close();
  rmSync(root, { recursive: true, force: true });
});

/**
 * A session with one staged file of its own and, optionally, one placed from a shared file (as
 * the conversion cache places its files: a hard link in the staging directory).
 */
function session(id: string, options: { shared?: string; accountId?: number | null } = {}): SessionCommit {
  const own = join(staging, `${id}.0.usdz`);
  writeFileSync(own, `usdz of ${id}`);
  const placed = join(staging, `${id}.1.usdz`);
  if (options.shared) linkRenewing(options.shared, placed);
  const files = [{ from: own, name: '0.usdz' }, ...(options.shared ? [{ from: placed, name: '1.usdz' }] : [])];
  return {
    record: {
      id,
      method: 'by_plane',
      createdAt: 1_000,
      expiresAt: 2_000_000_000_000,
      accountId: options.accountId ?? null,
      placement: PLACEMENT_AT_ORIGIN,
      modelFrame: MODEL_FRAME,
      assets: [boxAsset()],
      files: files.map((f) => ({
        name: f.name,
        contentType: 'model/vnd.usdz+zip',
        bytes: 1,
        sha256: '0'.repeat(64),
        downloadName: 'attachment',
      })),
    },
    saved: [],
    files,
  };
}

describe('commitSessions', () => {
  it('gives every session of a batch its files and row, with distinct twelve-digit codes', () => {
    const shared = join(root, 'cached.usdz');
    writeFileSync(shared, 'cached usdz');
    const outcomes = commitSessions(db, sessionsDir, [session('a', { shared }), session('b', { shared })]);
    const codes = outcomes.map((o) => ('code' in o ? o.code : o.error.message));
    expect(codes).toEqual([expect.stringMatching(/^\d{12}$/), expect.stringMatching(/^\d{12}$/)]);
    expect(new Set(codes).size).toBe(2);
    for (const [i, id] of ['a', 'b'].entries()) {
      expect(readFileSync(sessionFilePath(sessionsDir, id, '0.usdz'), 'utf8')).toBe(`usdz of ${id}`);
      expect(findSession(db, id)).toMatchObject({ id, onetimeCode: codes[i], files: [{ name: '0.usdz' }, { name: '1.usdz' }] });
    }
    // Moved from staging; the placed file still shares the cache's inode (never copied), which stays.
    expect(readdirSync(staging)).toEqual([]);
    expect(statSync(shared).nlink).toBe(3);
    expect(statSync(sessionFilePath(sessionsDir, 'a', '1.usdz')).ino).toBe(statSync(shared).ino);
  });

  it('rolls back a failing session alone: none of its files, no row; the others commit', () => {
    // Its first file is moved in before the second turns out to be missing.
    const broken = session('broken');
    broken.files = [...broken.files, { from: join(staging, 'never-written.png'), name: 'reference_image.png' }];
    const outcomes = commitSessions(db, sessionsDir, [session('before'), broken, session('after')]);
    expect(outcomes.map((o) => 'code' in o)).toEqual([true, false, true]);
    expect((outcomes[1] as { error: Error }).error.message).toMatch(/ENOENT/);
    expect(readdirSync(sessionsDir).sort()).toEqual(['after.0.usdz', 'before.0.usdz']);
    expect(findSession(db, 'broken')).toBeUndefined();
    expect(findSession(db, 'after')).toBeDefined();
  });

  it('never replaces or removes a file it did not place (an id already taken)', () => {
    expect('code' in commitSessions(db, sessionsDir, [session('taken')])[0]!).toBe(true);
    const [again] = commitSessions(db, sessionsDir, [session('taken')]);
    expect(again).toEqual({ error: expect.objectContaining({ code: 'EEXIST' }) });
    expect(readFileSync(sessionFilePath(sessionsDir, 'taken', '0.usdz'), 'utf8')).toBe('usdz of taken');
    expect(findSession(db, 'taken')).toBeDefined();
  });

  it('when the commit itself fails, removes every file of the batch and stores nothing', () => {
    createApiKey(db, 'someone');
    const account = (db.prepare('SELECT id FROM accounts').get() as { id: number }).id;
    // A foreign key checked at commit time: the savepoints pass, the commit does not. (SQLite
    // switches this off at every commit, so it is set after the key's own transaction.)
    db.pragma('defer_foreign_keys = ON');
    const outcomes = commitSessions(db, sessionsDir, [
      session('fine', { accountId: account }),
      session('orphan', { accountId: account + 1000 }),
    ]);
    expect(outcomes).toEqual([
      { error: expect.objectContaining({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }) },
      { error: expect.objectContaining({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }) },
    ]);
    expect(readdirSync(sessionsDir)).toEqual([]);
    expect(findSession(db, 'fine')).toBeUndefined();
  });

  it('places a file that has run out of names (EMLINK) by renewing it, keeping every session intact', () => {
    const shared = join(root, 'cached.usdz');
    writeFileSync(shared, 'cached usdz');
    // Use up the file's names as 65,000 sessions would (ext4 allows 65,000; stop at 70,000 elsewhere).
    const names = join(root, 'names');
    mkdirSync(names);
    let limit = 0;
    try {
      for (; limit < 70_000; limit++) linkSync(shared, join(names, String(limit)));
    } catch (err) {
      expect((err as NodeJS.ErrnoException).code).toBe('EMLINK');
    }
    const before = statSync(shared).ino;
    const outcomes = commitSessions(db, sessionsDir, [session('x', { shared }), session('y', { shared })]);
    expect(outcomes.map((o) => 'code' in o)).toEqual([true, true]);
    for (const id of ['x', 'y']) expect(readFileSync(sessionFilePath(sessionsDir, id, '1.usdz'), 'utf8')).toBe('cached usdz');
    if (limit < 70_000) {
      // Renewed when placed from the cache: a new inode under the same name, shared by the new
      // sessions; the old names still read.
      expect(statSync(shared).ino).not.toBe(before);
      expect(statSync(shared).nlink).toBe(3);
      expect(readFileSync(join(names, '0'), 'utf8')).toBe('cached usdz');
    }
    expect(existsSync(`${shared}.renew-${process.pid}`)).toBe(false);
  });
});
