import { latin1Text } from './latin1Text.js';

const OPEN = 0x28, CLOSE = 0x29, COMMA = 0x2c, QUOTE = 0x27, DOLLAR = 0x24, BACKSLASH = 0x5c, EQUALS = 0x3d, HASH = 0x23;
const SEMICOLON = 0x3b, SLASH = 0x2f;

/** GlobalId and Name of an IfcRoot entity, as web-ifc's `GetLine` gives them (`''` when unset). */
export interface RootIdentity {
  globalId: string;
  name: string;
}

/**
 * Reads GlobalId (attribute 1) and Name (attribute 3) of the IfcRoot entity whose statement
 * starts at `at` (its '#'), straight from the STEP bytes of a file {@link checkStepSyntax} passed.
 * Only plain strings are read here: a string with an escape (`\X2\…`, `\S\`, …) or a byte
 * outside printable ASCII gives `undefined`, and the caller asks web-ifc, whose decoding
 * (code pages, Mac Roman guesses) this does not repeat. So the answer is web-ifc's, byte for byte.
 *
 * @example
 * ```ts
 * readRootIdentity(bytes, offsets.offsetOf(40)); // → { globalId: '1kTvXnbbzCWw8lcMd1dR4o', name: 'South wall' }
 * ```
 */
export function readRootIdentity(bytes: Uint8Array, at: number): RootIdentity | undefined {
  const first = firstAttribute(bytes, at);
  if (first < 0) return undefined;
  const globalId = readPlainString(bytes, first);
  if (globalId === undefined) return undefined;
  const third = attributeAt(bytes, globalId.end, 2); // past OwnerHistory: a reference or $
  const name = third < 0 ? undefined : readPlainString(bytes, third);
  if (name === undefined) return undefined;
  return { globalId: globalId.text, name: name.text };
}

/**
 * The entity references in attribute `attribute` (0-based) of the entity whose statement starts
 * at `at`: `#5` → [5], `(#5,#6)` → [5, 6], `$` → []. Anything else in that attribute gives
 * `undefined`, for the caller to ask web-ifc.
 *
 * @example
 * ```ts
 * // #90=IFCRELAGGREGATES('…',#5,$,$,#80,(#81,#82));
 * readReferences(bytes, offsets.offsetOf(90), 5); // → [81, 82]
 * ```
 */
export function readReferences(bytes: Uint8Array, at: number, attribute: number): number[] | undefined {
  const n = bytes.length;
  const first = firstAttribute(bytes, at);
  let i = first < 0 ? -1 : attributeAt(bytes, first, attribute);
  if (i < 0) return undefined;
  i = skipBlank(bytes, i);
  if (bytes[i] === DOLLAR) return [];
  const list = bytes[i] === OPEN;
  if (list) i++;
  const refs: number[] = [];
  for (;;) {
    i = skipBlank(bytes, i);
    if (bytes[i] !== HASH) return list && bytes[i] === CLOSE && refs.length === 0 ? refs : undefined;
    let id = 0, digits = 0;
    for (i++; i < n; i++, digits++) {
      const c = bytes[i]!;
      if (c < 0x30 || c > 0x39) break;
      id = id * 10 + (c - 0x30);
    }
    if (digits === 0) return undefined;
    refs.push(id);
    if (!list) return refs;
    i = skipBlank(bytes, i);
    if (bytes[i] === CLOSE) return refs;
    if (bytes[i] !== COMMA) return undefined;
    i++;
  }
}

/**
 * Index of the first attribute of the statement starting at `at` (just past its '('), or −1 when
 * a comment stands before it (rare enough to leave to web-ifc).
 */
function firstAttribute(bytes: Uint8Array, at: number): number {
  const n = bytes.length;
  let i = at;
  while (i < n && bytes[i] !== EQUALS) i++;
  while (i < n && bytes[i] !== OPEN) if (bytes[i++] === SLASH) return -1;
  return i < n ? i + 1 : -1;
}

/**
 * Index of the attribute `count` attributes after the one starting at `i`, or −1 when the
 * statement's attributes end first, or a comment or anything but strings and lists stands in the
 * way: never an index in the next statement.
 */
function attributeAt(bytes: Uint8Array, i: number, count: number): number {
  for (let a = 0; a < count && i >= 0; a++) {
    const comma = nextComma(bytes, i);
    i = comma < 0 ? -1 : comma + 1;
  }
  return i;
}

function skipBlank(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  return i;
}

/** The string or `$` at `i` (blanks before it skipped), or undefined when it is anything else. */
function readPlainString(bytes: Uint8Array, i: number): { text: string; end: number } | undefined {
  const n = bytes.length;
  i = skipBlank(bytes, i);
  if (bytes[i] === DOLLAR) return { text: '', end: i + 1 };
  if (bytes[i] !== QUOTE) return undefined;
  let text = '', from = i + 1;
  for (let k = from; k < n; k++) {
    const c = bytes[k]!;
    if (c === QUOTE) {
      text += latin1Text(bytes, from, k);
      if (bytes[k + 1] !== QUOTE) return { text, end: k + 1 };
      text += "'"; // '' is one quote character
      from = ++k + 1;
    } else if (c === BACKSLASH || c < 0x20 || c > 0x7e) {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Index of the next ',' between attributes from `i` (parenthesised lists and strings skipped), or
 * −1 at the ')' that closes the attributes, a ';', a comment, or the end of the bytes.
 */
function nextComma(bytes: Uint8Array, i: number): number {
  const n = bytes.length;
  let depth = 0;
  for (; i < n; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      i++;
      while (i < n && bytes[i] !== QUOTE) i++;
    } else if (c === OPEN) depth++;
    else if (c === CLOSE) {
      if (--depth < 0) return -1;
    } else if (c === COMMA && depth === 0) return i;
    else if (c === SEMICOLON || c === SLASH) return -1;
  }
  return -1;
}
