import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ArrayBlocks } from '../src/scene/ArrayBlocks.js';

describe('ArrayBlocks: typed arrays carved from shared blocks', () => {
  it('hands out zeroed arrays of the asked length that never overlap', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 600 })), { maxLength: 60 }), (requests) => {
        const blocks = new ArrayBlocks({ blockBytes: 4096 });
        const arrays = requests.map(([float, n]) => (float ? blocks.floats(n) : blocks.uints(n)));
        arrays.forEach((a, i) => {
          expect(a.length).toBe(requests[i]![1]);
          expect(a.every((v) => v === 0)).toBe(true);
          a.fill(i + 1); // each writes its own mark; an overlap would overwrite another's
        });
        arrays.forEach((a, i) => expect(a.every((v) => v === i + 1)).toBe(true));
      }),
    );
  });

  it('shares a block between small arrays and gives a large one a buffer of its own', () => {
    const blocks = new ArrayBlocks({ blockBytes: 4096 });
    const a = blocks.floats(10),
      b = blocks.uints(10),
      large = blocks.floats(300);
    expect(a.buffer).toBe(b.buffer);
    expect(b.byteOffset).toBe(40);
    expect(large.buffer).not.toBe(a.buffer);
    expect(large.byteOffset).toBe(0);
  });
});
