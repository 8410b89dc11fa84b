import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkStepSyntax } from '../src/ifc/checkStepSyntax.js';
import { corpusBytes, corpusFiles } from '../../../test/support/corpus.js';

const encode = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
const HEAD = "ISO-10303-21;\r\nHEADER;\nFILE_DESCRIPTION((''),'2;1');\nFILE_SCHEMA(('IFC4'));\nENDSEC;\nDATA;\n";
const TAIL = 'ENDSEC;\nEND-ISO-10303-21;\n';
const file = (data: string) => encode(`${HEAD}${data}\n${TAIL}`);
/** The 1-based line of `text`'s first `needle`, as an editor counts it. */
const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

// Parameters as IFC exporters write them, including the bytes the check must not be fooled by:
// parentheses, semicolons, '#' and doubled quotes inside strings and comments, a quote taken by
// \S\ as its character, line breaks anywhere.
const blank = fc.constantFrom('', ' ', '\n', '\r\n', " /* a ; ( # ' comment */ ");
const text = fc
  .array(fc.constantFrom('a', 'Z', ' ', '(', ')', ';', '#', '12', "''", '\n', '"', '/*', '\\X\\E9', "\\S\\'"), { maxLength: 12 })
  .map((p) => p.join(''));
const leaf = fc.oneof(
  fc.constant('$'),
  fc.constant('*'),
  fc.constantFrom('.T.', '.NOTDEFINED.'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((v) => String(v)),
  text.map((t) => `'${t}'`),
  fc.integer({ min: 1, max: 0xffffffff }).map((id) => `#${id}`),
);
const { param } = fc.letrec<{ param: string }>((tie) => ({
  param: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('param'), { maxLength: 4 }).map((ps) => `(${ps.join(',')})`),
  ),
}));
const statement = fc.record({
  name: fc.constantFrom('IFCWALL', 'IFCCARTESIANPOINT', 'IFCPROPERTYSINGLEVALUE', 'IFCLABEL'),
  params: fc.array(param, { maxLength: 6 }),
  before: blank,
  inside: blank,
});
/** Entity statements #1, #2, … one per element, to be joined by line breaks. */
const statements = fc
  .array(statement, { minLength: 1, maxLength: 30 })
  .map((ss) => ss.map((s, k) => `${s.before}#${k + 1}=${s.name}(${s.inside}${s.params.join(',')});`));

