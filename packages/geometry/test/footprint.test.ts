import { describe, expect, it } from 'vitest';
import { DegenerateInputError, footprintPose } from '../src/index.js';

describe('footprintPose', () => {
  it('is the bottom centre of the bounds, not turned', () => {
    const p = footprintPose({ min: [-1, 0.5, -2], max: [3, 2.5, 2] });
    expect(p.position).toEqual([1, 0.5, 0]);
    expect(p.rotation).toEqual([0, 0, 0, 1]);
  });
  it('refuses empty (infinite) and inverted bounds, naming the axis', () => {
    expect(() => footprintPose({ min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] })).toThrow(
      DegenerateInputError,
    );
    expect(() => footprintPose({ min: [0, 2, 0], max: [1, 1, 1] })).toThrow(/axis y has min 2 > max 1/);
  });
});
