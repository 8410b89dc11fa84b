// `arsession convert IN... -o DIR`: folders, globs and files converted in one process by the real
// binary; the progress bar drawn through a terminal-like stream.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, REPO_ROOT } from '../../../test/support/corpus.js';
import { BatchProgress, formatDuration } from '../src/batch/BatchProgress.js';
import { findModels } from '../src/batch/findModels.js';
import { outputPaths } from '../src/batch/outputPaths.js';

const BIN = join(REPO_ROOT, 'node_modules', '.bin', 'arsession');
function arsession(cwd: string, ...args: string[]) {
  const r = spawnSync(BIN, args, { encoding: 'utf8', cwd, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under a folder, as paths relative to it. */
function filesUnder(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(folder, path));
    }
  };
  walk(folder);
  return out.sort();
}

let dir: string;
beforeAll(() => {
  // A researcher's folder: models at two depths, one broken file, and a file that is not a model.
  dir = mkdtempSync(join(tmpdir(), 'arsession-batch-'));
  mkdirSync(join(dir, 'models', 'site', 'north'), { recursive: true });
  copyFileSync(corpusPath('glb', 'Box.glb'), join(dir, 'models', 'Box.glb'));
  copyFileSync(corpusPath('ifc', 'IfcOpenHouse_IFC4.ifc'), join(dir, 'models', 'site', 'house.ifc'));
  copyFileSync(corpusPath('usdz', 'clean_clean_arkit.usdz'), join(dir, 'models', 'site', 'north', 'clean.USDZ'));
  writeFileSync(join(dir, 'models', 'site', 'broken.glb'), readFileSync(corpusPath('glb', 'Box.glb')).subarray(0, 700));
  writeFileSync(join(dir, 'models', 'notes.txt'), 'not a model');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('arsession convert on a folder', () => {
  it('--json: one line per model in input order, then a summary; outputs keep their relative paths; exit 1 names the refused file', () => {
    const out = join(dir, 'out-json');
    const r = arsession(dir, 'convert', 'models', '-o', out, '--json', '--jobs', '2');
    expect(r.code).toBe(1);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>);
    const files = lines.filter((l) => !('summary' in l));
    expect(files.map((l) => [l.input, l.status]).sort()).toEqual([
      ['Box.glb', 'converted'],
      ['site/broken.glb', 'refused'],
      ['site/house.ifc', 'converted'],
      ['site/north/clean.USDZ', 'converted'],
    ]);
    const broken = files.find((l) => l.status === 'refused')!;
    expect(broken.error.code).toBe('model_unreadable');
    expect(broken.error.message).toMatch(/broken\.glb/);
    const house = files.find((l) => l.input === 'site/house.ifc')!;
    expect(house).toMatchObject({ format: 'ifc', delivery: 'converted', stats: { triangles: 1098 } });
    expect(files.find((l) => l.input === 'site/north/clean.USDZ')).toMatchObject({ format: 'usdz', delivery: 'as_uploaded' });
    expect(lines.at(-1)).toMatchObject({ summary: { files: 4, converted: 3, refused: 1, inputs_not_found: 0 } });
    expect(filesUnder(out)).toEqual(['Box.usdz', 'site/house.usdz', 'site/north/clean.usdz']);
    for (const l of files.filter((f) => f.status === 'converted')) expect(statSync(l.outputs.usdz.path).size).toBe(l.outputs.usdz.bytes);
    expect(readFileSync(join(out, 'site', 'north', 'clean.usdz')).equals(readFileSync(corpusPath('usdz', 'clean_clean_arkit.usdz')))).toBe(
      true,
    );
    expect(r.stderr).toBe('');
  });

  it('off a terminal: no progress bar, a line per file on stderr, and a summary table with the refused file and its reason', () => {
    const r = arsession(dir, 'convert', 'models', '-o', join(dir, 'out-table'), '--jobs', '1');
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/\r|\x1b\[/);
    expect(r.stderr.split('\n').filter((l) => /^[✓✗] /.test(l))).toHaveLength(4);
    expect(r.stdout).toMatch(/^\s+converted\s+refused\s+MB in\s+MB out\s+triangles\s+CPU s$/m);
    expect(r.stdout).toMatch(/^IFC\s+1\s+0\s/m);
    expect(r.stdout).toMatch(/^total\s+3\s+1\s/m);
    expect(r.stdout).toMatch(/^4 files in \d+\.\d s$/m);
    expect(r.stdout).toMatch(/^refused:\n {2}site\/broken\.glb: model_unreadable: /m);
  });

  it('a quoted glob converts what it matches, relative to its fixed part; all converted is exit 0', () => {
    const out = join(dir, 'out-glob');
    const r = arsession(dir, 'convert', 'models/**/*.ifc', 'models/Box.glb', '-o', `${out}/`, '--json');
    expect(r.code, r.stdout).toBe(0);
    expect(filesUnder(out)).toEqual(['Box.usdz', 'site/house.usdz']);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toMatchObject({ summary: { files: 2, converted: 2, refused: 0 } });
  });

  it('an input that names nothing is reported and fails the run; the rest still convert', () => {
    const out = join(dir, 'out-missing');
    const r = arsession(dir, 'convert', 'models/Box.glb', 'nowhere/*.ifc', 'absent.ifc', '-o', out, '--json');
    expect(r.code).toBe(1);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>);
    expect(lines.filter((l) => l.error?.code === 'input_not_found').map((l) => l.input)).toEqual(['nowhere/*.ifc', 'absent.ifc']);
    expect(lines.at(-1)).toMatchObject({ summary: { files: 1, converted: 1, refused: 2, inputs_not_found: 2 } });
    expect(existsSync(join(out, 'Box.usdz'))).toBe(true);
  });

  it('--glb writes a GLB beside each USDZ in its own folder; --jobs must be a positive whole number', () => {
    const r = arsession(dir, 'convert', 'models/Box.glb', 'models/site/house.ifc', '-o', join(dir, 'u'), '--glb', join(dir, 'g'), '--json');
    expect(r.code).toBe(0);
    expect(filesUnder(join(dir, 'g'))).toEqual(['Box.glb', 'house.glb']);
    expect(
      readFileSync(join(dir, 'g', 'house.glb'))
        .subarray(0, 4)
        .toString(),
    ).toBe('glTF');
    expect(arsession(dir, 'convert', 'models', '-o', join(dir, 'x'), '--jobs', '0').code).toBe(2);
  });
});

