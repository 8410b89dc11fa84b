import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupBy } from '../src/budget/groupBy.js';

describe('groupBy', () => {
  it('lists every item whose key is a group, group by group, in item order; others nowhere', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 12 }), fc.array(fc.integer({ min: -2, max: 14 }), { maxLength: 200 }), (groups, keys) => {
      const { start, order } = groupBy(Int32Array.from(keys), groups);
      expect(start.length).toBe(groups + 1);
      for (let g = 0; g < groups; g++) {
        const expected = keys.flatMap((k, i) => (k === g ? [i] : []));
        expect(Array.from(order.subarray(start[g]!, start[g + 1]!))).toEqual(expected);
      }
      expect(order.length).toBe(keys.filter((k) => k >= 0 && k < groups).length);
    }));
  });
});
