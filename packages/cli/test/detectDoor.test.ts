import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeGlb } from '@arsession/convert';
import { yUpToZUp, type Vec3 } from '@arsession/geometry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ac20DoorView } from '../../../test/support/ac20DoorView.js';
import { corpusPath, REPO_ROOT } from '../../../test/support/corpus.js';

const BIN = join(REPO_ROOT, 'node_modules', '.bin', 'arsession');
function arsession(...args: string[]) {
  const r = spawnSync(BIN, args, { encoding: 'utf8', cwd: REPO_ROOT, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const triple = (v: readonly number[]) => v.join(',');

// AC20-FZK-Haus: the first door hosted in a wall, seen from 2 m in front of its first face.
describe('arsession detect-door', () => {
  let dir: string;
  let face: { corners: Vec3[]; normal: Vec3 };
  let viewer: Vec3, gaze: Vec3, offset: Vec3;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arsession-detect-'));
    let scene: Awaited<ReturnType<typeof ac20DoorView>>['scene'];
    ({ scene, face, offset, viewer, gaze } = await ac20DoorView());
    // The same building as a GLB without semantics, for the geometric path.
    writeFileSync(join(dir, 'haus.glb'), await writeGlb({ ...scene, nodes: scene.nodes.map((n) => ({ ...n, name: '', metadata: {} })) }));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const expectFace = (corners: number[][], shift: Vec3 = offset) =>
    corners.forEach((c, i) => c.forEach((v, k) => expect(Math.abs(v - (face.corners[i]![k]! + shift[k]!))).toBeLessThan(0.03)));

  it('finds the door on the IFC through its semantics (--json: one object)', () => {
    const r = arsession('detect-door', corpusPath('ifc', 'AC20-FZK-Haus.ifc'), '--from', triple(viewer), '--gaze', triple(gaze), '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ found: true, method: 'semantic', reason: null });
    expect(Object.keys(out)).toEqual(
      expect.arrayContaining(['found', 'corners', 'wall_normal', 'width', 'height', 'method', 'confidence', 'reason']),
    );
    expectFace(out.corners);
    expect(out.wall_normal[0] * face.normal[0] + out.wall_normal[2] * face.normal[2]).toBeGreaterThan(0.999);
    expect(out.confidence).toBeGreaterThan(0.5);
  });

  it('finds the same door on the stripped GLB through geometry alone', () => {
    // The GLB holds the scene's re-centred coordinates, so viewer and gaze are given without the offset.
    const local = viewer.map((v, k) => v - offset[k]!);
    const r = arsession('detect-door', join(dir, 'haus.glb'), '--from', triple(local), '--gaze', triple(gaze), '--json');
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ found: true, method: 'geometric' });
    expectFace(out.corners, [0, 0, 0]);
  });

  it('answers z-up questions in z-up', () => {
    const r = arsession(
      'detect-door',
      corpusPath('ifc', 'AC20-FZK-Haus.ifc'),
      '--from',
      triple(yUpToZUp([0, 0, 0], viewer)),
      '--gaze',
      triple(yUpToZUp([0, 0, 0], gaze)),
      '--z-up',
      '--json',
    );
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const expected = face.corners.map((c) => yUpToZUp([0, 0, 0], c.map((v, k) => v + offset[k]!) as Vec3));
    out.corners.forEach((c: number[], i: number) => c.forEach((v, k) => expect(Math.abs(v - expected[i]![k]!)).toBeLessThan(0.03)));
  });

  it('says why when the viewer looks away from the building (exit 1)', () => {
    const far = viewer.map((v, k) => v - offset[k]! + 100 * face.normal[k]!);
    const r = arsession('detect-door', join(dir, 'haus.glb'), '--from', triple(far), '--gaze', triple(face.normal), '--json');
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.found).toBe(false);
    expect(out.reason).toBe('no_wall_along_gaze');
    expect(out.message.length).toBeGreaterThan(10);
  });

  it('refuses malformed coordinates as a usage error (exit 2)', () => {
    const r = arsession('detect-door', corpusPath('ifc', 'AC20-FZK-Haus.ifc'), '--from', '1,2', '--gaze', '0,0,-1');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--from');
  });
});
