// What `arsession convert` keeps between processes: web-ifc's source as rewritten with its schema
// code deferred, and V8's code cache of it, in $XDG_CACHE_HOME/arsession. The next process reads
// both back and converts to the same bytes; one whose kept source is gone rewrites it.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { corpusPath, REPO_ROOT } from '../../../test/support/corpus.js';

const BIN = join(REPO_ROOT, 'node_modules', '.bin', 'arsession');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** One conversion of a small IFC with its own cache home; the USDZ's SHA-256. */
function convert(home: string, out: string): string {
  const r = spawnSync(BIN, ['convert', corpusPath('ifc', 'IfcOpenHouse_IFC4.ifc'), '-o', out], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CACHE_HOME: home },
    timeout: 60_000,
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return createHash('sha256').update(readFileSync(out)).digest('hex');
}

describe("web-ifc's cache between processes", () => {
  it('keeps the rewritten source and its code cache, and the next process converts from them alike', () => {
    const home = mkdtempSync(join(tmpdir(), 'arsession-cache-'));
    dirs.push(home);
    const folder = join(home, 'arsession');
    const first = convert(home, join(home, 'a.usdz'));
    const kept = readdirSync(folder).sort();
    const source = kept.find((n) => n.endsWith('-lazy-schema-code.js'));
    expect(source).toMatch(/^web-ifc-[\d.]+-\d+-\d+-lazy-schema-code\.js$/);
    expect(kept.filter((n) => n.endsWith('.v8cache'))).toHaveLength(1);
    // The source as kept is web-ifc's with its schema code made lazy, every line where it was.
    const text = readFileSync(join(folder, source!), 'latin1');
    const original = readFileSync(createRequire(join(REPO_ROOT, 'packages', 'convert', 'package.json')).resolve('web-ifc'), 'latin1');
    expect(text.split('\n')).toHaveLength(original.split('\n').length);
    expect(text).toContain('__arsessionLazyEntry(FromRawLineData, "FromRawLineData", 2, () => ({');
    // Read back by the next process (marked as used), which writes nothing new and converts alike.
    const long = new Date('2020-01-01T00:00:00Z');
    utimesSync(join(folder, source!), long, long);
    expect(convert(home, join(home, 'b.usdz'))).toBe(first);
    expect(statSync(join(folder, source!)).mtimeMs).toBeGreaterThan(long.getTime());
    expect(readdirSync(folder).sort()).toEqual(kept);
    // Gone, it is rewritten: the same name, the same text.
    rmSync(join(folder, source!));
    expect(convert(home, join(home, 'c.usdz'))).toBe(first);
    expect(readFileSync(join(folder, source!), 'latin1')).toBe(text);
  });
});
