// The conversion cache: its index contract on both engines (this process's memory; a real
// PostgreSQL started for this file, migrated by the session store), and the cache over the data
// directory: a hit places the files, eviction never takes a placed file, a hit whose files went is a
// miss, files no entry owns are removed, and another converter version is never reused.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataPaths, sessionFilePath } from '@arsession/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CachedConversion } from '../packages/server/src/cache/CachedConversion.js';
import type { CacheIndex } from '../packages/server/src/cache/CacheIndex.js';
import { openConversionCache } from '../packages/server/src/cache/ConversionCache.js';
import { memoryCacheIndex } from '../packages/server/src/cache/memory/memoryCacheIndex.js';
import { postgresCacheIndex } from '../packages/server/src/cache/postgres/postgresCacheIndex.js';
import { openFilesObjectStore } from '../packages/server/src/objects/files/openFilesObjectStore.js';
import { openPostgresSessionStore } from '../packages/server/src/store/postgres/openPostgresSessionStore.js';
import { startPostgres, type PostgresServer } from '@arsession/bench/services';

let postgres: PostgresServer;
let databases = 0;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres.stop());

const entry = (usdz: number, glb = 0) =>
  ({
    usdzFileBytes: usdz,
    usdzFileSha256: 'a'.repeat(64),
    glbFileBytes: glb,
    glbFileSha256: 'b'.repeat(64),
    format: 'glb',
  }) as CachedConversion;

const INDEXES: Array<{ name: string; open(): Promise<CacheIndex> }> = [
  { name: 'memory', open: async () => memoryCacheIndex() },
  {
    name: 'postgres',
    async open() {
      const url = await postgres.createDatabase(`cache_${++databases}`);
      // The session store's migrations make the table, as on a server's start.
      await (await openPostgresSessionStore({ url, sessionsDir: tmpdir() })).close();
      return postgresCacheIndex({ url });
    },
  },
];

describe.each(INDEXES)('CacheIndex on $name', (engine) => {
  let index: CacheIndex;
  beforeEach(async () => {
    index = await engine.open();
    return () => index.close();
  });

  it('records once per key, and looks up what it recorded', async () => {
    expect(await index.record('a', entry(10), 10)).toBe(true);
    expect(await index.record('a', entry(99), 99)).toBe(false);
    expect(await index.lookup('a')).toEqual(entry(10));
    expect(await index.lookup('nothing')).toBeUndefined();
    expect(await index.keys()).toEqual(new Set(['a']));
  });

  it('evicts the least recently used beyond the entry limit, a lookup counting as a use', async () => {
    for (const key of ['a', 'b', 'c']) {
      await index.record(key, entry(10), 10);
      await new Promise((r) => setTimeout(r, 3)); // distinct use times, as in life
    }
    await index.lookup('a');
    expect((await index.evict({ maxEntries: 2, maxBytes: 1e9 })).sort()).toEqual(['b']);
    expect(await index.keys()).toEqual(new Set(['a', 'c']));
    expect(await index.evict({ maxEntries: 2, maxBytes: 1e9 })).toEqual([]);
  });

  it('evicts beyond the byte limit, oldest first, counting every file of an entry', async () => {
    await index.record('old', entry(6, 4), 10);
    await new Promise((r) => setTimeout(r, 3));
    await index.record('new', entry(6, 4), 10);
    expect(await index.evict({ maxEntries: 10, maxBytes: 15 })).toEqual(['old']);
    expect(await index.evict({ maxEntries: 10, maxBytes: 5 })).toEqual(['new']);
    expect(await index.keys()).toEqual(new Set());
  });

  it('forgets an entry on request', async () => {
    await index.record('a', entry(1), 1);
    await index.forget('a');
    expect(await index.lookup('a')).toBeUndefined();
  });
});

