import { MeshoptSimplifier } from 'meshoptimizer';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { MeshSimplification } from '../src/budget/MeshSimplification.js';
import { measureDeviation } from '../src/budget/measureDeviation.js';
import type { SceneMesh } from '../src/scene/SceneData.js';
import { buildBvh, nearestDistance, type TriangleMesh } from '@arsession/geometry';

beforeAll(async () => {
  await MeshoptSimplifier.ready;
});

/** A wavy square terrain of `n` × `n` quads, 10 cm apart, rows laid out in order (as a merge lays elements). */
function terrain(n: number, amplitude: number, wavelength: number): SceneMesh {
  const positions = new Float32Array((n + 1) * (n + 1) * 3);
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) {
      const v = (i * (n + 1) + j) * 3;
      positions.set([i * 0.1, amplitude * Math.sin((i * 0.1) / wavelength) * Math.cos((j * 0.1) / wavelength), j * 0.1], v);
    }
  }
  const indices = new Uint32Array(n * n * 6);
  for (let i = 0, k = 0; i < n; i++) {
    for (let j = 0; j < n; j++, k += 6) {
      const a = i * (n + 1) + j,
        c = a + n + 1;
      indices.set([a, c, a + 1, a + 1, c, c + 1], k);
    }
  }
  return { name: 'terrain', positions, indices, material: 0 };
}

/** Edges used by one triangle only, as their two end points. */
function openEdges(mesh: SceneMesh): Array<[number[], number[]]> {
  const uses = new Map<string, number>();
  const key = (a: number, b: number) => (a < b ? `${a},${b}` : `${b},${a}`);
  for (let t = 0; t < mesh.indices.length; t += 3) {
    for (const [a, b] of [
      [0, 1],
      [1, 2],
      [2, 0],
    ] as const) {
      const k = key(mesh.indices[t + a]!, mesh.indices[t + b]!);
      uses.set(k, (uses.get(k) ?? 0) + 1);
    }
  }
  const at = (v: number) => [...mesh.positions.subarray(v * 3, v * 3 + 3)];
  return [...uses]
    .filter(([, n]) => n === 1)
    .map(([k]) => k.split(',').map(Number))
    .map(([a, b]) => [at(a!), at(b!)]);
}

describe('MeshSimplification of a mesh larger than one simplifier call takes', () => {
  it("is simplified in runs that meet without a crack: every open edge of the result is on the terrain's own border", () => {
    // 350 × 350 quads: 245,000 triangles, over the 200,000 one call takes.
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 0.5, noNaN: true }), fc.double({ min: 2, max: 8, noNaN: true }), (amplitude, wavelength) => {
        const n = 350,
          side = n * 0.1;
        const mesh = terrain(n, amplitude, wavelength);
        const work = new MeshSimplification(mesh);
        work.tighten(0.01);
        expect(work.triangles).toBeLessThan(mesh.indices.length / 3 / 4);
        const onBorder = (p: number[]) =>
          Math.abs(p[0]!) < 1e-4 || Math.abs(p[0]! - side) < 1e-3 || Math.abs(p[2]!) < 1e-4 || Math.abs(p[2]! - side) < 1e-3;
        for (const [a, b] of openEdges(work.result()))
          expect(onBorder(a) && onBorder(b), `open edge ${a} – ${b} inside the terrain`).toBe(true);
      }),
      { numRuns: 3 },
    );
  });
});

/**
 * Pipe elbows (a quarter torus each: bend radius 0.3 m, 24 × 40 quads) of the given pipe radii,
 * flat-shaded as BIM exports them (every triangle its own corners), one merged mesh, one element each.
 */
function elbows(radii: number[]): SceneMesh {
  const positions: number[] = [],
    indices: number[] = [];
  const elements = [];
  for (const [k, radius] of radii.entries()) {
    const firstTriangle = indices.length / 3;
    const at = (i: number, j: number) => {
      const a = (Math.PI / 2) * (i / 40),
        b = (2 * Math.PI * j) / 24,
        r = 0.3 + radius * Math.cos(b);
      return [r * Math.cos(a), k * 0.5 + radius * Math.sin(b), r * Math.sin(a)];
    };
    for (let i = 0; i < 40; i++) {
      for (let j = 0; j < 24; j++) {
        const quad = [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)];
        for (const c of [0, 1, 2, 0, 2, 3]) {
          indices.push(positions.length / 3);
          positions.push(...quad[c]!);
        }
      }
    }
    elements.push({ firstTriangle, triangleCount: indices.length / 3 - firstTriangle, metadata: { name: `elbow ${k}` } });
  }
  return { name: 'elbows', positions: new Float32Array(positions), indices: new Uint32Array(indices), material: 0, elements };
}

