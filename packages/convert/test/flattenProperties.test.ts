import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flattenProperties } from '../src/elements/flattenProperties.js';

const scalar = fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

describe('flattenProperties', () => {
  it('gives only scalars, lists of scalars or JSON text, at most maxProperties of them', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 40 }), (value, maxProperties) => {
        const out = flattenProperties(value, { maxProperties });
        const entries = Object.entries(out);
        expect(entries.length).toBeLessThanOrEqual(maxProperties);
        for (const [, v] of entries) expect(isScalar(v) || (Array.isArray(v) && v.every(isScalar))).toBe(true);
      }),
    );
  });

  it('keeps a flat object of scalars as it is, and each nested value under its dotted path', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), scalar, { maxKeys: 20 }), (flat) => {
        expect(flattenProperties(flat)).toEqual(flat);
        expect(flattenProperties({ outer: flat })).toEqual(Object.fromEntries(Object.entries(flat).map(([k, v]) => [`outer.${k}`, v])));
      }),
    );
  });

  it('a key __proto__ is a property, not a prototype; past maxDepth a value is its JSON text', () => {
    const out = flattenProperties(JSON.parse('{"__proto__": {"polluted": 1}}'));
    expect(Object.hasOwn(out, '__proto__.polluted')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(flattenProperties({ a: { b: { c: 1 } } }, { maxDepth: 1 })).toEqual({ a: '{"b":{"c":1}}' });
    expect(flattenProperties(7)).toEqual({ value: 7 });
    expect(flattenProperties({ long: Array.from({ length: 300 }, () => 1) })).toEqual({});
  });
});
