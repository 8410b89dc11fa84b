import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IfcElementCounter, runConversion } from '../src/index.js';
import { corpusBytes, corpusFiles } from '../../../test/support/corpus.js';

const encoder = new TextEncoder();

/** The count of `text` fed in the given chunk sizes (cycled). */
function countIn(text: string | Uint8Array, sizes: readonly number[] = [1 << 20]): number {
  const bytes = typeof text === 'string' ? encoder.encode(text) : text;
  const counter = new IfcElementCounter();
  for (let at = 0, k = 0; at < bytes.length; k++) {
    const size = Math.max(1, sizes[k % sizes.length]!);
    counter.feed(bytes.subarray(at, at + size));
    at += size;
  }
  return counter.elements();
}

/** A statement of `type` as an exporter may write it: spacing and letter case vary. */
const statement = fc
  .record({
    id: fc.nat(99999),
    type: fc.constantFrom(
      'IFCPRODUCTDEFINITIONSHAPE',
      'IFCOPENINGELEMENT',
      'IFCSPACE',
      'IFCWALL',
      'IFCPRODUCTDEFINITIONSHAPES',
      'IFCSHAPE',
    ),
    lower: fc.boolean(),
    before: fc.constantFrom('', ' ', '\n', '\t '),
    after: fc.constantFrom('', ' ', '\r\n'),
    text: fc.constantFrom('', "'a=IFCPRODUCTDEFINITIONSHAPE(''x'')'", '/* #1=IFCPRODUCTDEFINITIONSHAPE( */'),
  })
  .map((s) => ({
    ...s,
    line: `#${s.id}=${s.before}${s.lower ? s.type.toLowerCase() : s.type}${s.after}($,${s.text},(#1));\n`,
  }));

describe('IfcElementCounter', () => {
  it('counts product shapes less openings and spaces, wherever the chunks end, whatever strings and comments hold', () => {
    fc.assert(
      fc.property(fc.array(statement, { maxLength: 40 }), fc.array(fc.integer({ min: 1, max: 17 }), { minLength: 1 }), (lines, sizes) => {
        const text = `ISO-10303-21;\nDATA;\n${lines.map((l) => l.line).join('')}ENDSEC;\n`;
        const of = (type: string) => lines.filter((l) => l.type === type).length;
        const expected = Math.max(0, of('IFCPRODUCTDEFINITIONSHAPE') - of('IFCOPENINGELEMENT') - of('IFCSPACE'));
        expect(countIn(text)).toBe(expected);
        expect(countIn(text, sizes)).toBe(expected);
      }),
    );
  });

  it('reads nothing inside a string or a comment, and an unclosed one to the end', () => {
    expect(countIn("#1=IFCPRODUCTDEFINITIONSHAPE($,$,(#2));#3=IFCLABEL('it''s =IFCPRODUCTDEFINITIONSHAPE(');")).toBe(1);
    expect(countIn('/* #1=IFCPRODUCTDEFINITIONSHAPE( **/#2=IFCPRODUCTDEFINITIONSHAPE ($);')).toBe(1);
    expect(countIn("#1=IFCLABEL('#2=IFCPRODUCTDEFINITIONSHAPE(")).toBe(0);
  });

  it.each(corpusFiles('ifc').filter((f) => f.endsWith('.ifc')))(
    'ifc/%s: as many as the elements a conversion reads, or a few more (shapes not drawn)',
    async (name) => {
      const bytes = corpusBytes('ifc', name);
      const { stats } = await runConversion({ bytes, fileName: name, outputs: [], budget: false });
      const estimate = countIn(bytes, [4093]);
      expect(estimate).toBeGreaterThanOrEqual(stats.elements);
      expect(estimate).toBeLessThanOrEqual(Math.ceil(1.2 * stats.elements));
    },
  );
});