/** Triangles of each element of a delivered mesh, by name. */
function trianglesByName(mesh: SceneMesh): Record<string, number> {
  return Object.fromEntries(mesh.elements!.map((e) => [e.metadata.name, e.triangleCount]));
}

describe('MeshSimplification reduced whatever the error (the last resort)', () => {
  it('reaches about its target on a mesh larger than one simplifier call takes, in runs, without leaving nothing', () => {
    const mesh = terrain(350, 0.3, 4);
    for (const target of [50_000, 5_000, 100]) {
      const work = new MeshSimplification(mesh);
      work.reduceTo(target);
      expect(work.triangles).toBeGreaterThan(0);
      expect(work.triangles).toBeLessThanOrEqual(target);
      expect(work.triangles).toBeGreaterThan(target / 2);
    }
  });
});

/** A flat-shaded box (every face its own corners), each face split into `n` × `n` quads. */
function box(size: [number, number, number], n: number): SceneMesh {
  const positions: number[] = [],
    indices: number[] = [];
  for (const [a, b, c] of [
    [0, 1, 2],
    [1, 2, 0],
    [2, 0, 1],
  ] as const) {
    for (const side of [0, 1]) {
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const base = positions.length / 3;
          for (const [u, w] of [
            [i, j],
            [i + 1, j],
            [i + 1, j + 1],
            [i, j + 1],
          ] as const) {
            const v = [0, 0, 0];
            v[a] = (u / n) * size[a];
            v[b] = (w / n) * size[b];
            v[c] = side * size[c];
            positions.push(...v);
          }
          indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
        }
      }
    }
  }
  return { name: 'box', positions: new Float32Array(positions), indices: new Uint32Array(indices), material: 0 };
}

describe('MeshSimplification reduced below what its shape allows', () => {
  it('a part that may not vanish, asked for fewer triangles than any collapse leaves, keeps a few, not its whole shape', () => {
    // A rail fastening's size, its faces split as an exporter might: 216 triangles.
    const fastening = box([0.16, 1.9, 0.04], 3);
    for (const target of [1, 2, 3]) {
      const work = new MeshSimplification(fastening);
      work.reduceTo(target);
      expect(work.triangles).toBeGreaterThan(0);
      expect(work.triangles).toBeLessThanOrEqual(24);
    }
    // One that may vanish may come to nothing.
    const small = new MeshSimplification(fastening, true);
    small.reduceTo(1);
    expect(small.triangles).toBeLessThanOrEqual(24);
  });
});

