import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFloat32, primName, quote } from '../src/usdz/usdaText.js';

describe('USDA text formatting', () => {
  it('formats float32 values to the stated relative precision, without trailing zeros', () => {
    fc.assert(fc.property(fc.float({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(7 as const, 8 as const), (v, digits) => {
      const s = formatFloat32(v, digits);
      expect(Math.abs(Number(s) - v)).toBeLessThanOrEqual(5 * 10 ** -digits * Math.abs(v));
      expect(s).not.toMatch(/\.\d*0(e|$)|\.(e|$)/);
    }), { numRuns: 3000 });
    expect([0, -0, 1, -2, 0.5, 0.1, 1e-9, 12345678].map((v) => formatFloat32(Math.fround(v)))).toEqual(['0', '0', '1', '-2', '0.5', '0.1', '1e-9', '1.234568e+7']);
    expect([12345678, -19019500, 0.1].map((v) => formatFloat32(Math.fround(v), 8))).toEqual(['12345678', '-19019500', '0.1']);
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
