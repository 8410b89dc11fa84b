import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Companion } from '../src/budget/drawnTogether.js';
import { elementGroups } from '../src/budget/elementGroups.js';

const companion = (mesh: number): Companion => ({ mesh, toFrame: new Float64Array(16) });
const drawnWith = (entries: Array<[number, number[]]>) => new Map(entries.map(([m, cs]) => [m, cs.map(companion)]));

describe('elementGroups', () => {
  it("groups an element's meshes drawn together and nowhere else, a member drawn twice beside its lead included", () => {
    // Frame 0 with glass 1 (drawn twice in each window) and handle 2, in 5 windows.
    const companions = drawnWith([
      [0, [1, 1, 2]],
      [1, [0, 1, 2]],
      [2, [0, 1, 1]],
    ]);
    expect(elementGroups(companions, [5, 10, 5], [0, 1, 2])).toEqual([{ lead: 0, members: [1, 2] }]);
  });

  it('leaves alone a member drawn elsewhere too, one already in a group, or one not among the meshes asked for', () => {
    const companions = drawnWith([[0, [1]]]);
    expect(elementGroups(companions, [5, 6], [0, 1])).toEqual([]);
    expect(elementGroups(companions, [5, 5], [0])).toEqual([]);
    // Mesh 3's companion 1 is taken by lead 0 first.
    const shared = drawnWith([
      [0, [1]],
      [3, [1]],
    ]);
    expect(elementGroups(shared, [5, 5, 0, 5], [0, 1, 3])).toEqual([{ lead: 0, members: [1] }]);
  });

  it('every mesh is in one group at most, and each member is drawn as often as its lead times its draws beside it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 4 }), { minLength: 8, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 8, maxLength: 8 }),
        (lists, uses) => {
          const companions = drawnWith(lists.map((cs, m) => [m, cs]));
          const groups = elementGroups(companions, uses, [0, 1, 2, 3, 4, 5, 6, 7]);
          const seen = new Set<number>();
          for (const { lead, members } of groups) {
            for (const m of [lead, ...members]) {
              expect(seen.has(m)).toBe(false);
              seen.add(m);
            }
            const drawn = lists[lead]!;
            expect(drawn).not.toContain(lead);
            for (const m of members) expect(uses[m]).toBe(uses[lead]! * drawn.filter((c) => c === m).length);
          }
        },
      ),
    );
  });
});
