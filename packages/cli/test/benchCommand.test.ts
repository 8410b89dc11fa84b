// `arsession bench --models DIR` through the real binary, on a folder a researcher might have:
// two models we read, one over the mesh-node limit, and a file that is no model at all.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, REPO_ROOT } from '../../../test/support/corpus.js';

const BIN = join(REPO_ROOT, 'node_modules', '.bin', 'arsession');
const bench = (...args: string[]) => {
  const r = spawnSync(BIN, ['bench', ...args], { encoding: 'utf8', cwd: REPO_ROOT, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

interface Row {
  file: string;
  format?: string;
  triangles?: number;
  convert?: { median: number; runs: number };
  usdzBytes?: number;
  peer?: { name: string; time: { median: number }; ratio: { median: number } };
  bvh?: { buildMs: { median: number }; peerBuildMs: { median: number }; rayUs: number; peerRayUs: number; disagreements: number };
  detection?: { questions: string; detections: number; found: number; p50Ms: number; p95Ms: number };
  error?: string;
}

describe('arsession bench --models', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'arsession-bench-models-'));
    copyFileSync(corpusPath('glb', 'Box.glb'), join(dir, 'Box.glb'));
    copyFileSync(corpusPath('ifc', 'IfcOpenHouse_IFC4.ifc'), join(dir, 'house.ifc'));
    copyFileSync(corpusPath('glb', 'Synthetic_5001MeshNodes_shared.glb'), join(dir, 'too-many-nodes.glb'));
    writeFileSync(join(dir, 'notes.txt'), 'measurements to follow');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--json: every model measured against its peer, refusals with their reason', () => {
    const r = bench('--models', dir, '--rounds', '1', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { rounds: number; models: Row[] };
    expect(out.rounds).toBe(1);
    expect(out.models.map((m) => m.file)).toEqual(['Box.glb', 'house.ifc', 'notes.txt', 'too-many-nodes.glb']);
    const [box, house, notes, tooMany] = out.models as [Row, Row, Row, Row];

    expect(box).toMatchObject({
      format: 'glb',
      triangles: 12,
      peer: { name: 'three.js USDZExporter' },
      detection: { questions: 'random gazes' },
    });
    expect(house).toMatchObject({ format: 'ifc', peer: { name: 'web-ifc StreamAllMeshes' }, detection: { questions: 'ifc doors' } });
    for (const m of [box, house]) {
      expect(m.convert!.median).toBeGreaterThan(0);
      expect(m.convert!.runs).toBe(1);
      expect(m.usdzBytes).toBeGreaterThan(1000);
      expect(m.peer!.time.median).toBeGreaterThan(0);
      expect(m.peer!.ratio.median).toBeCloseTo(m.convert!.median / m.peer!.time.median, 5);
      expect(m.bvh!.buildMs.median).toBeGreaterThan(0);
      expect(m.bvh!.peerRayUs).toBeGreaterThan(0);
      // Both ray casters see the same nearest hits.
      expect(m.bvh!.disagreements).toBe(0);
      expect(m.detection!.p95Ms).toBeGreaterThanOrEqual(m.detection!.p50Ms);
    }
    // The house's two doors, each asked from in front, are found.
    expect(house.triangles).toBe(1098);
    expect(house.detection!.found).toBe(house.detection!.detections);
    expect(house.detection!.detections).toBeGreaterThan(0);

    expect(notes.error).toMatch(/not an IFC .*GLB .*USDZ/);
    expect(notes.convert).toBeUndefined();
    expect(tooMany.error).toMatch(/5001 mesh nodes/);
  });

  it('--csv: one header line and one line per model, same columns on every line', () => {
    const r = bench('--models', dir, '--rounds', '1', '--csv');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    const header = lines[0]!.split(',');
    expect(header.slice(0, 4)).toEqual(['file', 'format', 'bytes', 'triangles']);
    expect(header).toContain('convert_ratio');
    const box = lines.find((l) => l.startsWith('Box.glb,'))!;
    expect(box.split(',')).toHaveLength(header.length);
    expect(Number(box.split(',')[header.indexOf('convert_ms')])).toBeGreaterThan(0);
  });

  it('a table by default; bad usage exits 2, a missing folder 1', () => {
    const table = bench('--models', dir, '--rounds', '1');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^file\s+triangles\s+convert ms/);
    expect(table.stdout).toMatch(/^notes\.txt\s+—\s+refused: /m);
    expect(bench().code).toBe(2);
    expect(bench('--models', dir, '--json', '--csv').code).toBe(2);
    expect(bench('--models', dir, '--rounds', 'many').code).toBe(2);
    const missing = bench('--models', join(dir, 'nowhere'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('is not a directory');
  });
});
