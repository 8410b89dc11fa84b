import fc from 'fast-check';
import type { StepValue } from '../../src/ifc/step/StepValue.js';

/**
 * STEP text for a value, written independently of the reader: strings are written with a
 * randomly chosen encoding per character (`escapes` picks it), so every escape form the standard
 * has appears in what the reader is fed.
 */
export function printStepValue(v: StepValue, escapes: (code: number) => number = () => 0): string {
  switch (v.kind) {
    case 'unset':
      return '$';
    case 'derived':
      return '*';
    case 'string':
      return `'${encodeStepString(v.value, escapes)}'`;
    case 'integer':
      return String(v.value);
    case 'real':
      return printReal(v.value);
    case 'enum':
      return `.${v.value}.`;
    case 'reference':
      return `#${v.id}`;
    case 'binary':
      return `"${v.value}"`;
    case 'typed':
      return `${v.type}(${printStepValue(v.value, escapes)})`;
    case 'list':
      return `(${v.items.map((i) => printStepValue(i, escapes)).join(',')})`;
    case 'invalid':
      return v.text;
  }
}

/** STEP reals always have a '.', often no digit after it, and an exponent in capitals (`1.E-5`). */
function printReal(x: number): string {
  const [mantissa, exponent] = x.toExponential().toUpperCase().split('E') as [string, string];
  const m = mantissa.includes('.') ? mantissa : `${mantissa}.`;
  return `${m}E${exponent}`;
}

/**
 * A string's characters in one of the standard's encodings each: 0 as is (printable ASCII only),
 * 1 `\X2\…\X0\`, 2 `\X4\…\X0\`, 3 `\X\hh` or `\S\c` (Latin-1 range). `'` and `\` are doubled.
 */
export function encodeStepString(text: string, escapes: (code: number) => number): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const form = escapes(code) % 4;
    const printable = code >= 0x20 && code <= 0x7e;
    if (printable && (form === 0 || form === 3)) out += ch === "'" ? "''" : ch === '\\' ? '\\\\' : ch;
    else if (form === 3 && code >= 0xa0 && code <= 0xfe) out += `\\S\\${String.fromCharCode(code - 128)}`;
    else if (form === 3 && code <= 0xff) out += `\\X\\${hex(code, 2)}`;
    else if (form === 2) out += `\\X4\\${hex(code, 8)}\\X0\\`;
    else out += `\\X2\\${utf16(ch)}\\X0\\`;
  }
  return out;
}

function utf16(ch: string): string {
  let s = '';
  for (let i = 0; i < ch.length; i++) s += hex(ch.charCodeAt(i), 4);
  return s;
}

function hex(n: number, digits: number): string {
  return n.toString(16).toUpperCase().padStart(digits, '0');
}

const keyword = fc.stringMatching(/^[A-Z][A-Z0-9_]{0,12}$/);
/** Text of any Unicode code points, lone surrogates excepted (STEP cannot carry them either). */
const text = fc.string({ unit: 'grapheme', maxLength: 12 });

/** Every value form of ISO 10303-21 that IFC files use, nested a few levels. */
export const stepValue: fc.Arbitrary<StepValue> = fc.letrec<{ value: StepValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant<StepValue>({ kind: 'unset' }),
    fc.constant<StepValue>({ kind: 'derived' }),
    text.map((value): StepValue => ({ kind: 'string', value })),
    fc.integer({ min: -1e9, max: 1e9 }).map((value): StepValue => ({ kind: 'integer', value })),
    fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .filter((x) => !Object.is(x, -0))
      .map((value): StepValue => ({ kind: 'real', value })),
    keyword.map((value): StepValue => ({ kind: 'enum', value })),
    fc.integer({ min: 1, max: 2 ** 31 }).map((id): StepValue => ({ kind: 'reference', id })),
    fc.stringMatching(/^[0-3][0-9A-F]{0,8}$/).map((value): StepValue => ({ kind: 'binary', value })),
    fc.record({ type: keyword, value: tie('value') }).map(({ type, value }): StepValue => ({ kind: 'typed', type: `IFC${type}`, value })),
    fc.array(tie('value'), { maxLength: 4 }).map((items): StepValue => ({ kind: 'list', items })),
  ),
})).value;

/** Values an IfcRoot's optional text attributes (Name, Description, ObjectType) can be written with in real files. */
export const rootAttributeValue: fc.Arbitrary<StepValue> = fc.oneof(
  fc.constant<StepValue>({ kind: 'unset' }),
  fc.constant<StepValue>({ kind: 'derived' }),
  fc.constant<StepValue>({ kind: 'string', value: '' }),
  text.map((value): StepValue => ({ kind: 'string', value })),
  text.map((value): StepValue => ({ kind: 'typed', type: 'IFCLABEL', value: { kind: 'string', value } })),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value): StepValue => ({ kind: 'real', value })),
  fc.integer({ min: 1, max: 99 }).map((id): StepValue => ({ kind: 'reference', id })),
  keyword.map((value): StepValue => ({ kind: 'enum', value })),
  fc
    .array(
      text.map((value): StepValue => ({ kind: 'string', value })),
      { maxLength: 2 },
    )
    .map((items): StepValue => ({ kind: 'list', items })),
);
