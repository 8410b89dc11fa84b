import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AsciiWriter } from '../src/write/AsciiWriter.js';
import { primName, quote } from '../src/write/usdaText.js';

const POWERS = [1, 10, 100, 1e3, 1e4, 1e5, 1e6];
const ZEROS = '000000';

/**
 * The reference for AsciiWriter's numbers, as strings: at most `decimals` decimals (±half a unit
 * of the last one), no trailing zeros, magnitudes of 10⁹ and more written exactly.
 */
function formatFixed(v: number, decimals: number): string {
  const a = v < 0 ? -v : v;
  if (!(a < 1e9)) return String(v);
  const unit = POWERS[decimals]!;
  const scaled = Math.round(a * unit);
  if (scaled === 0) return '0';
  const whole = Math.floor(scaled / unit);
  let frac = scaled - whole * unit;
  const head = v < 0 ? `-${whole}` : `${whole}`;
  if (frac === 0) return head;
  let digits = decimals;
  while (frac % 10 === 0) {
    frac /= 10;
    digits--;
  }
  const tail = `${frac}`;
  return `${head}.${ZEROS.slice(0, digits - tail.length)}${tail}`;
}

describe('USDA text formatting', () => {
  it('formats numbers to the given decimals, without trailing zeros', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.float({ noNaN: true, noDefaultInfinity: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true })),
        fc.constantFrom(4, 5, 6),
        (v, d) => {
          const s = formatFixed(v, d);
          if (Math.abs(v) < 1e9) expect(Math.abs(Number(s) - v)).toBeLessThanOrEqual(0.5 * 10 ** -d + Math.abs(v) * 2 ** -52);
          else expect(Number(s)).toBe(v);
          expect(s).not.toMatch(/\.\d*0$|\.$|^-0$/);
        },
      ),
      { numRuns: 5000 },
    );
    expect([0, -0, 1, -2, 0.5, Math.fround(0.1), 1e-9, -0.0000015, 12345678.25, 3e12].map((v) => formatFixed(v, 6))).toEqual([
      '0',
      '0',
      '1',
      '-2',
      '0.5',
      '0.1',
      '0',
      '-0.000002',
      '12345678.25',
      '3000000000000',
    ]);
    expect([0.91830194, -0.00004, 0.00005].map((v) => formatFixed(v, 4))).toEqual(['0.9183', '0', '0.0001']);
  });

  it('the byte writer writes exactly what formatFixed returns, and integers as digits', () => {
    const w = new AsciiWriter();
    fc.assert(
      fc.property(
        fc.oneof(fc.float({ noNaN: true, noDefaultInfinity: true }), fc.double({ min: -1e10, max: 1e10, noNaN: true })),
        fc.constantFrom(4, 5, 6),
        fc.nat(),
        (v, d, n) => {
          w.tuple([v, v], 0, 2, d).char(32).uints([n]);
          expect(new TextDecoder().decode(w.take())).toBe(`(${formatFixed(v, d)}, ${formatFixed(v, d)}) ${n}`);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('tuples and index lists come out as the number-by-number writers would write them', () => {
    const w = new AsciiWriter();
    const value = fc.oneof(fc.float({ noNaN: true, noDefaultInfinity: true }), fc.double({ min: -1e10, max: 1e10, noNaN: true }));
    fc.assert(
      fc.property(fc.array(value, { minLength: 3, maxLength: 3 }), fc.constantFrom<2 | 3>(2, 3), fc.constantFrom(4, 5, 6), (v, size, d) => {
        w.tuple(v, 0, size, d);
        expect(new TextDecoder().decode(w.take())).toBe(
          `(${v
            .slice(0, size)
            .map((x) => formatFixed(x, d))
            .join(', ')})`,
        );
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.nat(), fc.constant(2 ** 31), fc.constant(2 ** 32 - 1)), { maxLength: 20 }), (v) => {
        w.uints(v);
        expect(new TextDecoder().decode(w.take())).toBe(v.join(', '));
      }),
      { numRuns: 2000 },
    );
  });

  it('makes valid, unique prim names from anything', () => {
    const taken = new Set<string>();
    const names = ['Wand-Int-ERDG-2', 'Wand-Int-ERDG-2', '3D view', '', 'Türe ö', '../../etc'].map((n) => primName(n, taken, 'node'));
    for (const n of names) expect(n).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
    expect(new Set(names).size).toBe(names.length);
  });

  it('quotes strings so they cannot break out of the literal', () => {
    expect(quote('a"b\\c\nd')).toBe('"a\\"b\\\\c\\nd"');
  });
});
