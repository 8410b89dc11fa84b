import { stepStringEnd } from './step/stepStringEnd.js';
import { latin1Text } from './latin1Text.js';
import type { StepEntityOffsets } from './StepEntityOffsets.js';

/** Options of {@link checkStepSyntax}. */
export interface CheckStepSyntaxOptions {
  /** Largest entity id accepted: web-ifc keeps ids in 32 bits and silently mangles larger ones. */
  maxEntityId: number;
  /** Deepest nesting of parentheses accepted; real IFC lists nest a handful of levels. */
  maxNesting: number;
}

/** Defaults of {@link checkStepSyntax}. */
export const CHECK_STEP_SYNTAX_DEFAULTS: Readonly<CheckStepSyntaxOptions> = { maxEntityId: 0xffffffff, maxNesting: 64 };

const HASH = 0x23,
  EQUALS = 0x3d,
  SEMICOLON = 0x3b,
  OPEN = 0x28,
  CLOSE = 0x29,
  QUOTE = 0x27,
  DOUBLE_QUOTE = 0x22;
const SLASH = 0x2f,
  STAR = 0x2a,
  NEWLINE = 0x0a,
  BACKSLASH = 0x5c;

const DOT = 0x2e,
  LETTER_E = 0x45,
  LETTER_e = 0x65;

/** 1 for the bytes an entity's body must look at, 2 for a keyword's first letter; everything else is skipped in one step. */
const BODY_BYTE = new Uint8Array(256);
for (const b of [QUOTE, DOUBLE_QUOTE, SLASH, HASH, OPEN, CLOSE, SEMICOLON, DOT]) BODY_BYTE[b] = 1;
for (let b = 0; b < 256; b++) if (isKeywordByte(b)) BODY_BYTE[b] = 2;
/** 1 for the bytes a keyword continues with. */
const KEYWORD_PART = new Uint8Array(256);
for (let b = 0; b < 256; b++) if (isKeywordPart(b)) KEYWORD_PART[b] = 1;

/**
 * Walks an IFC (STEP, ISO 10303-21) file statement by statement and returns a description of
 * the first thing web-ifc must not be handed, or `undefined` when the structure is sound:
 * statements that are not `#id=…;` or a section keyword, entity ids and references beyond
 * `maxEntityId` (web-ifc truncates them and silently drops or rewires elements), unbalanced or
 * absurdly deep parentheses (web-ifc spins until its deadline on `#1=IFCWALL(((((;`), and
 * statements, strings or comments that never end. Linear in the file size; strings and comments
 * are skipped the way STEP defines them (`''` inside a string is a quote, `\S\'` one character:
 * see stepStringEnd). When `offsets` is given, it records where each entity statement starts.
 *
 * @example
 * ```ts
 * checkStepSyntax(new TextEncoder().encode(text)); // → 'line 8: entity #1 has 5 unclosed parentheses'
 * ```
 */
