// web-ifc's code caches: read and marked as used, written whole, and kept few and recent.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeCacheFolder } from '../src/ifc/CodeCacheFolder.js';

const DAY = 86_400_000;
const NOW = new Date('2026-11-29T12:00:00Z');
const folders: string[] = [];

function newFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'arsession-code-cache-'));
  folders.push(dir);
  return dir;
}

/** A file in `dir` last used `daysAgo` days before NOW. */
function placed(dir: string, name: string, daysAgo: number): void {
  writeFileSync(join(dir, name), 'cache');
  const at = new Date(NOW.getTime() - daysAgo * DAY);
  utimesSync(join(dir, name), at, at);
}

afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('CodeCacheFolder', () => {
  it('reads back what it wrote, and nothing before', () => {
    const dir = join(newFolder(), 'nested', 'arsession');
    const folder = new CodeCacheFolder({ dir });
    expect(folder.read('web-ifc-a.v8cache')).toBeUndefined();
    folder.write('web-ifc-a.v8cache', Buffer.from([1, 2, 3]), NOW);
    expect([...(folder.read('web-ifc-a.v8cache') ?? [])]).toEqual([1, 2, 3]);
    expect(readdirSync(dir)).toEqual(['web-ifc-a.v8cache']);
  });

  it('marks a cache it reads as just used', () => {
    const dir = newFolder();
    placed(dir, 'web-ifc-a.v8cache', 100);
    const before = Date.now();
    new CodeCacheFolder({ dir }).read('web-ifc-a.v8cache');
    expect(statSync(join(dir, 'web-ifc-a.v8cache')).mtimeMs).toBeGreaterThanOrEqual(before - 1000);
  });

  it('removes caches unused for a month when it writes one, and leaves other files', () => {
    const dir = newFolder();
    placed(dir, 'web-ifc-old.v8cache', 31);
    placed(dir, 'web-ifc-recent.v8cache', 29);
    placed(dir, 'notes.txt', 400);
    placed(dir, 'web-ifc-new.v8cache', 400);
    new CodeCacheFolder({ dir }).write('web-ifc-new.v8cache', Buffer.from('x'), NOW);
    expect(readdirSync(dir).sort()).toEqual(['notes.txt', 'web-ifc-new.v8cache', 'web-ifc-recent.v8cache']);
  });

  it('keeps the written cache and the most recently used beside it, up to maxFiles', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 12 }), fc.integer({ min: 1, max: 6 }), (ages, maxFiles) => {
        const dir = newFolder();
        ages.forEach((age, i) => placed(dir, `web-ifc-${i}.v8cache`, age));
        new CodeCacheFolder({ dir, maxFiles, maxUnusedDays: 30.5 }).write('web-ifc-new.v8cache', Buffer.from('x'), NOW);
        const expected = ages
          .map((age, i) => ({ age, name: `web-ifc-${i}.v8cache` }))
          .filter(({ age }) => age <= 30)
          .sort((a, b) => a.age - b.age)
          .slice(0, maxFiles - 1)
          .map(({ name }) => name);
        expect(readdirSync(dir).sort()).toEqual([...expected, 'web-ifc-new.v8cache'].sort());
      }),
      { numRuns: 40 },
    );
  });

  it('a folder it cannot write is no error, and leaves nothing behind', () => {
    const parent = newFolder();
    writeFileSync(join(parent, 'file'), 'not a folder');
    const folder = new CodeCacheFolder({ dir: join(parent, 'file', 'arsession') });
    expect(() => folder.write('web-ifc-a.v8cache', Buffer.from('x'), NOW)).not.toThrow();
    expect(folder.read('web-ifc-a.v8cache')).toBeUndefined();
    expect(readdirSync(parent)).toEqual(['file']);
  });

  it('takes its folder from XDG_CACHE_HOME when set', () => {
    const home = newFolder();
    const saved = process.env.XDG_CACHE_HOME;
    process.env.XDG_CACHE_HOME = home;
    try {
      new CodeCacheFolder().write('web-ifc-a.v8cache', Buffer.from('x'), NOW);
    } finally {
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
    }
    expect(existsSync(join(home, 'arsession', 'web-ifc-a.v8cache'))).toBe(true);
  });
});
