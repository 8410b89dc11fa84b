import { join } from 'node:path';
import { buildBvh, raycastFirst, type TriangleMesh } from '@arsession/geometry';
import { mergeByMaterial, readIfc } from '@arsession/convert';
import { BufferAttribute, BufferGeometry, DoubleSide, Ray, Vector3 } from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import { bytesOf, CORPUS_DIR } from './corpus.js';
import { compare, type Sample } from './sample.js';
import { seededRandom } from './seededRandom.js';

/** BVH build and first-hit rays, ours against three-mesh-bvh, on the same triangles and rays. */
export interface DetectionRow {
  scene: string;
  triangles: number;
  rays: number;
  buildOurs: Sample;
  buildPeer: Sample;
  /** ours ÷ three-mesh-bvh, round by round (lower is better). */
  buildRatio: Sample;
  /** Microseconds per ray. */
  rayOursUs: Sample;
  rayPeerUs: Sample;
  rayRatio: Sample;
  /** Rays whose nearest-hit distance differs by more than 1 mm between the two (should be 0). */
  disagreements: number;
}

/** Every triangle of a corpus building in one soup, in the delivered frame. */
async function buildingSoup(file: string): Promise<TriangleMesh> {
  const scene = mergeByMaterial(await readIfc(bytesOf(join(CORPUS_DIR, 'ifc', file))), { minDrawCalls: 0 });
  const vertices = scene.meshes.reduce((n, m) => n + m.positions.length, 0);
  const positions = new Float32Array(vertices);
  const indices = new Uint32Array(scene.meshes.reduce((n, m) => n + m.indices.length, 0));
  let v = 0,
    i = 0;
  for (const m of scene.meshes) {
    positions.set(m.positions, v);
    for (let k = 0; k < m.indices.length; k++) indices[i + k] = m.indices[k]! + v / 3;
    v += m.positions.length;
    i += m.indices.length;
  }
  return { positions, indices };
}

/** A dense synthetic interior: `n` small random triangles in a 40 × 10 × 40 m volume (deterministic). */
function syntheticSoup(n: number): TriangleMesh {
  const rand = seededRandom(12345);
  const positions = new Float32Array(n * 9);
  for (let t = 0; t < n; t++) {
    const cx = rand() * 40 - 20,
      cy = rand() * 10,
      cz = rand() * 40 - 20;
    for (let k = 0; k < 3; k++) {
      positions[t * 9 + k * 3] = cx + (rand() - 0.5) * 0.3;
      positions[t * 9 + k * 3 + 1] = cy + (rand() - 0.5) * 0.3;
      positions[t * 9 + k * 3 + 2] = cz + (rand() - 0.5) * 0.3;
    }
  }
  return { positions, indices: Uint32Array.from({ length: n * 3 }, (_, i) => i) };
}

/** Rays from random points inside the scene's bounds in random directions (deterministic). */
function raysFor(mesh: TriangleMesh, count: number): Float64Array {
  const p = mesh.positions;
  const min = [Infinity, Infinity, Infinity],
    max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3)
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, p[i + k]!);
      max[k] = Math.max(max[k]!, p[i + k]!);
    }
  const rand = seededRandom(777);
  const rays = new Float64Array(count * 6);
  for (let r = 0; r < count; r++) {
    for (let k = 0; k < 3; k++) rays[r * 6 + k] = min[k]! + rand() * (max[k]! - min[k]!);
    let d: number[];
    do d = [rand() * 2 - 1, rand() * 2 - 1, rand() * 2 - 1];
    while (Math.hypot(...d) < 0.1);
    const l = Math.hypot(...d);
    for (let k = 0; k < 3; k++) rays[r * 6 + 3 + k] = d[k]! / l;
  }
  return rays;
}

export async function benchDetection(rounds: number, quick: boolean): Promise<DetectionRow[]> {
  const scenes: Array<[string, () => Promise<TriangleMesh> | TriangleMesh]> = quick
    ? [
        ['AC20-FZK-Haus.ifc', () => buildingSoup('AC20-FZK-Haus.ifc')],
        ['synthetic 200k', () => syntheticSoup(200_000)],
      ]
    : [
        ['AC20-FZK-Haus.ifc', () => buildingSoup('AC20-FZK-Haus.ifc')],
        ['Office_A_20110811.ifc', () => buildingSoup('Office_A_20110811.ifc')],
        ['ISSUE_021_Mini_Project.ifc', () => buildingSoup('ISSUE_021_Mini_Project.ifc')],
        ['synthetic 1M', () => syntheticSoup(1_000_000)],
      ];
  const rows: DetectionRow[] = [];
  for (const [name, make] of scenes) {
    const row = await compareBvh(name, await make(), rounds, quick ? 5000 : 20_000);
    rows.push(row);
    console.error(
      `  ${name}: build ×${row.buildRatio.median.toFixed(2)}, rays ` +
        `×${row.rayRatio.median.toFixed(2)} of three-mesh-bvh; ${row.disagreements} disagreements`,
    );
  }
  return rows;
}

