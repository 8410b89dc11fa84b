import { join } from 'node:path';
import { buildBvh, detectOpening, DoorNotFoundError, raycastFirst, type Bvh, type Vec3 } from '@arsession/geometry';
import { readIfc, sceneTriangles, type DoorOpeningRecord, type SceneTriangles } from '@arsession/convert';
import { bytesOf, CORPUS_DIR } from './corpus.js';

/** Door detection timed on a big scene whose tree is already built. */
export interface DetectionLatencyRow {
  scene: string;
  triangles: number;
  detections: number;
  found: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

/** `copies` of a building side by side, 150 m apart, as one soup (groups kept apart per copy). */
function tile(soup: SceneTriangles, copies: number): SceneTriangles {
  const v = soup.positions.length,
    i = soup.indices.length,
    g = soup.groups.length;
  const groupSpan = soup.groups.reduce((m, x) => Math.max(m, x), 0) + 1;
  const positions = new Float32Array(v * copies),
    indices = new Uint32Array(i * copies),
    groups = new Uint32Array(g * copies);
  for (let c = 0; c < copies; c++) {
    const dx = (c % 5) * 150,
      dz = Math.floor(c / 5) * 150;
    for (let k = 0; k < v; k += 3) {
      positions[c * v + k] = soup.positions[k]! + dx;
      positions[c * v + k + 1] = soup.positions[k + 1]!;
      positions[c * v + k + 2] = soup.positions[k + 2]! + dz;
    }
    for (let k = 0; k < i; k++) indices[c * i + k] = soup.indices[k]! + (c * v) / 3;
    for (let k = 0; k < g; k++) groups[c * g + k] = soup.groups[k]! + c * groupSpan;
  }
  return { positions, indices, groups, offset: soup.offset };
}

/**
 * Office_A tiled to just over 1M triangles (21 copies; 4 in quick mode): every hosted door of the
 * first copy detected from 2 m in front of each face (closer when something stands between),
 * geometry only, after one warm-up pass. Times one `detectOpening` call each.
 */
export async function benchDetectionLatency(quick: boolean): Promise<DetectionLatencyRow> {
  const scene = await readIfc(bytesOf(join(CORPUS_DIR, 'ifc', 'Office_A_20110811.ifc')));
  const copies = quick ? 4 : 21;
  const soup = tile(sceneTriangles(scene), copies);
  const mesh = { ...soup, offset: [0, 0, 0] as Vec3 };
  const bvh = buildBvh(mesh);
  const timing = timeDetections(mesh, bvh, doorQuestions(scene.doorOpenings, mesh, bvh));
  const row = { scene: `Office_A_20110811.ifc × ${copies}`, triangles: mesh.indices.length / 3, ...timing };
  console.error(
    `  ${row.scene} (${row.triangles.toLocaleString('en-US')} triangles): detection p50 ` +
      `${row.p50Ms.toFixed(1)} ms, p95 ${row.p95Ms.toFixed(1)} ms over ${row.detections}`,
  );
  return row;
}

/** Where a viewer stands and looks. */
export interface DoorQuestion {
  viewer: Vec3;
  gaze: Vec3;
}

/** Detections timed one by one. */
export interface DetectionTiming {
  detections: number;
  found: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

/**
 * One question per face of every door hosted in a wall: a viewer 2 m in front at eye height
 * (closer when something stands between), gazing at the opening's centre.
 */
export function doorQuestions(doors: readonly DoorOpeningRecord[], mesh: SceneTriangles, bvh: Bvh): DoorQuestion[] {
  const questions: DoorQuestion[] = [];
  for (const d of doors.filter((x) => x.wall)) {
    for (const face of d.faces) {
      const centre = face.corners.reduce<number[]>((s, c) => s.map((x, k) => x + c[k]! / 4), [0, 0, 0]) as Vec3;
      const viewer = viewerFor(mesh, bvh, centre, face.normal, face.corners[0][1] + 1.6);
      if (viewer) questions.push({ viewer, gaze: centre.map((x, k) => x - viewer[k]!) as Vec3 });
    }
  }
  return questions;
}

/** Times one geometric `detectOpening` per question, after a warm-up pass over all of them. */
export function timeDetections(mesh: SceneTriangles, bvh: Bvh, questions: readonly DoorQuestion[]): DetectionTiming {
  const ask = (q: DoorQuestion) => {
    try {
      detectOpening(mesh, bvh, q.viewer, q.gaze);
      return true;
    } catch (err) {
      if (err instanceof DoorNotFoundError) return false;
      throw err;
    }
  };
  for (const q of questions) ask(q);
  const times: number[] = [];
  let found = 0;
  for (const q of questions) {
    const t0 = performance.now();
    if (ask(q)) found++;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? Number.NaN;
  return { detections: times.length, found, p50Ms: at(0.5), p95Ms: at(0.95), maxMs: times[times.length - 1] ?? Number.NaN };
}

function viewerFor(mesh: SceneTriangles, bvh: Bvh, centre: Vec3, normal: Vec3, eyeY: number): Vec3 | undefined {
  for (let dist = 2; dist >= 0.6; dist -= 0.1) {
    const viewer: Vec3 = [centre[0] + dist * normal[0], eyeY, centre[2] + dist * normal[2]];
    const toCentre = centre.map((c, k) => c + normal[k]! * 0.05 - viewer[k]!) as Vec3;
    if (!raycastFirst(bvh, mesh, viewer, toCentre, Math.hypot(...toCentre))) return viewer;
  }
  return undefined;
}
