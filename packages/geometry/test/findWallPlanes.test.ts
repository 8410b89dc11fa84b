import { describe, expect, it } from 'vitest';
import { buildBvh, findWallPlanes } from '../src/index.js';
import { addBox, createSoup, toMesh } from './support/syntheticWall.js';

describe('findWallPlanes', () => {
  // A wall face at z = 0 and, covering most of what the viewer sees of it, panelling 1 cm proud:
  // both fall in one cluster, whose median is the panelling.
  const soup = createSoup();
  addBox(soup, [-4, 0, -0.2], [4, 2.7, 0]);
  addBox(soup, [-1.5, 0, 0], [1.5, 2.4, 0.01]);
  const mesh = toMesh(soup);
  const planes = findWallPlanes(buildBvh(mesh), mesh, [0, 1.6, 2], [0, 0, -1]);

  it('gives the plane at the median of the surfaces a few millimetres apart', () => {
    const plane = planes.find((p) => !p.layer);
    expect(plane?.offset).toBeCloseTo(0.01, 4);
    expect(plane?.normal[2]).toBeCloseTo(1, 6);
  });

  it('and each layer hit often enough as a plane of its own, marked as a layer, with only its own points', () => {
    const wall = planes.find((p) => p.layer && Math.abs(p.offset) < 1e-4);
    expect(wall, `planes at ${planes.map((p) => `${p.offset}${p.layer ? ' (layer)' : ''}`).join(', ')}`).toBeDefined();
    expect(wall!.support).toBe(wall!.triangles.length);
    for (let k = 2; k < wall!.points.length; k += 3) expect(Math.abs(wall!.points[k]!)).toBeLessThan(1e-4);
    expect(wall!.support).toBeLessThan(planes.find((p) => !p.layer)!.support);
  });

  it('splits nothing off a single surface', () => {
    const flat = createSoup();
    addBox(flat, [-4, 0, -0.2], [4, 2.7, 0]);
    const m = toMesh(flat);
    const found = findWallPlanes(buildBvh(m), m, [0, 1.6, 2], [0, 0, -1]);
    expect(found.filter((p) => p.layer)).toEqual([]);
    expect(found.filter((p) => Math.abs(p.normal[2] - 1) < 1e-6)).toHaveLength(1);
  });
});
