import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SameShapes, sameWords } from '../src/budget/SameShapes.js';

/** The words of an array as numbers, one by one: what `sameWords` must agree with. */
const wordsOf = (a: Float32Array | Uint32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));

/** A view of `words` at an offset into a larger buffer, as web-ifc's memory and scene blocks hand them out. */
function viewAt(words: number[], offset: number): Uint32Array {
  const buffer = new Uint32Array(words.length + offset + 3);
  buffer.set(words, offset);
  return buffer.subarray(offset, offset + words.length);
}

describe('sameWords', () => {
  it('is true exactly when every 32-bit word is the same, short or long, at any offset', () => {
    // Lengths either side of where the comparison goes native.
    const words = fc.array(fc.constantFrom(0, 1, 0x80000000, 0x7fc00000, 0x7fc00001, 0xffffffff), { minLength: 0, maxLength: 200 });
    fc.assert(
      fc.property(words, fc.nat(200), fc.nat(4), fc.nat(4), fc.boolean(), (a, change, offsetA, offsetB, same) => {
        const b: number[] = [...a];
        if (!same && b.length > 0) b[change % b.length] = (b[change % b.length]! + 1) >>> 0;
        const x = viewAt(a, offsetA),
          y = viewAt(b, offsetB);
        expect(sameWords(x, y)).toBe(wordsOf(x).every((w, i) => w === wordsOf(y)[i]) && x.length === y.length);
      }),
      { numRuns: 400 },
    );
  });

  it('tells floats by their bits: -0 from 0, and a NaN from another NaN', () => {
    const long = (v: number) => new Float32Array(100).fill(1).fill(v, 50, 51);
    expect(sameWords(long(0), long(-0))).toBe(false);
    expect(sameWords(long(Number.NaN), long(Number.NaN))).toBe(true);
    const otherNaN = long(Number.NaN);
    new Uint32Array(otherNaN.buffer)[50] = 0x7fc00001;
    expect(sameWords(long(Number.NaN), otherNaN)).toBe(false);
    expect(sameWords(new Float32Array([0]), new Float32Array([-0]))).toBe(false);
  });

  it('never takes arrays of different lengths as the same, even when one begins the other', () => {
    const longer = new Uint32Array(130).fill(7);
    expect(sameWords(longer.subarray(0, 129), longer)).toBe(false);
  });
});

describe('SameShapes', () => {
  it('finds a value by a copy of the mesh and surface, and not by a mesh one word off', () => {
    const mesh = { positions: new Float32Array(300).map((_, i) => i * 0.5), indices: new Uint32Array(300).map((_, i) => i % 100) };
    const surface = { positions: mesh.positions.slice(), indices: mesh.indices.slice() };
    const kept = new SameShapes<string>();
    kept.add(mesh, surface, 'measured');
    expect(kept.find({ positions: mesh.positions.slice(), indices: mesh.indices.slice() }, surface)).toBe('measured');
    const moved = mesh.positions.slice();
    moved[123] = moved[123]! + 0.25;
    expect(kept.find({ positions: moved, indices: mesh.indices }, surface)).toBeUndefined();
  });
});