describe('arsession convert on a folder of large IFC files', () => {
  it("converts one past the size checked beside web-ifc as the plain file, and refuses a broken one in the check's words", () => {
    // IfcOpenHouse with 9 MiB of STEP comment before its data: each is read into shared memory and
    // its syntax checked on a helper thread of its worker while web-ifc parses it.
    const large = join(dir, 'large');
    mkdirSync(large, { recursive: true });
    const text = readFileSync(corpusPath('ifc', 'IfcOpenHouse_IFC4.ifc'), 'latin1');
    const padded = (t: string) => t.replace('DATA;\n', `DATA;\n/*${' padding'.repeat(9 * 2 ** 17)}*/\n`);
    writeFileSync(join(large, 'house.ifc'), padded(text), 'latin1');
    writeFileSync(join(large, 'open.ifc'), padded(text.replace('#40=IFCWALLSTANDARDCASE(', '#40=IFCWALLSTANDARDCASE((')), 'latin1');
    const r = arsession(dir, 'convert', 'large', '-o', join(dir, 'out-large'), '--json', '--jobs', '2');
    expect(r.code).toBe(1);
    const files = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>)
      .filter((l) => !('summary' in l));
    expect(files.find((l) => l.input === 'house.ifc')).toMatchObject({ status: 'converted', stats: { triangles: 1098 } });
    expect(files.find((l) => l.input === 'house.ifc')!.bytes).toBeGreaterThan(9 * 2 ** 20);
    expect(files.find((l) => l.input === 'open.ifc')).toMatchObject({
      status: 'refused',
      error: {
        code: 'model_unreadable',
        message: expect.stringMatching(/open\.ifc: not a well-formed STEP file: line \d+: entity #40 has 1 unclosed parenthesis/),
      },
    });
  });
});

describe('finding models and naming outputs', () => {
  it('a folder walk takes model extensions in any case and skips hidden entries; a named file is taken whatever its name', async () => {
    mkdirSync(join(dir, 'walk', '.hidden'), { recursive: true });
    for (const name of ['a.IFC', 'b.glb', 'c.txt', '.d.glb', '.hidden/e.glb']) writeFileSync(join(dir, 'walk', name), 'x');
    writeFileSync(join(dir, 'model.bin'), 'x');
    const { models, missing } = await findModels(['walk', 'model.bin', 'walk/b.glb'], dir);
    expect(models.map((m) => m.relative)).toEqual(['a.IFC', 'b.glb', 'model.bin']);
    expect(missing).toEqual([]);
  });

  it('two models that would land on one file are told apart, case-blind', () => {
    const models = ['site/house.ifc', 'site/house.glb', 'site/HOUSE.usdz', 'other/house.ifc'].map((relative) => ({
      path: relative,
      relative,
      bytes: 1,
    }));
    expect(outputPaths(models, 'out', '.usdz')).toEqual([
      join('out', 'site', 'house.usdz'),
      join('out', 'site', 'house-2.usdz'),
      join('out', 'site', 'HOUSE-3.usdz'),
      join('out', 'other', 'house.usdz'),
    ]);
  });
});

describe('the progress bar', () => {
  it('on a terminal: files done of all, megabytes, the time left, and the lines printed above it', () => {
    let written = '';
    const tty = {
      isTTY: true,
      columns: 200,
      write: (s: string) => {
        written += s;
        return true;
      },
    };
    let clock = 0;
    const bar = new BatchProgress({ stdout: tty, stderr: tty }, 3, 3_000_000, true, () => clock);
    bar.start('a.ifc');
    clock = 2000;
    bar.finish('a.ifc', 1_000_000, '✓ a.ifc');
    bar.start('b.ifc');
    bar.close();
    expect(written).toContain('✓ a.ifc\n');
    // 1 MB in 2 s: 0.5 MB/s, so the 2 MB left take 4 s.
    expect(written).toContain('1/3 files · 1.0/3.0 MB · 0.5 MB/s · ETA 0:04 · b.ifc');
    expect(written.endsWith('\r\x1b[K')).toBe(true);
  });

  it('off a terminal, or with --json, it draws nothing', () => {
    let written = '';
    const pipe = {
      isTTY: false,
      write: (s: string) => {
        written += s;
        return true;
      },
    };
    const bar = new BatchProgress({ stdout: pipe, stderr: pipe }, 2, 10, true);
    bar.start('a.ifc');
    bar.finish('a.ifc', 5, '✓ a.ifc');
    bar.close();
    expect(written).toBe('✓ a.ifc\n');
  });

  it('formats the time left as m:ss or h:mm:ss', () => {
    expect([formatDuration(0), formatDuration(59.6), formatDuration(61), formatDuration(3725)]).toEqual([
      '0:00',
      '1:00',
      '1:01',
      '1:02:05',
    ]);
  });
});
