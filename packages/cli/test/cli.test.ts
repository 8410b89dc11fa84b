import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath, REPO_ROOT } from '../../../test/support/corpus.js';
import { schemaProblems } from '../../../test/support/responseContract.js';

// The real binary, as `pnpm exec arsession` runs it (built by `tsc -b` before the tests).
const BIN = join(REPO_ROOT, 'node_modules', '.bin', 'arsession');
function arsession(...args: string[]) {
  // A timeout, so a CLI that never exits (workers keeping it alive) fails the test instead of hanging it.
  const r = spawnSync(BIN, args, { encoding: 'utf8', cwd: REPO_ROOT, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The names in a folder, sorted. */
function readdirNames(dir: string): string[] {
  return readdirSync(dir).sort();
}

describe('arsession CLI', () => {
  it('--help lists every command', () => {
    const r = arsession('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\s+inspect\s/m);
    expect(r.stdout).toMatch(/^\s+opening\s/m);
    expect(r.stdout).toMatch(/^\s+convert\s/m);
  });

  it('an unknown command is a usage error (exit 2)', () => {
    const r = arsession('frobnicate');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
  });

  it('inspect --json prints one JSON object and nothing else', () => {
    const r = arsession('inspect', corpusPath('glb', 'SimpleInstancing.glb'), '--headers', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ file: 'SimpleInstancing.glb', format: 'glb', glb: { mesh_nodes: 125, within_mesh_node_limit: true } });
  });

  it('inspect reports a GLB over the limit, and refuses a non-model', () => {
    const over = JSON.parse(arsession('inspect', corpusPath('glb', 'Synthetic_5001MeshNodes_shared.glb'), '--json').stdout);
    expect(over.glb).toMatchObject({ mesh_nodes: 5001, within_mesh_node_limit: false });
    const r = arsession('inspect', join(REPO_ROOT, 'package.json'), '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe('unsupported_format');
  });

  it('inspect names a missing file', () => {
    const r = arsession('inspect', '/nonexistent/model.ifc');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ENOENT');
  });

  it('opening validates a door and prints its frame', () => {
    const r = arsession('opening', '--corners', '[[-0.45,0,0],[0.45,0,0],[0.45,2.1,0],[-0.45,2.1,0]]', '--normal', '[0,0,1]', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.width).toBeCloseTo(0.9, 12);
    expect(out.frame.matrix).toHaveLength(16);
  });

  it('opening lists every problem with its field (z-up data sent as y-up)', () => {
    const r = arsession('opening', '--corners', '[[-0.45,0,0],[0.45,0,0],[0.45,0,2.1],[-0.45,0,2.1]]', '--normal', '[0,-1,0]', '--json');
    expect(r.code).toBe(1);
    const problems = JSON.parse(r.stdout).error.problems as Array<{ field: string }>;
    expect(problems.map((p) => p.field)).toContain('alignment.wall_normal');
    // The same numbers with --z-up are a valid door.
    expect(
      arsession('opening', '--corners', '[[-0.45,0,0],[0.45,0,0],[0.45,0,2.1],[-0.45,0,2.1]]', '--normal', '[0,-1,0]', '--z-up').code,
    ).toBe(0);
  });

  it('malformed JSON in a flag is a usage error naming the flag', () => {
    const r = arsession('opening', '--corners', '[[1,2', '--normal', '[0,0,1]');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--corners is not valid JSON');
  });
});

describe('arsession convert and inspect on real models', () => {
  it('convert writes a USDZ and a GLB and reports counts as JSON', async () => {
    const { mkdtempSync, readFileSync, readdirSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'arsession-cli-'));
    const r = arsession(
      'convert',
      corpusPath('ifc', 'IfcOpenHouse_IFC4.ifc'),
      '-o',
      join(dir, 'house.usdz'),
      '--glb',
      join(dir, 'house.glb'),
      '--json',
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.stats.triangles).toBe(1098);
    expect(readFileSync(join(dir, 'house.usdz')).length).toBe(report.outputs.usdz.bytes);
    expect(readFileSync(join(dir, 'house.glb')).subarray(0, 4).toString()).toBe('glTF');
    expect(readdirSync(dir).sort()).toEqual(['house.glb', 'house.usdz']); // no partial files left
  });

  it('convert refuses a GLB over the mesh-node limit with exit 1 and writes nothing', async () => {
    const { existsSync } = await import('node:fs');
    const out = join(REPO_ROOT, '.test-results', 'never.usdz');
    const r = arsession('convert', corpusPath('glb', 'Synthetic_5001MeshNodes_shared.glb'), '-o', out, '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'mesh_node_limit' });
    expect(existsSync(out)).toBe(false);
  });

  it('convert refuses a model with nothing to draw as the server does (model_unreadable, exit 1) and writes nothing', async () => {
    const { existsSync } = await import('node:fs');
    const out = join(REPO_ROOT, '.test-results', 'empty-stage.usdz');
    const r = arsession('convert', corpusPath('usdz', 'single_usda.usdz'), '-o', out, '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toEqual({
      code: 'model_unreadable',
      problems: [{ field: 'model_file', message: 'single_usda.usdz has no geometry to show or place (0 triangles)' }],
    });
    expect(existsSync(out)).toBe(false);
  });

  it('convert of one model past --timeout is refused with exit 1 and writes nothing, even with the reader mid-way', async () => {
    const { existsSync, mkdtempSync, readdirSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'arsession-cli-'));
    // 1 ms: the deadline passes while web-ifc loads. 0.2 s: while web-ifc streams the 3 MB model's
    // geometry (~1 s here) in one synchronous call, which the watchdog has to end.
    for (const [model, timeout, shown] of [
      [corpusPath('ifc', 'IfcOpenHouse_IFC4.ifc'), '0.001', '1 ms'],
      [corpusPath('ifc', 'ISSUE_021_Mini_Project.ifc'), '0.2', '200 ms'],
    ] as const) {
      const out = join(dir, 'late.usdz');
      const r = arsession('convert', model, '-o', out, '--timeout', timeout, '--json');
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(1);
      expect(JSON.parse(r.stdout).error).toMatchObject({
        code: 'model_unreadable',
        problems: [{ field: 'model_file', message: expect.stringContaining(`did not finish within ${shown}`) }],
      });
      expect(r.stderr).toBe('');
      expect(existsSync(out)).toBe(false);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('convert holds the USDZ to the budget the flags set, and says what it did, in text and JSON', async () => {
    const { mkdtempSync, readFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'arsession-cli-'));
    const model = corpusPath('ifc', 'ISSUE_021_Mini_Project.ifc');
    const json = arsession('convert', model, '-o', join(dir, 'small.usdz'), '--budget-triangles', '20000', '--budget-prims', '8', '--json');
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.ar_budget).toMatchObject({
      limits: { triangles: 20000, mesh_prims: 8 },
      within_budget: true,
      source: { triangles: 261069 },
    });
    expect(report.stats.triangles).toBeLessThanOrEqual(20000);
    expect(report.stats.draw_calls).toBeLessThanOrEqual(8);
    expect(report.ar_budget.delivered.bytes).toBe(readFileSync(join(dir, 'small.usdz')).length);
    const text = arsession('convert', model, '-o', join(dir, 'text.usdz'), '--budget-triangles', '20000');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      // Merged only when the prims left are still over the budget's (detail left out draws nothing).
      /AR budget: 261,069 → [\d,]+ triangles, 2,636 → \d+ mesh prims, .* largest deviation [\d.]+ mm \((merged, )?simplified\)/,
    );
    const full = arsession('convert', model, '-o', join(dir, 'full.usdz'), '--no-budget', '--json');
    expect(JSON.parse(full.stdout).stats.triangles).toBe(261069);
    expect(JSON.parse(full.stdout).ar_budget).toBeUndefined();
  });

  it("--json speaks the API's words: the budget report is the detail record's ArBudget, and no key anywhere is camel case", async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'arsession-cli-'));
    const camelKeys = (value: unknown, path = ''): string[] => {
      if (Array.isArray(value)) return value.flatMap((v, i) => camelKeys(v, `${path}[${i}]`));
      if (value === null || typeof value !== 'object') return [];
      return Object.entries(value).flatMap(([k, v]) => [...(/[A-Z]/.test(k) ? [`${path}.${k}`] : []), ...camelKeys(v, `${path}.${k}`)]);
    };
    const converted = arsession(
      'convert',
      corpusPath('ifc', 'ISSUE_021_Mini_Project.ifc'),
      '-o',
      join(dir, 'small.usdz'),
      '--budget-triangles',
      '20000',
      '--json',
    );
    expect(converted.code, converted.stderr).toBe(0);
    const report = JSON.parse(converted.stdout);
    expect(schemaProblems('ArBudget', report.ar_budget)).toEqual([]);
    expect(report.ar_budget.categories.length).toBeGreaterThan(0);
    expect(report.stats).toMatchObject({ mesh_nodes: expect.any(Number), draw_calls: expect.any(Number), elements: expect.any(Number) });
    expect(report.timings).toEqual({ read_ms: expect.any(Number), write_ms: expect.any(Number) });
    const inspected = JSON.parse(arsession('inspect', corpusPath('ifc', 'AC20-FZK-Haus.ifc'), '--json').stdout);
    expect(inspected.doors[0]).toMatchObject({
      global_id: expect.any(String),
      wall_thickness: expect.any(Number),
      by_side: expect.any(Array),
    });
    const headers = JSON.parse(arsession('inspect', corpusPath('glb', 'SimpleInstancing.glb'), '--json').stdout);
    for (const out of [report, inspected, headers]) expect(camelKeys(out)).toEqual([]);
  });

  it('the text report says per category of element what the budget took', () => {
    const r = arsession(
      'convert',
      corpusPath('ifc', 'ISSUE_021_Mini_Project.ifc'),
      '-o',
      join(REPO_ROOT, '.test-results', 'categories.usdz'),
      '--budget-triangles',
      '20000',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {4}(envelope|furniture|mep|other): [\d,]+ → [\d,]+ triangles, deviation [\d.]+ mm/m);
  });

  it('budget flags that make no sense are usage errors naming the flag', () => {
    for (const args of [
      ['--budget-triangles', '0'],
      ['--budget-prims', 'many'],
      ['--budget-package-mb=-2'],
      ['--no-budget', '--budget-texture', '512'],
    ]) {
      const r = arsession('convert', corpusPath('glb', 'Box.glb'), '-o', join(REPO_ROOT, '.test-results', 'never.usdz'), ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(
        args[0] === '--no-budget' ? '--no-budget cannot be given with --budget-* limits' : `${args[0]!.split('=')[0]} takes a positive`,
      );
    }
  });

  it('convert --parts writes a model over the budget as parts: one USDZ per storey and parts.json', async () => {
    const { existsSync, mkdtempSync, readFileSync } = await import('node:fs');
    const { createHash } = await import('node:crypto');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'arsession-cli-'));
    const parts = join(dir, 'parts');
    const args = [
      'convert',
      corpusPath('ifc', 'duplex.ifc'),
      '-o',
      join(dir, 'duplex.usdz'),
      '--parts',
      parts,
      '--budget-triangles',
      '20000',
    ];
    const json = arsession(...args, '--json');
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout);
    const listed = JSON.parse(readFileSync(join(parts, 'parts.json'), 'utf8')).parts;
    expect(report.outputs.parts).toEqual({ path: parts, parts: listed });
    expect(listed.map((p: { name: string; storey: { elevation_m: number } }) => [p.name, p.storey.elevation_m])).toEqual([
      ['T/FDN', -1.25],
      ['Level 1', 0],
      ['Level 2', 3.1],
      ['Roof', 6],
    ]);
    for (const part of listed) {
      const usdz = readFileSync(join(parts, part.file));
      expect(usdz.length).toBe(part.usdz_bytes);
      expect(createHash('sha256').update(usdz).digest('hex')).toBe(part.usdz_sha256);
      expect(part.triangles).toBeLessThanOrEqual(20000);
      expect(schemaProblems('ArBudget', part.ar_budget)).toEqual([]);
    }
    // Together they draw the whole model as read, where the overview is simplified.
    const drawn = listed.reduce((n: number, p: { ar_budget: { source: { triangles: number } } }) => n + p.ar_budget.source.triangles, 0);
    expect(drawn).toBe(report.ar_budget.source.triangles);
    expect(report.stats.triangles).toBeLessThan(drawn);
    // Only the parts are left in the folder: the archive they came in is gone.
    expect(readdirNames(parts)).toEqual([...listed.map((p: { file: string }) => p.file), 'parts.json'].sort());
    const text = arsession(...args.map((a) => (a === parts ? join(dir, 'again') : a)));
    expect(text.stdout).toMatch(/^ {2}4 parts → .* \(parts\.json lists them\)$/m);
    expect(text.stdout).toMatch(/^ {4}01\.usdz {2}Level 1 \(0 m\): 17,168 triangles, \d+ draw calls, as read$/m);
    // A model within the budget is one file: no parts, nothing in the folder.
    const small = arsession('convert', corpusPath('glb', 'Box.glb'), '-o', join(dir, 'box.usdz'), '--parts', join(dir, 'box'), '--json');
    expect(JSON.parse(small.stdout).outputs.parts).toBeUndefined();
    expect(existsSync(join(dir, 'box')) && readdirNames(join(dir, 'box'))).toEqual([]);
  });

  it("convert --elements writes an IFC's element records: JSON, or gzipped for a .gz name", async () => {
    const { mkdtempSync, readFileSync } = await import('node:fs');
    const { gunzipSync } = await import('node:zlib');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'arsession-cli-'));
    const model = corpusPath('ifc', 'AC20-FZK-Haus.ifc');
    const json = arsession('convert', model, '-o', join(dir, 'house.usdz'), '--elements', join(dir, 'house.json'), '--json');
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout);
    const records = JSON.parse(readFileSync(join(dir, 'house.json'), 'utf8'));
    expect(report.outputs.elements).toEqual({
      path: join(dir, 'house.json'),
      bytes: readFileSync(join(dir, 'house.json')).length,
      count: Object.keys(records.elements).length,
    });
    expect(records.elements['1Oms875aH3Wg$9l65H2ZGw']).toMatchObject({ ifc_class: 'IfcDoor', name: 'Innentuer-1', materials: ['Holz'] });
    const gz = arsession('convert', model, '-o', join(dir, 'again.usdz'), '--elements', join(dir, 'house.json.gz'));
    expect(gz.stdout).toMatch(/^ {2}\d+ element records → .*house\.json\.gz$/m);
    expect(JSON.parse(gunzipSync(readFileSync(join(dir, 'house.json.gz'))).toString('utf8'))).toEqual(records);
  });

  it('--parts with a batch or without a budget is a usage error saying why', () => {
    const out = join(REPO_ROOT, '.test-results', 'parts-usage');
    const batch = arsession('convert', corpusPath('glb', 'Box.glb'), corpusPath('glb', 'Box.glb'), '-o', `${out}/`, '--parts', out);
    expect(batch.code).toBe(2);
    expect(batch.stderr).toContain('--parts takes one model');
    const none = arsession('convert', corpusPath('glb', 'Box.glb'), '-o', `${out}.usdz`, '--parts', out, '--no-budget');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--parts needs the AR budget');
  });

  it('convert without -o is a usage error', () => {
    expect(arsession('convert', corpusPath('glb', 'Box.glb')).code).toBe(2);
  });

  it('inspect lists doors, their walls and warnings', () => {
    const r = arsession('inspect', corpusPath('ifc', 'AC20-FZK-Haus.ifc'), '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.doors).toHaveLength(5);
    expect(out.doors.every((d: { wall: string | null }) => d.wall?.startsWith('IfcWall'))).toBe(true);
    expect(out.stats.triangles).toBe(21722);
    const lamp = JSON.parse(arsession('inspect', corpusPath('glb', 'AnisotropyBarnLamp-KTX2.glb'), '--json').stdout);
    expect(lamp.stats.textures).toBeGreaterThan(0); // KTX2 transcoded, not dropped
    expect(lamp.warnings.map((w: { code: string }) => w.code)).not.toContain('texture_dropped');
  });
});
