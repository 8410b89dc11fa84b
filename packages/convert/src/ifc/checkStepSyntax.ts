/** Options of {@link checkStepSyntax}. */
export interface CheckStepSyntaxOptions {
  /** Largest entity id accepted: web-ifc keeps ids in 32 bits and silently mangles larger ones. */
  maxEntityId: number;
  /** Deepest nesting of parentheses accepted; real IFC lists nest a handful of levels. */
  maxNesting: number;
}

/** Defaults of {@link checkStepSyntax}. */
export const CHECK_STEP_SYNTAX_DEFAULTS: Readonly<CheckStepSyntaxOptions> = { maxEntityId: 0xffffffff, maxNesting: 64 };

const HASH = 0x23, EQUALS = 0x3d, SEMICOLON = 0x3b, OPEN = 0x28, CLOSE = 0x29, QUOTE = 0x27, DOUBLE_QUOTE = 0x22;
const SLASH = 0x2f, STAR = 0x2a, NEWLINE = 0x0a;

/** 1 for the bytes an entity's body must look at; everything else is skipped in one step. */
const BODY_BYTE = new Uint8Array(256);
for (const b of [NEWLINE, QUOTE, DOUBLE_QUOTE, SLASH, HASH, OPEN, CLOSE, SEMICOLON]) BODY_BYTE[b] = 1;

/**
 * Walks an IFC (STEP, ISO 10303-21) file statement by statement and returns a description of
 * the first thing web-ifc must not be handed, or `undefined` when the structure is sound:
 * statements that are not `#id=…;` or a section keyword, entity ids and references beyond
 * `maxEntityId` (web-ifc truncates them and silently drops or rewires elements), unbalanced or
 * absurdly deep parentheses (web-ifc spins until its deadline on `#1=IFCWALL(((((;`), and
 * statements or strings that never end. Linear in the file size; strings and comments are
 * skipped the way STEP defines them (`''` inside a string is a quote).
 *
 * @example
 * ```ts
 * checkStepSyntax(new TextEncoder().encode(text)); // → 'line 8: entity #1 has 5 unclosed parentheses'
 * ```
 */