describe('MeshSimplification bounding how far its parts stray', () => {
  it(
    'keeps an elbow whose chords stray beyond the cap finer, and only that one: the ' +
      'stray it reports is within the cap, and no independent measurement finds more',
    () => {
      // A thin pipe (3 cm) strays far beyond the error at which it is simplified; a flat one (1 mm) cannot stray much.
      const mesh = elbows([0.03, 0.001, 0.03]);
      fc.assert(
        fc.property(fc.double({ min: 0.004, max: 0.03, noNaN: true }), fc.double({ min: 0.004, max: 0.02, noNaN: true }), (error, cap) => {
          const work = new MeshSimplification(mesh);
          work.tighten(error);
          const before = trianglesByName(work.result());
          const unbound = measureDeviation(mesh, work.result(), { samples: 1e9 }).simplifiedToFull;
          const stray = work.boundStray(cap, error);
          expect(stray).toBeLessThanOrEqual(cap);
          const result = work.result();
          expect(measureDeviation(mesh, result, { samples: 1e9 }).simplifiedToFull).toBeLessThanOrEqual(stray + 1e-6);
          const after = trianglesByName(result);
          // Every elbow is still there; the flat one as it was, whatever became of the thin ones.
          expect(Object.keys(after)).toEqual(['elbow 0', 'elbow 1', 'elbow 2']);
          expect(after['elbow 1']).toBe(before['elbow 1']);
          if (unbound > cap) expect(after['elbow 0']! + after['elbow 2']!).toBeGreaterThan(before['elbow 0']! + before['elbow 2']!);
        }),
        { numRuns: 12 },
      );
    },
  );

  it('at an error where the thin elbow strays beyond the cap, keeps it finer', () => {
    const mesh = elbows([0.03, 0.001]);
    const work = new MeshSimplification(mesh);
    work.tighten(0.02);
    expect(measureDeviation(mesh, work.result(), { samples: 1e9 }).simplifiedToFull).toBeGreaterThan(0.01);
    const before = trianglesByName(work.result());
    expect(work.boundStray(0.01, 0.02)).toBeLessThanOrEqual(0.01);
    const after = trianglesByName(work.result());
    expect(after['elbow 0']).toBeGreaterThan(before['elbow 0']!);
    expect(after['elbow 1']).toBe(before['elbow 1']);
  });

  it('leaves a mesh within the cap as it is, and says how far it strays', () => {
    const mesh = elbows([0.03, 0.03]);
    const work = new MeshSimplification(mesh);
    work.tighten(0.004);
    const before = work.triangles;
    const unbound = measureDeviation(mesh, work.result(), { samples: 1e9 }).simplifiedToFull;
    expect(work.boundStray(1, 0.004)).toBeCloseTo(unbound, 6);
    expect(work.triangles).toBe(before);
  });

  it('never welds two elements: however far it is simplified, every triangle stays within one element', () => {
    // Two elbows in one place: every position of one is a position of the other.
    const one = elbows([0.03]);
    const mesh: SceneMesh = {
      ...one,
      positions: new Float32Array([...one.positions, ...one.positions]),
      indices: new Uint32Array([...one.indices, ...one.indices.map((v) => v + one.positions.length / 3)]),
      elements: [one.elements![0]!, { ...one.elements![0]!, firstTriangle: one.indices.length / 3, metadata: { name: 'twin' } }],
    };
    for (const error of [0.002, 0.01, 0.05]) {
      const work = new MeshSimplification(mesh);
      work.tighten(error);
      const result = work.result();
      const elementOf = new Map<number, number>();
      result.elements!.forEach((e, k) => {
        for (let i = e.firstTriangle * 3; i < (e.firstTriangle + e.triangleCount) * 3; i++) {
          const v = result.indices[i]!;
          expect(elementOf.get(v) ?? k, `vertex ${v} in two elements`).toBe(k);
          elementOf.set(v, k);
        }
      });
      expect(result.elements!.map((e) => e.triangleCount)).toEqual([
        result.elements![0]!.triangleCount,
        result.elements![0]!.triangleCount,
      ]);
    }
  });
});

/** Farthest point of a dense barycentric grid on every triangle of `from` from the surface `to`. */
function denseFarthest(from: TriangleMesh, to: TriangleMesh, steps: number): number {
  const bvh = buildBvh(to),
    p = from.positions,
    idx = from.indices;
  let worst = 0;
  for (let t = 0; t < idx.length; t += 3) {
    const [a, b, c] = [idx[t]! * 3, idx[t + 1]! * 3, idx[t + 2]! * 3];
    for (let i = 0; i <= steps; i++) {
      for (let j = 0; i + j <= steps; j++) {
        const u = i / steps,
          v = j / steps,
          w = 1 - u - v;
        const at = (k: number) => w * p[a + k]! + u * p[b + k]! + v * p[c + k]!;
        worst = Math.max(worst, nearestDistance(bvh, to, at(0), at(1), at(2), worst));
      }
    }
  }
  return worst;
}

describe('MeshSimplification reporting how far it strays', () => {
  it('reports upper bounds both ways: no dense sample of the delivered surface, nor of the full one, is farther from the other', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.002, max: 0.05, noNaN: true }),
        fc.double({ min: 0.02, max: 0.2, noNaN: true }),
        (error, amplitude) => {
          const mesh = terrain(24, amplitude, 0.3);
          const work = new MeshSimplification(mesh);
          work.tighten(error);
          const delivered = work.result();
          const stray = work.stray(),
            uncovered = work.uncovered(200);
          expect(denseFarthest(delivered, mesh, 10)).toBeLessThanOrEqual(stray + 1e-6);
          expect(denseFarthest(mesh, delivered, 6)).toBeLessThanOrEqual(uncovered + 1e-6);
          // Bounds, not guesses: near what the densest sampling finds.
          expect(stray).toBeLessThanOrEqual(denseFarthest(delivered, mesh, 24) * 1.1 + 1e-3);
        },
      ),
      { numRuns: 8 },
    );
  });
});

