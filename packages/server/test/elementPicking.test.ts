// The session page's picking, in Node: what it reads of a preview GLB, and its ray test.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AR_BUDGET_DEFAULTS, fitArBudget, readModel, storeyVariants, writeGlb } from '@arsession/convert';
import { corpusBytes } from '../../../test/support/corpus.js';
// @ts-expect-error: a plain ES module served to the browser, without types
import { pick, readPickable } from '../assets/element-picking.js';

interface Pickable {
  triangles: Float64Array;
  element: Int32Array;
  hiddenIn: Int32Array;
  elements: Array<{ globalId: string; ifcClass: string; name: string }>;
  variants: string[];
}
const readPickableTyped = readPickable as (bytes: Uint8Array) => Pickable;
const pickTyped = pick as (
  p: Pickable,
  origin: number[],
  direction: number[],
  variant?: number,
) => { globalId: string; distance: number } | null;

describe('element picking on the session page', () => {
  it('reads every triangle of AC20’s preview with its element and the storeys that hide it', async () => {
    const scene = await readModel(corpusBytes('ifc', 'AC20-FZK-Haus.ifc'), { fileName: 'AC20-FZK-Haus.ifc' });
    const delivered = (await fitArBudget(scene, AR_BUDGET_DEFAULTS)).scene;
    const glb = new Uint8Array(Buffer.concat(storeyVariants(await writeGlb(delivered))));
    const pickable = readPickableTyped(glb);
    expect(pickable.element.length).toBe(delivered.stats.triangles);
    expect([...pickable.element].every((e) => e >= 0)).toBe(true);
    expect(pickable.variants).toEqual(['Erdgeschoss', 'Dachgeschoss', 'Gelaende']);
    // Each triangle is drawn in exactly one storey's variant: hidden in the others.
    const all = (1 << pickable.variants.length) - 1;
    for (const mask of pickable.hiddenIn) expect([all ^ 1, all ^ 2, all ^ 4]).toContain(mask);
    // Straight down through the middle of the house: the roof, or with the ground floor alone, the ground floor.
    const { min, max } = delivered.bounds;
    const above = [(min[0] + max[0]) / 2, max[1] + 10, (min[2] + max[2]) / 2];
    const roof = pickTyped(pickable, above, [0, -1, 0])!;
    const ground = pickTyped(pickable, above, [0, -1, 0], 0)!;
    const storeyOf = (globalId: string) => scene.nodes.find((n) => n.metadata.globalId === globalId)?.metadata.storey;
    expect(storeyOf(roof.globalId)).toBe('Dachgeschoss');
    expect(storeyOf(ground.globalId)).toBe('Erdgeschoss');
    expect(ground.distance).toBeGreaterThan(roof.distance);
  });

  it('pick: a ray aimed at a point inside a triangle hits it at that distance; one aimed beside it misses', () => {
    const coordinate = fc.integer({ min: -1000, max: 1000 }).map((x) => x / 100);
    const point = fc.tuple(coordinate, coordinate, coordinate);
    fc.assert(
      fc.property(
        point,
        point,
        point,
        point,
        fc.double({ min: 0.05, max: 0.9 }),
        fc.double({ min: 0.05, max: 0.9 }),
        (a, b, c, origin, s, t) => {
          const [u, v] = s + t < 0.95 ? [s, t] : [s / 2, t / 2];
          const normal = [
            (b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]),
            (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]),
            (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]),
          ];
          const area = Math.hypot(...normal);
          fc.pre(area > 0.5);
          const inside = [0, 1, 2].map((k) => a[k]! + u * (b[k]! - a[k]!) + v * (c[k]! - a[k]!));
          const to = inside.map((x, k) => x - origin[k]!);
          const distance = Math.hypot(...to);
          fc.pre(distance > 0.1);
          // A ray along the triangle's plane grazes it: no hit is a fair answer.
          fc.pre(Math.abs(normal.reduce((d, n, k) => d + n * to[k]!, 0)) / (area * distance) > 0.05);
          const pickable: Pickable = {
            triangles: Float64Array.from([...a, ...b, ...c]),
            element: Int32Array.from([0]),
            hiddenIn: Int32Array.from([0]),
            elements: [{ globalId: 'x', ifcClass: 'IfcWall', name: 'w' }],
            variants: [],
          };
          const hit = pickTyped(
            pickable,
            origin,
            to.map((x) => x / distance),
          );
          expect(hit?.globalId).toBe('x');
          expect(hit!.distance).toBeCloseTo(distance, 6);
          // Away from the triangle: straight back.
          expect(
            pickTyped(
              pickable,
              origin,
              to.map((x) => -x / distance),
            ),
          ).toBeNull();
        },
      ),
    );
  });
});
