import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alikeMaterials, materialsAfterMerges } from '../src/budget/alikeMaterials.js';
import { mergeToPrimBudget } from '../src/budget/mergeToPrimBudget.js';
import { drawCalls } from '../src/scene/sceneStats.js';
import { colouredSquares } from './support/plainScene.js';

const channel = fc.double({ min: 0, max: 1, noNaN: true });
const look = fc.record({ colour: fc.tuple(channel, channel, channel), size: fc.double({ min: 0.1, max: 10, noNaN: true }) });

describe('alikeMaterials: the order in which plain materials are made one', () => {
  it('makes one no more materials than the prims ask, each drawn in a look the model had', () => {
    fc.assert(
      fc.property(fc.array(look, { minLength: 2, maxLength: 24 }), fc.nat(), (looks, seed) => {
        const meshPrims = 1 + (seed % (looks.length - 1));
        const scene = colouredSquares(looks);
        const { scene: delivered, steps } = mergeToPrimBudget(scene, meshPrims);
        expect(steps).toEqual(['merged', 'materials_merged']);
        expect(drawCalls(delivered)).toBe(meshPrims);
        expect(delivered.materials).toHaveLength(meshPrims);
        for (const material of delivered.materials) expect(scene.materials).toContain(material);
      }),
      { numRuns: 60 },
    );
  });

  it('makes the two nearest looks one first, in the look of the one that covers more', () => {
    // Three pairs of near colours, the second of each pair larger: three prims keep red, green and blue.
    const scene = colouredSquares([
      { colour: [0.8, 0.1, 0.1], size: 1 },
      { colour: [0.1, 0.8, 0.1], size: 1 },
      { colour: [0.1, 0.1, 0.8], size: 1 },
      { colour: [0.75, 0.12, 0.1], size: 3 },
      { colour: [0.12, 0.75, 0.1], size: 3 },
      { colour: [0.1, 0.12, 0.75], size: 3 },
    ]);
    const { scene: delivered } = mergeToPrimBudget(scene, 3);
    expect(delivered.materials.map((m) => m.baseColor)).toEqual(
      expect.arrayContaining([
        [0.75, 0.12, 0.1],
        [0.12, 0.75, 0.1],
        [0.1, 0.12, 0.75],
      ]),
    );
    expect(delivered.materials).toHaveLength(3);
  });

  it('a small part takes the colour of its large neighbour before two large colours become one', () => {
    // A green slab, a blue façade of the same size, and a magenta fixing nearer blue than green:
    // the fixing goes, though the slab and façade are nearer each other than the fixing is to either.
    const merges = alikeMaterials(
      colouredSquares([
        { colour: [0.2, 0.6, 0.2], size: 10 },
        { colour: [0.2, 0.2, 0.6], size: 10 },
        { colour: [0.9, 0.2, 0.9], size: 0.3 },
      ]).materials,
      [100, 100, 0.09],
    );
    expect(merges[0]).toEqual({ into: 1, from: 2 });
    expect(materialsAfterMerges(3, merges, 1)).toEqual(Int32Array.from([0, 1, 1]));
  });

  it('makes materials drawn another way (two-sided) one only after every other', () => {
    const scene = colouredSquares([
      { colour: [0.5, 0.5, 0.5], size: 1, doubleSided: true },
      { colour: [0.5, 0.5, 0.5], size: 1 },
      { colour: [0.9, 0.1, 0.1], size: 5 },
      { colour: [0.1, 0.1, 0.9], size: 5 },
    ]);
    const { scene: delivered } = mergeToPrimBudget(scene, 2);
    expect(delivered.materials.map((m) => m.doubleSided).sort()).toEqual([false, true]);
    const all = mergeToPrimBudget(scene, 1).scene;
    expect(all.materials).toHaveLength(1);
  });
});
