// The checkpointer thread copies the write-ahead log into the database file, so that connections
// opened with `checkpoints: 'external'` never have to.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/store/sqlite/openDatabase.js';
import { startWalCheckpointer } from '../src/store/sqlite/walCheckpointer.js';

let root: string, path: string, db: Db;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arsession-wal-'));
  path = join(root, 'db.sqlite');
  db = openDatabase(path, { checkpoints: 'external' });
  db.exec('CREATE TABLE filler (body TEXT)');
});
afterEach(() => {
  db.close();
  rmSync(root, { recursive: true, force: true });
});

/** Commits ~4 MB in 2000 transactions, as a busy store thread would. */
function fill(): void {
  const insert = db.prepare('INSERT INTO filler VALUES (?)');
  for (let i = 0; i < 2000; i++) insert.run('x'.repeat(2000));
}
const sizes = () => ({ database: statSync(path).size, wal: statSync(`${path}-wal`).size });
const waitMs = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('startWalCheckpointer', () => {
  it('an external connection alone leaves everything in the log', async () => {
    const before = sizes().database;
    fill();
    await waitMs(300);
    expect(sizes().database).toBe(before);
    expect(sizes().wal).toBeGreaterThan(4_000_000);
  });

  it('copies the log into the database file from its own thread', async () => {
    const checkpointer = startWalCheckpointer({ databasePath: path, intervalMs: 50 });
    try {
      const before = sizes().database;
      fill();
      // The thread starts, opens its connection, and checkpoints within a few intervals.
      for (let i = 0; i < 100 && sizes().database < before + 4_000_000; i++) await waitMs(50);
      expect(sizes().database).toBeGreaterThan(before + 4_000_000);
      expect(db.prepare('SELECT count(*) AS n FROM filler').get()).toEqual({ n: 2000 });
    } finally {
      await checkpointer.close();
    }
  });

  it('close stops it, also before its first checkpoint', async () => {
    const checkpointer = startWalCheckpointer({ databasePath: path });
    await checkpointer.close();
    await checkpointer.close();
    fill();
    const before = sizes().database;
    await waitMs(300);
    expect(sizes().database).toBe(before);
  });
});