export function checkStepSyntax(
  bytes: Uint8Array,
  options: Partial<CheckStepSyntaxOptions> = {},
  offsets?: StepEntityOffsets,
): string | undefined {
  const { maxEntityId, maxNesting } = { ...CHECK_STEP_SYNTAX_DEFAULTS, ...options };
  // This runs over every byte of files of hundreds of MB before web-ifc sees them, so it is one
  // loop with its state in locals: no closure or string per statement, and no line count. A
  // message names its line by counting newlines up to the fault, which happens once per file.
  const n = bytes.length;
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0; // a UTF-8 BOM some exporters write
  for (;;) {
    i = skipBlank(bytes, i);
    if (i < 0) return `line ${lineAt(bytes, ~i)}: a comment never ends`;
    if (i >= n) return 'the file ends before END-ISO-10303-21;';
    // The statement's head: `#id =` or a section keyword.
    let entityId = 0,
      keywordAt = -1;
    const b = bytes[i]!;
    if (b === HASH) {
      const start = ++i;
      i = skipDigits(bytes, i);
      const id = entityIdIn(bytes, start, i, maxEntityId);
      if (id < 0) return idProblem(bytes, start, i, maxEntityId, 'an entity is numbered');
      i = skipBlank(bytes, i);
      if (i < 0) return `line ${lineAt(bytes, ~i)}: a comment never ends`;
      if (bytes[i] !== EQUALS) return `line ${lineAt(bytes, i)}: entity #${id} is not followed by "="`;
      i++;
      entityId = id;
      offsets?.add(id, start - 1);
    } else if (isKeywordByte(b)) {
      keywordAt = i;
      while (i < n && isKeywordPart(bytes[i]!)) i++;
      if (keywordText(bytes, keywordAt) === 'END-ISO-10303-21') return undefined;
    } else {
      return `line ${lineAt(bytes, i)}: expected an entity instance (#id=…) or a section keyword, found "${shown(bytes, i, i + 12)}"`;
    }

    // The statement's body up to its ';': strings, comments, references and parentheses.
    const bodyAt = i;
    let depth = 0;
    for (;;) {
      // Digits, commas, blanks, '$', '*' and signs need no look: skipped in a loop of their own.
      while (i < n && BODY_BYTE[bytes[i]!] === 0) i++;
      if (i >= n) return `${where(bytes, bodyAt, keywordAt, entityId)} never ends (no ";" before the end of the file)`;
      const c = bytes[i]!;
      if (c === DOT) {
        // The most frequent: every real number has one, after a digit.
        const before = bytes[i - 1]!;
        if (before >= 0x30 && before <= 0x39) {
          i++;
          continue;
        }
        const end = dotEnd(bytes, i);
        if (end < 0)
          return (
            `${where(bytes, i, keywordAt, entityId)} has "${shown(bytes, i, Math.min(i + 12, bytes.length))}": ` +
            'a "." that is neither in a number nor around an enumeration (.T.)'
          );
        i = end;
      } else if (BODY_BYTE[c] === 2) {
        const start = i;
        while (i < n && KEYWORD_PART[bytes[i]!] === 1) i++;
        if (bytes[i] !== OPEN && !valueKeywordOpens(bytes, start, i)) {
          return (
            `${where(bytes, start, keywordAt, entityId)} has "${shown(bytes, start, Math.min(i, start + 40))}" ` +
            `where a value belongs (a keyword stands only before "(", as in IFCLABEL('x'))`
          );
        }
      } else if (c === QUOTE || c === DOUBLE_QUOTE) {
        const end = stepStringEnd(bytes, i);
        if (end < 0) return `line ${lineAt(bytes, i)}: a string in ${statementName(bytes, keywordAt, entityId)} never ends`;
        if (c === QUOTE && hasBackslash(bytes, i + 1, end) && webIfcStringEnd(bytes, i) !== end) {
          return (
            `line ${lineAt(bytes, i)}: a string in ${statementName(bytes, keywordAt, entityId)} ends differently for web-ifc, ` +
            `which takes any quote after "\\S\\" as a character; write a backslash before a closing quote as "\\\\"`
          );
        }
        i = end + 1;
      } else if (c === HASH) {
        // A reference: its digits read as they are skipped (one in twenty bytes is a '#').
        const start = ++i;
        let id = 0;
        while (i < n) {
          const d = bytes[i]! - 0x30;
          if (d < 0 || d > 9) break;
          id = id * 10 + d;
          i++;
        }
        if (i === start || i - start > 15 || id < 1 || id > maxEntityId)
          return idProblem(bytes, start, i, maxEntityId, `${statementName(bytes, keywordAt, entityId)} refers to`);
        // web-ifc ends a reference at its digits and reads what clings to it as a token of its own.
        if (bytes[i] === DOT || KEYWORD_PART[bytes[i]!] === 1)
          return (
            `${where(bytes, start, keywordAt, entityId)} has "${shown(bytes, start - 1, clingingEnd(bytes, i))}" ` +
            'where a reference belongs (# and digits only)'
          );
      } else if (c === OPEN) {
        if (++depth > maxNesting) return `${where(bytes, i, keywordAt, entityId)} nests parentheses deeper than ${maxNesting} levels`;
        i++;
      } else if (c === CLOSE) {
        if (--depth < 0) return `${where(bytes, i, keywordAt, entityId)} closes a parenthesis it never opened`;
        i++;
      } else if (c === SLASH) {
        if (bytes[i + 1] !== STAR) {
          i++;
          continue;
        }
        const end = commentEnd(bytes, i);
        // Inside a statement an endless comment also leaves the statement without its ';'.
        if (end < 0) return `${where(bytes, bodyAt, keywordAt, entityId)} never ends (no ";" before the end of the file)`;
        i = end;
      } else {
        // SEMICOLON
        if (depth !== 0) return `${where(bytes, bodyAt, keywordAt, entityId)} has ${depth} unclosed parenthes${depth === 1 ? 'is' : 'es'}`;
        i++;
        break;
      }
    }
  }
}

