import fc from 'fast-check';
import { SERVER_CONFIG_DEFAULTS } from '../../packages/server/src/config/ServerConfig.js';

/** What a session endpoint expects in one text field; `one_of:a|b` is a closed set of words. */
export type FieldKind = 'vector' | 'number' | 'corners' | 'up_axis' | 'text' | `one_of:${string}`;

// Numbers that break naive readers: overflow to Infinity once parsed, underflow, negative zero.
const edgeNumber = fc.constantFrom('1e308', '-1e308', '1e309', '-1e999', '5e-324', '-0', '0', '1', '0.9', '2.1', '1E3');
const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).map(String);
const numberText = fc.oneof(edgeNumber, finite);
const vectorOf = (n: number) => fc.array(numberText, { minLength: n, maxLength: n }).map((xs) => `[${xs.join(', ')}]`);

/**
 * Text a client could put in a form field: valid JSON of every shape, JSON-looking text that is not
 * JSON (NaN, Infinity, trailing commas, cut-off arrays), wrong types, empty and blank values,
 * unicode and control characters, and arbitrary strings.
 */
export const hostileFieldText: fc.Arbitrary<string> = fc.oneof(
  vectorOf(3),
  vectorOf(3),
  fc.integer({ min: 0, max: 6 }).chain(vectorOf),
  fc.array(vectorOf(3), { minLength: 0, maxLength: 6 }).map((ps) => `[${ps.join(', ')}]`),
  numberText,
  fc.constantFrom(
    '[NaN, 0, 0]',
    '[Infinity, 0, 0]',
    '[-Infinity, 1, 2]',
    'NaN',
    'Infinity',
    '[1, 2, 3,]',
    '[1, 2',
    '[[1, 2, 3]]',
    '[1, [2], 3]',
    '["1", "2", "3"]',
    '[true, false, null]',
    '[null, null, null]',
    'null',
    'true',
    '{}',
    '{"x": 1, "y": 2, "z": 3}',
    '""',
    '"0.9"',
    '',
    ' ',
    '\t\n',
    '[]',
    '[,,]',
    '0x10',
    '1_000',
    '١٢٣',
    '[1e308, 1e308, 1e308]',
    '[1e309, 0, 0]',
    '\u0000',
    '\uFEFF[1, 2, 3]',
    'y-up',
    'z-up',
    'x-up',
    'Y-UP',
    'auto',
    'custom',
    'model_surface',
    'rectangle-short-side',
    '../../etc/passwd',
    '🚪🚪🚪',
  ),
  fc.json(),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** A value that is a valid reading of its kind, by rules written here independently of the server. */
/** The server's default sanity range for a number sent in a form (ARSESSION_MAX_COORDINATE_M). */
export const MAX_COORDINATE = SERVER_CONFIG_DEFAULTS.maxCoordinateMetres;

export function isWellTyped(kind: FieldKind, text: string, limit = MAX_COORDINATE): boolean {
  if (text.trim() === '') return false;
  if (kind === 'text') return true;
  if (kind === 'up_axis') return text === 'y-up' || text === 'z-up';
  if (kind.startsWith('one_of:')) return kind.slice('one_of:'.length).split('|').includes(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  const isNumber = (x: unknown) => typeof x === 'number' && Number.isFinite(x) && Math.abs(x) <= limit;
  const isVector = (v: unknown) => Array.isArray(v) && v.length === 3 && v.every(isNumber);
  if (kind === 'number') return isNumber(value);
  if (kind === 'vector') return isVector(value);
  return Array.isArray(value) && value.length === 4 && value.every(isVector);
}