describe('two nodes on one PostgreSQL index', () => {
  it('what one records the other reuses, and concurrent evictions remove each row once', async () => {
    const url = await postgres.createDatabase(`cache_${++databases}`);
    await (await openPostgresSessionStore({ url, sessionsDir: tmpdir() })).close();
    const [one, two] = [postgresCacheIndex({ url }), postgresCacheIndex({ url })];
    try {
      for (let i = 0; i < 20; i++) await one.record(`k${i}`, entry(1), 1);
      expect(await two.lookup('k3')).toEqual(entry(1));
      const [a, b] = await Promise.all([one.evict({ maxEntries: 5, maxBytes: 1e9 }), two.evict({ maxEntries: 5, maxBytes: 1e9 })]);
      expect([...a, ...b].sort()).toEqual([...new Set([...a, ...b])].sort());
      expect(a.length + b.length).toBe(15);
      expect(await one.keys()).toContain('k3');
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});

describe('ConversionCache over the data directory', () => {
  let root: string;
  let paths: ReturnType<typeof dataPaths>;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'arsession-cache-'));
    paths = dataPaths(root);
    return () => rmSync(root, { recursive: true, force: true });
  });

  /** A committed session's two files, as the conversion wrote them. */
  const session = (id: string, content: string) => {
    writeFileSync(sessionFilePath(paths.sessions, id, '0.usdz'), `usdz ${content}`);
    writeFileSync(sessionFilePath(paths.sessions, id, '0.glb'), `glb ${content}`);
  };
  const NAMES = { 'model.usdz': '0.usdz', 'model.glb': '0.glb' };
  const into = (tag: string) => ({ 'model.usdz': join(paths.uploads, `${tag}.usdz`), 'model.glb': join(paths.uploads, `${tag}.glb`) });

  it("keeps a session's files and places them for the next session with the same model: the same inodes", async () => {
    const cache = openConversionCache({ index: memoryCacheIndex(), objects: openFilesObjectStore(paths), maxEntries: 10, maxBytes: 1e9 });
    session('s1', 'one');
    await cache.keep('sha-one', 's1', NAMES, entry(8, 7));
    const placed = into('hit');
    expect(await cache.reuse('sha-one', placed)).toEqual(entry(8, 7));
    expect(readFileSync(placed['model.usdz'], 'utf8')).toBe('usdz one');
    expect(readFileSync(placed['model.glb'], 'utf8')).toBe('glb one');
    expect(statSync(placed['model.usdz']).ino).toBe(statSync(sessionFilePath(paths.sessions, 's1', '0.usdz')).ino);
    expect(await cache.reuse('sha-other', into('miss'))).toBeUndefined();
    expect(existsSync(into('miss')['model.usdz'])).toBe(false);
  });

  it('eviction never takes a file already placed for a session', async () => {
    const cache = openConversionCache({ index: memoryCacheIndex(), objects: openFilesObjectStore(paths), maxEntries: 1, maxBytes: 1e9 });
    session('s1', 'one');
    session('s2', 'two');
    await cache.keep('sha-one', 's1', NAMES, entry(8));
    const placed = into('placed');
    await cache.reuse('sha-one', placed);
    await cache.keep('sha-two', 's2', NAMES, entry(8)); // evicts sha-one
    expect(await cache.reuse('sha-one', into('late'))).toBeUndefined();
    expect(readFileSync(placed['model.usdz'], 'utf8')).toBe('usdz one');
    expect(await cache.reuse('sha-two', into('two'))).toEqual(entry(8));
  });

  it('a hit whose files went is a miss, and is forgotten', async () => {
    const index = memoryCacheIndex();
    const cache = openConversionCache({ index, objects: openFilesObjectStore(paths), maxEntries: 10, maxBytes: 1e9 });
    session('s1', 'one');
    await cache.keep('sha-one', 's1', NAMES, entry(8));
    const [key] = await index.keys();
    rmSync(join(paths.cache, key!, 'model.glb'));
    expect(await cache.reuse('sha-one', into('gone'))).toBeUndefined();
    expect(await index.keys()).toEqual(new Set());
  });

  it("removes files no entry owns once older than the grace; an entry's files stay", async () => {
    const cache = openConversionCache({ index: memoryCacheIndex(), objects: openFilesObjectStore(paths), maxEntries: 10, maxBytes: 1e9 });
    session('s1', 'one');
    await cache.keep('sha-one', 's1', NAMES, entry(8));
    const stray = join(paths.cache, 'stray.0.1.0+1');
    (await import('node:fs')).mkdirSync(stray);
    writeFileSync(join(stray, 'model.usdz'), 'left by a crash');
    expect(await cache.removeOrphans(60_000)).toBe(0); // too young
    expect(await cache.removeOrphans(0, Date.now() + 1000)).toBe(1);
    expect(existsSync(stray)).toBe(false);
    expect(await cache.reuse('sha-one', into('kept'))).toEqual(entry(8));
  });

  it('never reuses what another converter version made', async () => {
    const index = memoryCacheIndex();
    const old = openConversionCache({
      index,
      objects: openFilesObjectStore(paths),
      maxEntries: 10,
      maxBytes: 1e9,
      converterVersion: '0.0.9+7',
    });
    session('s1', 'one');
    await old.keep('sha-one', 's1', NAMES, entry(8));
    const current = openConversionCache({ index, objects: openFilesObjectStore(paths), maxEntries: 10, maxBytes: 1e9 });
    expect(await current.reuse('sha-one', into('new'))).toBeUndefined();
    expect(await old.reuse('sha-one', into('old'))).toEqual(entry(8));
  });

  it('keeps nothing with no room: 0 entries, or an entry larger than the byte limit', async () => {
    session('s1', 'one');
    const off = openConversionCache({ index: memoryCacheIndex(), objects: openFilesObjectStore(paths), maxEntries: 0, maxBytes: 1e9 });
    await off.keep('sha-one', 's1', NAMES, entry(8));
    const small = openConversionCache({ index: memoryCacheIndex(), objects: openFilesObjectStore(paths), maxEntries: 10, maxBytes: 10 });
    await small.keep('sha-one', 's1', NAMES, entry(8, 8));
    expect((await import('node:fs')).readdirSync(paths.cache)).toEqual([]);
  });
});
