import { triangleDistanceSquared } from '@arsession/geometry';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boxProxy } from '../src/budget/boxProxy.js';
import { plateFaces } from '../src/budget/plateFaces.js';
import type { SceneMesh } from '../src/scene/SceneData.js';

type Vec = [number, number, number];

/** An axis-aligned box from `min` to `max`, 12 triangles. */
function box(min: Vec, max: Vec): SceneMesh {
  const unit = boxProxy({ name: '', positions: new Float32Array([0, 0, 0, 1, 1, 1]), indices: new Uint32Array(0), material: 0 });
  return { ...unit, positions: unit.positions.map((v, i) => (v === 0 ? min[i % 3]! : max[i % 3]!)) };
}

/** Meshes as one. */
function joined(...meshes: SceneMesh[]): SceneMesh {
  let first = 0;
  const indices: number[] = [];
  for (const m of meshes) {
    indices.push(...[...m.indices].map((i) => i + first));
    first += m.positions.length / 3;
  }
  return {
    name: 'plate',
    material: 0,
    positions: new Float32Array(meshes.flatMap((m) => [...m.positions])),
    indices: new Uint32Array(indices),
  };
}

/** A ceiling `w` × `d`, `t` thick (along z), with a square hole of side `hole` in the middle: four boxes round it. */
function ceilingWithHole(w: number, d: number, t: number, hole: number): SceneMesh {
  const [x0, x1, y0, y1] = [(w - hole) / 2, (w + hole) / 2, (d - hole) / 2, (d + hole) / 2];
  return joined(box([0, 0, 0], [x0, d, t]), box([x1, 0, 0], [w, d, t]), box([x0, 0, 0], [x1, y0, t]), box([x0, y1, 0], [x1, d, t]));
}

/** Points spread over each triangle of `mesh` whose flag in `pick` is 1. */
function pointsOn(mesh: SceneMesh, pick: Uint8Array, perTriangle: number): Vec[] {
  const out: Vec[] = [];
  const p = mesh.positions;
  for (let t = 0; t < mesh.indices.length / 3; t++) {
    if (!pick[t]) continue;
    const [a, b, c] = [0, 1, 2].map((k) => mesh.indices[t * 3 + k]! * 3) as Vec;
    for (let s = 0; s < perTriangle; s++) {
      let u = (s * 0.618034) % 1,
        v = (s * 0.754878) % 1;
      if (u + v > 1) [u, v] = [1 - u, 1 - v];
      out.push([0, 1, 2].map((k) => p[a + k]! + u * (p[b + k]! - p[a + k]!) + v * (p[c + k]! - p[a + k]!)) as Vec);
    }
  }
  return out;
}

/** Distance from a point to the nearest triangle of `mesh` flagged in `pick`. */
function distanceToPicked(mesh: SceneMesh, pick: Uint8Array, [x, y, z]: Vec): number {
  let best = Number.POSITIVE_INFINITY;
  for (let t = 0; t < mesh.indices.length / 3; t++)
    if (pick[t])
      best = Math.min(
        best,
        triangleDistanceSquared(
          mesh.positions,
          mesh.indices[t * 3]! * 3,
          mesh.indices[t * 3 + 1]! * 3,
          mesh.indices[t * 3 + 2]! * 3,
          x,
          y,
          z,
        ),
      );
  return Math.sqrt(best);
}

describe('plateFaces', () => {
  it('keeps a thin ceiling’s two faces and drops its outline and the sides of its hole, within half its thickness', () => {
    const ceiling = ceilingWithHole(6, 4, 0.05, 0.6);
    const faces = plateFaces(ceiling, 2)!;
    // Four boxes: top and bottom kept (4 triangles each), their eight side triangles dropped.
    expect(faces.kept).toBe(16);
    expect([...faces.keep].filter((k) => k === 0)).toHaveLength(32);
    expect(faces.uncovered).toBeGreaterThanOrEqual(0.025 - 1e-6);
    expect(faces.uncovered).toBeLessThanOrEqual(0.05);
  });

  it('bounds, over whole triangles, how far every point of what it drops lies from what it keeps', () => {
    fc.assert(
      fc.property(
        fc.record({
          w: fc.double({ min: 0.5, max: 20, noNaN: true }),
          d: fc.double({ min: 0.5, max: 20, noNaN: true }),
          t: fc.double({ min: 0.005, max: 0.2, noNaN: true }),
          hole: fc.double({ min: 0.05, max: 0.4, noNaN: true }),
        }),
        ({ w, d, t, hole }) => {
          const ceiling = ceilingWithHole(w, d, t, hole);
          const faces = plateFaces(ceiling, 2)!;
          const dropped = faces.keep.map((k) => 1 - k);
          for (const point of pointsOn(ceiling, dropped, 24))
            expect(distanceToPicked(ceiling, faces.keep, point)).toBeLessThanOrEqual(faces.uncovered + 1e-5);
          // Sound, and not loose: no farther than the plate is thick.
          expect(faces.uncovered).toBeLessThanOrEqual(t * (1 + 1e-5));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('has nothing to give for a mesh with no edge across the axis, or no face across it', () => {
    const sheet: SceneMesh = {
      name: 's',
      material: 0,
      positions: new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0]),
      indices: new Uint32Array([0, 1, 2]),
    };
    expect(plateFaces(sheet, 2)).toBeUndefined();
    expect(plateFaces(sheet, 0)).toBeUndefined();
  });
});
