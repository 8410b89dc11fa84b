import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Companion } from '../src/budget/drawnTogether.js';
import { groupLayers } from '../src/budget/groupLayers.js';
import { box } from './support/meshes.js';
import { at } from './support/plainScene.js';

/** Each mesh drawn beside every other of the element, where it stands (`offsets[k]`, along z). */
function besideEachOther(meshes: readonly number[], offsets: readonly number[]): Map<number, Companion[]> {
  return new Map(
    meshes.map((m, i) => [m, meshes.flatMap((k, j) => (j === i ? [] : [{ mesh: k, toFrame: at(0, 0, offsets[j]! - offsets[i]!) }]))]),
  );
}

describe('groupLayers', () => {
  it('splits a deep window into its glass and mullion layer and the frame behind it, each led by a mesh drawn once', () => {
    // Frame 0 (10 cm deep) stands 15 cm behind glass 1 and mullion 2 (5 cm deep): 25 cm in all.
    const meshes = [box([0, 0, 0], [1.2, 1.2, 0.1]), box([0.1, 0.1, 0], [1.1, 1.1, 0.01]), box([0.55, 0.1, 0], [0.65, 1.1, 0.05])];
    const companions = besideEachOther([0, 1, 2], [0.15, 0, 0]);
    expect(groupLayers({ lead: 0, members: [1, 2] }, companions, meshes, [4, 4, 4])).toEqual([
      { lead: 0, members: [] },
      { lead: 1, members: [2] },
    ]);
    // Led by the glass instead, the frame is the other layer.
    expect(groupLayers({ lead: 1, members: [0, 2] }, companions, meshes, [4, 4, 4])).toEqual([
      { lead: 1, members: [2] },
      { lead: 0, members: [] },
    ]);
  });

  it('leaves a group whole where no split makes both layers markedly thinner', () => {
    // The glass in the frame's middle: every split leaves a layer as deep as the frame.
    const meshes = [box([0, 0, 0], [1.2, 1.2, 0.1]), box([0.1, 0.1, 0.045], [1.1, 1.1, 0.055])];
    expect(groupLayers({ lead: 0, members: [1] }, besideEachOther([0, 1], [0, 0]), meshes, [3, 3])).toBeUndefined();
  });

  it('finds no second lead where the other layer is only of meshes drawn more than once beside the lead', () => {
    // Two panes (mesh 1, drawn twice beside frame 0) in front of it: mesh 1 cannot lead a layer.
    const meshes = [box([0, 0, 0], [1.2, 1.2, 0.1]), box([0, 0, 0], [0.5, 1.1, 0.01])];
    const companions = new Map<number, Companion[]>([
      [
        0,
        [
          { mesh: 1, toFrame: at(0.1, 0, -0.2) },
          { mesh: 1, toFrame: at(0.6, 0, -0.2) },
        ],
      ],
      [1, [{ mesh: 0, toFrame: at(-0.1, 0, 0.2) }]],
    ]);
    expect(groupLayers({ lead: 0, members: [1] }, companions, meshes, [2, 4])).toBeUndefined();
  });

  it('puts every mesh of the group in one layer, each layer thinner than the whole by the share asked', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ from: fc.double({ min: 0, max: 1, noNaN: true }), deep: fc.double({ min: 0.005, max: 0.3, noNaN: true }) }), {
          minLength: 2,
          maxLength: 6,
        }),
        (slabs) => {
          const meshes = slabs.map(({ from, deep }) => box([0, 0, from], [1, 1, from + deep]));
          const ids = meshes.map((_, k) => k);
          const layers = groupLayers(
            { lead: 0, members: ids.slice(1) },
            besideEachOther(
              ids,
              ids.map(() => 0),
            ),
            meshes,
            ids.map(() => 1),
          );
          if (!layers) return;
          const all = layers.flatMap((l) => [l.lead, ...l.members]).sort((a, b) => a - b);
          expect(all).toEqual(ids);
          expect(layers[0]!.lead).toBe(0);
          const span = (ms: number[]) =>
            Math.max(...ms.map((m) => slabs[m]!.from + slabs[m]!.deep)) - Math.min(...ms.map((m) => slabs[m]!.from));
          for (const l of layers) expect(span([l.lead, ...l.members])).toBeLessThanOrEqual(span(ids) * 0.75 + 1e-9);
        },
      ),
    );
  });
});