/**
 * Whether the run of letters, digits and `_` at `start`…`end` of a statement's body is sound:
 * what follows a number's point (`1.E-5`), a number's exponent (`2e3`), or a keyword (an entity's
 * type, a typed value) followed by its `(`. (An enumeration's name never comes here: `dotEnd`
 * takes `.T.` whole.) A bare word where a value belongs is not STEP, and web-ifc, which reads it
 * as a type awaiting its parameters, spins on it until the conversion's deadline.
 */
function valueKeywordOpens(bytes: Uint8Array, start: number, end: number): boolean {
  const before = start > 0 ? bytes[start - 1]! : 0;
  const first = bytes[start]!;
  if (before === DOT) return true;
  if ((first === LETTER_E || first === LETTER_e) && before >= 0x30 && before <= 0x39) return true;
  const next = skipBlank(bytes, end);
  return next < 0 || next >= bytes.length || bytes[next] === OPEN;
}

/** End of the letters, digits and dots clinging to a reference from `at` (at most 12). */
function clingingEnd(bytes: Uint8Array, at: number): number {
  let k = at;
  while (k < bytes.length && k < at + 12 && (KEYWORD_PART[bytes[k]!] === 1 || bytes[k] === DOT)) k++;
  return k;
}

/**
 * Just past the `.` at `at` and what it begins: a number's point (after a digit), or a whole
 * enumeration (`.NOTDEFINED.`); −1 for any other dot, where web-ifc would begin an enumeration
 * and read everything up to the next dot in the file as its name.
 */
function dotEnd(bytes: Uint8Array, at: number): number {
  const before = at > 0 ? bytes[at - 1]! : 0;
  if (before >= 0x30 && before <= 0x39) return at + 1;
  if (BODY_BYTE[bytes[at + 1]!] !== 2) return -1;
  let k = at + 2;
  while (k < bytes.length && KEYWORD_PART[bytes[k]!] === 1) k++;
  return bytes[k] === DOT ? k + 1 : -1;
}

/** The statement as messages name it: its keyword, or its entity id. */
/** Where a problem is, for its message: `line 12: #5=IFCWALL`. */
function where(bytes: Uint8Array, at: number, keywordAt: number, entityId: number): string {
  return `line ${lineAt(bytes, at)}: ${statementName(bytes, keywordAt, entityId)}`;
}

/** Bytes of the file as a message quotes them, control characters escaped. */
function shown(bytes: Uint8Array, from: number, to: number): string {
  return printable(latin1Text(bytes, from, to));
}

function statementName(bytes: Uint8Array, keywordAt: number, entityId: number): string {
  return keywordAt >= 0 ? keywordText(bytes, keywordAt) : `entity #${entityId}`;
}