/**
 * A wall piece of the Revit restaurant as exported (feet): 3.54 × 0.71 × 7.92, its two long
 * sides 0.02 thick round a pocket open at one end. Flat-shaded, 28 triangles.
 */
function thinWall(): SceneMesh {
  const value: Record<string, number> = { X: 1.7708333, x: 1.75, Y: 0.3541667, Z: 3.9583333, z: 3.9166667 };
  const at = (symbol: string) => (symbol.startsWith('-') ? -value[symbol.slice(1)]! : value[symbol]!);
  const triangles = [
    '-X Y -Z, -x Y -Z, -x -Y -Z',
    'X Y -Z, X -Y -Z, x -Y -Z',
    'x -Y -Z, x Y -Z, X Y -Z',
    '-x -Y -Z, -X -Y -Z, -X Y -Z',
    '-x Y z, -X Y Z, X Y Z',
    'X Y Z, X Y -Z, x Y z',
    'X Y Z, x Y z, -x Y z',
    'X Y -Z, x Y -Z, x Y z',
    '-X Y -Z, -X Y Z, -x Y z',
    '-x Y z, -x Y -Z, -X Y -Z',
    'x -Y z, x -Y -Z, X -Y -Z',
    'X -Y -Z, X -Y Z, x -Y z',
    '-X -Y -Z, -x -Y -Z, -x -Y z',
    'X -Y Z, -X -Y Z, -x -Y z',
    '-x -Y z, -X -Y Z, -X -Y -Z',
    '-x -Y z, x -Y z, X -Y Z',
    '-x Y -Z, -x Y z, -x -Y -Z',
    '-x -Y -Z, -x Y z, -x -Y z',
    '-x Y z, x -Y z, -x -Y z',
    '-x Y z, x Y z, x -Y z',
    'x Y z, x Y -Z, x -Y z',
    'x -Y z, x Y -Z, x -Y -Z',
    'X -Y Z, X Y Z, -X Y Z',
    'X -Y Z, -X Y Z, -X -Y Z',
    '-X Y -Z, -X -Y Z, -X Y Z',
    '-X Y -Z, -X -Y -Z, -X -Y Z',
    'X -Y -Z, X Y Z, X -Y Z',
    'X -Y -Z, X Y -Z, X Y Z',
  ];
  const corners = triangles.flatMap((t) => t.split(', ').flatMap((corner) => corner.split(' ').map(at)));
  return {
    name: 'wall',
    positions: new Float32Array(corners),
    indices: Uint32Array.from({ length: corners.length / 3 }, (_, v) => v),
    material: 0,
  };
}

describe('MeshSimplification.boundUncovered', () => {
  it('keeps finer a thin wall that rounds folded away to its end, within the cap both ways', () => {
    const w = new MeshSimplification(thinWall());
    const rounds = [0.0033, 0.005, 0.0075, 0.011, 0.017, 0.025, 0.038];
    for (const error of rounds) w.tighten(error);
    const error = rounds.at(-1)!,
      cap = 4 * error;
    // Folded: what is left lies on the wall, and 7.9 of its 7.92 are gone.
    expect(w.stray()).toBeLessThan(cap);
    expect(w.uncovered(64)).toBeGreaterThan(7);
    expect(w.boundUncovered(cap, error)).toBe(true);
    expect(w.uncovered(64)).toBeLessThanOrEqual(cap);
    expect(w.stray()).toBeLessThanOrEqual(cap);
    expect(w.triangles).toBeLessThanOrEqual(28);
    // Nothing left to keep finer until the triangles change again.
    expect(w.boundUncovered(cap, error)).toBe(false);
  });

  it('after any rounds, leaves no point of the wall farther than the cap from what is delivered', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.001, max: 0.2, noNaN: true }), { minLength: 1, maxLength: 8 }), (errors) => {
        const w = new MeshSimplification(thinWall());
        const rounds = [...errors].sort((a, b) => a - b);
        for (const error of rounds) w.tighten(error);
        const error = rounds.at(-1)!,
          cap = 4 * error;
        w.boundUncovered(cap, error);
        expect(w.uncovered(64)).toBeLessThanOrEqual(cap);
      }),
      { numRuns: 40 },
    );
  });
});
