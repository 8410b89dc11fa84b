import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plateFaces } from '../src/budget/plateFaces.js';
import type { SceneMesh } from '../src/scene/SceneData.js';
import { box, distanceTo, joinedAll, pointsOn } from './support/meshes.js';

/** A ceiling `w` × `d`, `t` thick (along z), with a square hole of side `hole` in the middle: four boxes round it. */
function ceilingWithHole(w: number, d: number, t: number, hole: number): SceneMesh {
  const [x0, x1, y0, y1] = [(w - hole) / 2, (w + hole) / 2, (d - hole) / 2, (d + hole) / 2];
  return joinedAll([box([0, 0, 0], [x0, d, t]), box([x1, 0, 0], [w, d, t]), box([x0, 0, 0], [x1, y0, t]), box([x0, y1, 0], [x1, d, t])]);
}

/** The triangles of `mesh` whose flag in `pick` is 1. */
function picked(mesh: SceneMesh, pick: Uint8Array): SceneMesh {
  return { ...mesh, indices: mesh.indices.filter((_, i) => pick[Math.floor(i / 3)] === 1) };
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
          const kept = picked(ceiling, faces.keep);
          for (const [x, y, z] of pointsOn(
            picked(
              ceiling,
              faces.keep.map((k) => 1 - k),
            ),
            24,
          ))
            expect(distanceTo(kept, x, y, z)).toBeLessThanOrEqual(faces.uncovered + 1e-5);
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