/** Past blanks and comments from `i`; `~start` of a comment that never ends. */
function skipBlank(bytes: Uint8Array, i: number): number {
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i]!;
    if (b === 0x20 || b === NEWLINE || b === 0x0d || b === 0x09) i++;
    else if (b === SLASH && i + 1 < n && bytes[i + 1] === STAR) {
      const end = commentEnd(bytes, i);
      if (end < 0) return ~i;
      i = end;
    } else break;
  }
  return i;
}

/** Just past the comment opening at `i`, or −1 when it never closes. */
function commentEnd(bytes: Uint8Array, i: number): number {
  const n = bytes.length;
  for (let k = i + 2; k + 1 < n; k++) if (bytes[k] === STAR && bytes[k + 1] === SLASH) return k + 2;
  return -1;
}

function skipDigits(bytes: Uint8Array, i: number): number {
  const n = bytes.length;
  while (i < n) {
    const c = bytes[i]!;
    if (c < 0x30 || c > 0x39) break;
    i++;
  }
  return i;
}

/** The id in the digits `[from, to)`, or −1 when there are none or it is out of range. */
function entityIdIn(bytes: Uint8Array, from: number, to: number, maxEntityId: number): number {
  if (to === from || to - from > 15) return -1;
  let id = 0;
  for (let k = from; k < to; k++) id = id * 10 + (bytes[k]! - 0x30);
  return id < 1 || id > maxEntityId ? -1 : id;
}

/** Why the digits `[from, to)` after a '#' are not an entity id. */
function idProblem(bytes: Uint8Array, from: number, to: number, maxEntityId: number, what: string): string {
  const line = lineAt(bytes, from);
  if (to === from) return `line ${line}: ${what} "#" without a number (found "${shown(bytes, from, from + 12)}")`;
  // A run of thousands of digits is shown cut short; it is out of range either way.
  const digits = to - from > 24 ? `${latin1Text(bytes, from, from + 24)}…` : latin1Text(bytes, from, to);
  return `line ${line}: ${what} #${digits}, out of range (entity ids run from 1 to ${maxEntityId})`;
}

/** The 1-based line of the byte at `at`. */
function lineAt(bytes: Uint8Array, at: number): number {
  let line = 1;
  for (let k = 0; k < at && k < bytes.length; k++) if (bytes[k] === NEWLINE) line++;
  return line;
}

function isKeywordPart(b: number): boolean {
  return isKeywordByte(b) || b === 0x2d || (b >= 0x30 && b <= 0x39);
}

/** The section keyword starting at `from` (at most 64 characters). */
function keywordText(bytes: Uint8Array, from: number): string {
  let to = from;
  while (to < bytes.length && to < from + 64 && isKeywordPart(bytes[to]!)) to++;
  return latin1Text(bytes, from, to);
}

function isKeywordByte(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f;
}

/** Control bytes shown as \xNN, so a message about binary garbage stays one readable line. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u00ff]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function hasBackslash(bytes: Uint8Array, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (bytes[k] === BACKSLASH) return true;
  return false;
}

/**
 * Where web-ifc's tokenizer ends the `'…'` string at `open`: like ISO 10303-21, except that a
 * quote right after `\S\` or `\s\` never ends it, whatever the backslash before the S closes
 * (`\\`, `\X0\`, `\PA\`). Where the two disagree web-ifc reads the rest of the file shifted.
 */
function webIfcStringEnd(bytes: Uint8Array, open: number): number {
  for (let k = open + 1; k < bytes.length; k++) {
    if (bytes[k] !== QUOTE) continue;
    const s = bytes[k - 2];
    if (k - open > 3 && bytes[k - 1] === BACKSLASH && (s === 0x53 || s === 0x73) && bytes[k - 3] === BACKSLASH) continue;
    if (bytes[k + 1] === QUOTE) {
      k++;
      continue;
    }
    return k;
  }
  return -1;
}