describe('checkStepSyntax', () => {
  it.each(corpusFiles('ifc').filter((f) => f.endsWith('.ifc')))('passes the corpus file %s', (name) => {
    expect(checkStepSyntax(corpusBytes('ifc', name))).toBeUndefined();
  });

  it('passes well-formed files, whatever their strings, comments and line breaks hold', () => {
    fc.assert(
      fc.property(statements, (ss) => {
        expect(checkStepSyntax(file(ss.join('\n')))).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('names the statement and the line of an unclosed parenthesis', () => {
    fc.assert(
      fc.property(statements, fc.nat(), (ss, pick) => {
        const k = pick % ss.length;
        ss[k] = ss[k]!.replace(/;$/, '(;');
        const id = k + 1;
        const text = `${HEAD}${ss.join('\n')}\n${TAIL}`;
        expect(checkStepSyntax(encode(text))).toBe(`line ${lineOf(text, `#${id}=`)}: entity #${id} has 1 unclosed parenthesis`);
      }),
      { numRuns: 200 },
    );
  });

  it('names a reference beyond 32 bits wherever it stands', () => {
    fc.assert(
      fc.property(statements, fc.nat(), (ss, pick) => {
        const k = pick % ss.length;
        ss[k] = ss[k]!.replace(/\);$/, ',#4294967296);');
        const text = `${HEAD}${ss.join('\n')}\n${TAIL}`;
        const id = k + 1;
        expect(checkStepSyntax(encode(text))).toBe(
          `line ${lineOf(text, '#4294967296')}: entity #${id} refers to #4294967296, out of range (entity ids run from 1 to 4294967295)`,
        );
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    ['#1=IFCWALL(((((;', 'line 7: entity #1 has 5 unclosed parentheses'],
    ['#1=IFCWALL((\n\n$));\n#2=IFCWALL($));', 'line 10: entity #2 closes a parenthesis it never opened'],
    [`#1=IFCWALL(${'('.repeat(65)}${')'.repeat(65)});`, 'line 7: entity #1 nests parentheses deeper than 64 levels'],
    ["#1=IFCPROJECT('a''b',\n'open,$);", 'line 8: a string in entity #1 never ends'],
    ['#1=IFCWALL(#);', 'line 7: entity #1 refers to "#" without a number (found ");\\x0aENDSEC;\\x0aE")'],
    ['#1=IFCWALL(#0);', 'line 7: entity #1 refers to #0, out of range (entity ids run from 1 to 4294967295)'],
    [
      `#1=IFCWALL(#${'9'.repeat(40)});`,
      `line 7: entity #1 refers to #${'9'.repeat(24)}…, out of range (entity ids run from 1 to 4294967295)`,
    ],
    ['#-5=IFCWALL($);', 'line 7: an entity is numbered "#" without a number (found "-5=IFCWALL($")'],
    ['#4294967296=IFCWALL($);', 'line 7: an entity is numbered #4294967296, out of range (entity ids run from 1 to 4294967295)'],
    ['#5 IFCWALL($);', 'line 7: entity #5 is not followed by "="'],
    ['#5 /* why */ = IFCWALL($);', undefined],
    ['\u0000\u0001', 'line 7: expected an entity instance (#id=…) or a section keyword, found "\\x00\\x01\\x0aENDSEC;\\x0aE"'],
    ['/* no end', 'line 7: a comment never ends'],
    ['#1=IFCWALL($ /* no end', 'line 7: entity #1 never ends (no ";" before the end of the file)'],
  ])('%j → %s', (d, problem) => {
    expect(checkStepSyntax(file(d))).toBe(problem);
  });

  it('refuses a file without its end, and an entity without its ";"', () => {
    expect(checkStepSyntax(encode(`${HEAD}#1=IFCWALL($);\n`))).toBe('the file ends before END-ISO-10303-21;');
    expect(checkStepSyntax(encode(`${HEAD}#1=IFCWALL($)\n`))).toBe('line 7: entity #1 never ends (no ";" before the end of the file)');
    expect(checkStepSyntax(encode(`${HEAD}#1=IFCWALL('x`))).toBe('line 7: a string in entity #1 never ends');
  });

  it('passes a string whose \\S\\ takes its quote, and refuses one web-ifc would end elsewhere', () => {
    expect(checkStepSyntax(file("#1=IFCWALL('\\S\\'',$);\n#2=IFCWALL('It''s \\S\\''' x',$);"))).toBeUndefined();
    // ISO 10303-21 ends these strings at the last quote shown; web-ifc takes any quote after \S\ or \s\ as a character.
    for (const string of ["'a\\\\S\\'", "'a\\s\\'", "'\\X2\\00E4\\X0\\S\\'", "'\\PA\\S\\'"]) {
      const text = `${HEAD}#1=IFCWALL($);\n#2=IFCWALL(${string},'b');\n${TAIL}`;
      expect(checkStepSyntax(encode(text)), string).toBe(
        'line 8: a string in entity #2 ends differently for web-ifc, which takes any quote ' +
          'after "\\S\\" as a character; write a backslash before a closing quote as "\\\\"',
      );
    }
  });

  it('passes keywords before their "(", enumerations and exponents, and refuses a bare word where a value belongs', () => {
    expect(
      checkStepSyntax(file("#1=IFCX(.T.,.NOTDEFINED.,1.E-5,2e3,-1.5E+2,IFCLABEL ('a'),IFCREAL/* c */(1.),(#2));\n#2=(IFCA()IFCB((.F.)));")),
    ).toBeUndefined();
    for (const [data, word] of [
      ["#1=IFCX('a'X2,(#3));", 'X2'],
      ['#1=IFCX($,X2);', 'X2'],
      ['#1=IFCX((1.,NaN));', 'NaN'],
      ['#1=IFCX;', 'IFCX'],
    ]) {
      expect(checkStepSyntax(file(data!)), data).toBe(
        `line 7: entity #1 has "${word}" where a value belongs (a keyword stands only before "(", as in IFCLABEL('x'))`,
      );
    }
  });

  it("refuses what clings to a reference, and a dot that begins neither a number's fraction nor an enumeration", () => {
    expect(checkStepSyntax(file('#1=IFCX(#6.,$);'))).toBe('line 7: entity #1 has "#6." where a reference belongs (# and digits only)');
    expect(checkStepSyntax(file('#1=IFCX(#6E5);'))).toBe('line 7: entity #1 has "#6E5" where a reference belongs (# and digits only)');
    for (const data of ['#1=IFCX(-.5);', '#1=IFCX(.T,$);', '#1=IFCX($.);', '#1=IFCX(. T.);']) {
      expect(checkStepSyntax(file(data)), data).toMatch(
        /^line 7: entity #1 has ".*": a "\." that is neither in a number nor around an enumeration \(\.T\.\)$/,
      );
    }
  });

  it('names a section keyword statement by its keyword, and skips a UTF-8 byte order mark', () => {
    expect(checkStepSyntax(encode("ISO-10303-21;\nHEADER;\nFILE_SCHEMA(('IFC4');\nENDSEC;\nEND-ISO-10303-21;\n"))).toBe(
      'line 3: FILE_SCHEMA has 1 unclosed parenthesis',
    );
    expect(checkStepSyntax(new Uint8Array([0xef, 0xbb, 0xbf, ...file('#1=IFCWALL($);')]))).toBeUndefined();
  });

  it('honours narrower limits when asked', () => {
    expect(checkStepSyntax(file('#300=IFCWALL(#2);'), { maxEntityId: 255 })).toBe(
      'line 7: an entity is numbered #300, out of range (entity ids run from 1 to 255)',
    );
    expect(checkStepSyntax(file('#1=IFCWALL(((1)));'), { maxNesting: 2 })).toBe('line 7: entity #1 nests parentheses deeper than 2 levels');
  });
});