export function checkStepSyntax(bytes: Uint8Array, options: Partial<CheckStepSyntaxOptions> = {}): string | undefined {
  const { maxEntityId, maxNesting } = { ...CHECK_STEP_SYNTAX_DEFAULTS, ...options };
  let at = 0;
  let line = 1;
  let problem: string | undefined;

  const skipBlank = (): void => {
    while (at < bytes.length) {
      const b = bytes[at]!;
      if (b === NEWLINE) { line++; at++; } else if (b === 0x20 || b === 0x09 || b === 0x0d) at++;
      else if (b === SLASH && bytes[at + 1] === STAR) skipComment();
      else return;
    }
  };
  const skipComment = (): void => {
    const startLine = line;
    at += 2;
    while (at < bytes.length && !(bytes[at] === STAR && bytes[at + 1] === SLASH)) if (bytes[at++] === NEWLINE) line++;
    if (at >= bytes.length) problem ??= `line ${startLine}: a comment never ends`;
    at += 2;
  };
  // The statement being read, as messages name it; kept as a number or a keyword position so that
  // no string is built per statement (this runs over every byte of files of hundreds of MB).
  let entityId = 0;
  let keywordAt = -1;
  const entity = (): string => (keywordAt >= 0 ? keywordText(bytes, keywordAt) : `entity #${entityId}`);
  const refersTo = (): string => `${entity()} refers to`;
  const numbered = (): string => 'an entity is numbered';
  // Reads the digits after '#' as a number; returns -1 and sets `problem` when there are none or too many.
  const readId = (what: () => string): number => {
    const start = at;
    let id = 0;
    while (at < bytes.length) {
      const c = bytes[at]!;
      if (c < 0x30 || c > 0x39) break;
      id = id * 10 + (c - 0x30);
      at++;
    }
    if (at === start) {
      problem = `line ${line}: ${what()} "#" without a number (found "${printable(latin1(bytes, at, at + 12))}")`;
      return -1;
    }
    if (at - start > 15 || id < 1 || id > maxEntityId) {
      // A run of thousands of digits is shown cut short; it is out of range either way.
      const digits = at - start > 24 ? `${latin1(bytes, start, start + 24)}…` : latin1(bytes, start, at);
      problem = `line ${line}: ${what()} #${digits}, out of range (entity ids run from 1 to ${maxEntityId})`;
      return -1;
    }
    return id;
  };
  // Reads an entity's parameters up to its ';', checking strings, references and parentheses.
  // The hot loop of the check: it keeps its position and line count in locals (the closures'
  // shared variables cost a memory round trip per byte) and skips ordinary bytes by table.
  const readBody = (): void => {
    const startLine = line;
    const n = bytes.length;
    let depth = 0, i = at, ln = line;
    const fail = (message: string): void => {
      at = i;
      line = ln;
      problem = message;
    };
    while (i < n) {
      const b = bytes[i]!;
      if (BODY_BYTE[b] === 0) {
        i++;
      } else if (b === NEWLINE) {
        ln++;
        i++;
      } else if (b === QUOTE || b === DOUBLE_QUOTE) {
        const stringLine = ln;
        // Jump quote to quote (native indexOf): strings are most of an IFC's bytes.
        let from = i + 1;
        for (;;) {
          const close = bytes.indexOf(b, from);
          if (close < 0) return fail(`line ${stringLine}: a string in ${entity()} never ends`);
          for (let k = from; k < close; k++) if (bytes[k] === NEWLINE) ln++;
          if (bytes[close + 1] === b) { from = close + 2; continue; } // a doubled quote is one quote character
          i = close + 1;
          break;
        }
      } else if (b === SLASH) {
        if (bytes[i + 1] !== STAR) { i++; continue; }
        at = i;
        line = ln;
        skipComment();
        i = at;
        ln = line;
      } else if (b === HASH) {
        const start = ++i;
        let id = 0;
        for (let c = bytes[i]!; i < n && c >= 0x30 && c <= 0x39; c = bytes[++i]!) id = id * 10 + (c - 0x30);
        if (i === start || i - start > 15 || id < 1 || id > maxEntityId) {
          // Not a valid reference: readId words the problem (it applies the same rules).
          at = start;
          line = ln;
          readId(refersTo);
          return;
        }
      } else if (b === OPEN) {
        if (++depth > maxNesting) return fail(`line ${ln}: ${entity()} nests parentheses deeper than ${maxNesting} levels`);
        i++;
      } else if (b === CLOSE) {
        if (--depth < 0) return fail(`line ${ln}: ${entity()} closes a parenthesis it never opened`);
        i++;
      } else { // SEMICOLON
        if (depth !== 0) return fail(`line ${startLine}: ${entity()} has ${depth} unclosed parenthes${depth === 1 ? 'is' : 'es'}`);
        at = i + 1;
        line = ln;
        return;
      }
    }
    fail(`line ${startLine}: ${entity()} never ends (no ";" before the end of the file)`);
  };

  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) at = 3; // a UTF-8 BOM some exporters write
  while (problem === undefined) {
    skipBlank();
    if (problem !== undefined) break;
    if (at >= bytes.length) return 'the file ends before END-ISO-10303-21;';
    const b = bytes[at]!;
    if (b === HASH) {
      at++;
      const id = readId(numbered);
      if (id < 0) break;
      skipBlank();
      if (bytes[at] !== EQUALS) { problem = `line ${line}: entity #${id} is not followed by "="`; break; }
      at++;
      entityId = id;
      keywordAt = -1;
      readBody();
    } else if (isKeywordByte(b)) {
      const start = at;
      while (at < bytes.length && isKeywordPart(bytes[at]!)) at++;
      if (keywordText(bytes, start) === 'END-ISO-10303-21') return undefined;
      keywordAt = start;
      readBody();
    } else {
      problem = `line ${line}: expected an entity instance (#id=…) or a section keyword, found "${printable(latin1(bytes, at, at + 12))}"`;
    }
  }
  return problem;
}

function isKeywordPart(b: number): boolean {
  return isKeywordByte(b) || b === 0x2d || (b >= 0x30 && b <= 0x39);
}

/** The section keyword starting at `from` (at most 64 characters). */
function keywordText(bytes: Uint8Array, from: number): string {
  let to = from;
  while (to < bytes.length && to < from + 64 && isKeywordPart(bytes[to]!)) to++;
  return latin1(bytes, from, to);
}

function isKeywordByte(b: number): boolean {
  return (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x5f;
}

function latin1(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, Math.min(to, bytes.length)));
}

/** Control bytes shown as \xNN, so a message about binary garbage stays one readable line. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u00ff]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