/** Warm-up builds on each side before the build rounds are timed. */
export const BUILD_WARMUP = 5;

/**
 * Our BVH against three-mesh-bvh on one triangle soup: build time (default builds), first-hit
 * rays from random points inside the bounds (both sides), and how often the two disagree.
 */
export async function compareBvh(scene: string, mesh: TriangleMesh, rounds: number, rayCount: number): Promise<DetectionRow> {
  // three-mesh-bvh sorts the index buffer it is given into its tree's order. It gets a copy of its
  // own, or it would reorder our triangles under our tree; and every build on either side starts
  // from a fresh copy of the original order (the same copy on both sides, inside the timing), or
  // all builds after the first would partition triangles already in tree order.
  const geometryOf = (indices: Uint32Array) => {
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(mesh.positions, 3));
    geometry.setIndex(new BufferAttribute(indices, 1));
    return geometry;
  };
  // Builds take tens of milliseconds: both sides get enough warm-up builds to reach their optimised
  // code (one is not: the first few builds run in V8's slower tiers), and three times the rounds.
  const build = await compare(
    () => buildBvh({ positions: mesh.positions, indices: mesh.indices.slice() }),
    () => new MeshBVH(geometryOf(mesh.indices.slice())),
    3 * rounds,
    BUILD_WARMUP,
  );
  const ours = buildBvh(mesh),
    peer = new MeshBVH(geometryOf(mesh.indices.slice()));
  const rays = raysFor(mesh, rayCount);
  const ray = new Ray(),
    o = new Vector3(),
    d = new Vector3();
  const castOurs = () => {
    for (let r = 0; r < rayCount; r++)
      raycastFirst(ours, mesh, [rays[r * 6]!, rays[r * 6 + 1]!, rays[r * 6 + 2]!], [rays[r * 6 + 3]!, rays[r * 6 + 4]!, rays[r * 6 + 5]!]);
  };
  const castPeer = () => {
    for (let r = 0; r < rayCount; r++) {
      ray.set(o.set(rays[r * 6]!, rays[r * 6 + 1]!, rays[r * 6 + 2]!), d.set(rays[r * 6 + 3]!, rays[r * 6 + 4]!, rays[r * 6 + 5]!));
      peer.raycastFirst(ray, DoubleSide);
    }
  };
  const cast = await compare(castOurs, castPeer, rounds);
  let disagreements = 0;
  for (let r = 0; r < rayCount; r++) {
    const a = raycastFirst(
      ours,
      mesh,
      [rays[r * 6]!, rays[r * 6 + 1]!, rays[r * 6 + 2]!],
      [rays[r * 6 + 3]!, rays[r * 6 + 4]!, rays[r * 6 + 5]!],
    );
    ray.set(o.set(rays[r * 6]!, rays[r * 6 + 1]!, rays[r * 6 + 2]!), d.set(rays[r * 6 + 3]!, rays[r * 6 + 4]!, rays[r * 6 + 5]!));
    const b = peer.raycastFirst(ray, DoubleSide);
    if ((a === undefined) !== (b == null) || (a && b && Math.abs(a.distance - b.distance) > 1e-3)) disagreements++;
  }
  const perRay = (s: Sample): Sample => ({
    median: (s.median * 1000) / rayCount,
    min: (s.min * 1000) / rayCount,
    max: (s.max * 1000) / rayCount,
    runs: s.runs,
  });
  return {
    scene,
    triangles: mesh.indices.length / 3,
    rays: rayCount,
    buildOurs: build.ours,
    buildPeer: build.peer,
    buildRatio: build.ratio,
    rayOursUs: perRay(cast.ours),
    rayPeerUs: perRay(cast.peer),
    rayRatio: cast.ratio,
    disagreements,
  };
}
