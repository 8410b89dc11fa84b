import { UsdUnreadableError } from '../errors/UsdError.js';

// The lexical level of USD's text format, after OpenUSD's `textFileFormat.ll`: names (plain,
// namespaced `a:b:c`, C++ `a::b`), numbers (`-inf` is one; `inf`/`nan` stay names, as there),
// strings in one or three quotes of either kind with C escapes, asset paths `@…@`/`@@@…@@@`,
// paths `<…>`, one-character punctuation, and comments (`#`, `//`, `/* */`) — except that a `#`
// on line 1 is the `#usda 1.0` header. The grammar is newline-sensitive in a few places, so each
// token says whether a line break came before it.

/** End of the text. */
export const USDA_END = 0;
/** An identifier, keyword, namespaced (`inputs:file`) or C++-namespaced (`a::b`) name. */
export const USDA_NAME = 1;
/** A number: integer, real, exponent form, `-0`, `-inf`. */
export const USDA_NUMBER = 2;
/** A quoted string, escapes evaluated. */
export const USDA_STRING = 3;
/** An asset path, `@…@` or `@@@…@@@`, delimiters removed. */
export const USDA_ASSET = 4;
/** A path reference `<…>`, brackets removed. */
export const USDA_PATH = 5;
/** One punctuation character: `= , : ; $ . [ ] ( ) { } & -`. */
export const USDA_PUNCT = 6;
/** The header line (`#usda 1.0`): a `#` on line 1. */
export const USDA_MAGIC = 7;

/** What a token is: one of the `USDA_*` constants. */
export type UsdaTokenKind = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** A token as {@link tokenizeUsda} lists it. */
export interface UsdaToken {
  kind: UsdaTokenKind;
  /** Names, strings, asset paths, paths: their text (evaluated); punctuation: the character; numbers: as written. */
  text: string;
  /** Numbers only: the value. */
  number?: number;
  line: number;
}

/** Where errors are reported: the layer's name, and what the caller's error should carry. */
export interface UsdaSource {
  /** The layer's name, first in every message (`shading.usda line 12: …`). */
  name: string;
  fileName?: string;
  field?: string;
}

const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];
const PUNCTUATION = '=,:;$.[](){}&-';
const IDENTIFIER = /^[\p{XID_Start}_][\p{XID_Continue}]*$/u;

/**
 * A cursor over USDA text: {@link next} moves to the next token and leaves its kind, text,
 * number and line in the fields (no object per token: layers hold millions of numbers). Errors
 * throw {@link UsdUnreadableError} naming the layer and line.
 *
 * @example
 * ```ts
 * const t = new UsdaTokenizer('#usda 1.0\ndef "A" {}', { name: 'a.usda' });
 * t.kind === USDA_MAGIC; t.next(); t.text; // → 'def'
 * ```
 */
export class UsdaTokenizer {
  kind: UsdaTokenKind = USDA_END;
  /** Names, strings, asset paths, paths: their text; punctuation: the character; the header: its line. */
  text = '';
  /** Numbers: the value. */
  number = 0;
  /** Numbers: written without `.` or exponent (an integer literal). */
  integral = false;
  /** Names: with `:` (`inputs:file`) or `::` (`a::b`) parts. */
  namespaced = false;
  /** Punctuation: the character's code; 0 for any other token. */
  punct = 0;
  /** The line the token starts on (1-based). */
  line = 1;
  /** Whether a line break separates this token from the previous one. */
  newlineBefore = false;
  /** Offsets of the token in the text. */
  start = 0;
  end = 0;

  private pos = 0;
  private lineAt = 1;

  constructor(
    readonly source: string,
    readonly where: UsdaSource,
  ) {
    this.next();
  }

  /**
   * Moves to the next token.
   *
   * @example
   * ```ts
   * t.next(); if (t.kind === USDA_END) return;
   * ```
   */
  next(): void {
    const s = this.source,
      n = s.length;
    let p = this.pos,
      line = this.lineAt,
      newline = false;
    for (;;) {
      if (p >= n) break;
      const c = s.charCodeAt(p);
      if (c === 32 || c === 9) {
        p++;
        continue;
      }
      if (c === 10) {
        line++;
        newline = true;
        p++;
        continue;
      }
      if (c === 13) {
        line++;
        newline = true;
        p += s.charCodeAt(p + 1) === 10 ? 2 : 1;
        continue;
      }
      if (c === 35 && line !== 1) {
        p = lineEnd(s, p);
        continue;
      } // '#'
      if (c === 47 && s.charCodeAt(p + 1) === 47) {
        p = lineEnd(s, p);
        continue;
      } // '//'
      if (c === 47 && s.charCodeAt(p + 1) === 42) {
        // '/*'
        const close = s.indexOf('*/', p + 2);
        if (close < 0) this.fail('a /* comment is never closed', line);
        line += countLines(s, p, close);
        p = close + 2;
        continue;
      }
      break;
    }
    this.newlineBefore = newline;
    this.line = line;
    this.start = p;
    this.punct = 0;
    this.namespaced = false;
    this.lineAt = line;
    if (p >= n) {
      this.kind = USDA_END;
      this.text = '';
      this.pos = this.end = p;
      return;
    }
    const c = s.charCodeAt(p);
    const c1 = s.charCodeAt(p + 1);
    if (c === 35) {
      // the header: '#' on line 1
      this.end = this.pos = lineEnd(s, p);
      this.kind = USDA_MAGIC;
      this.text = s.slice(p, this.end);
    } else if (isDigit(c) || (c === 45 && (isDigit(c1) || (c1 === 46 && isDigit(s.charCodeAt(p + 2))))) || (c === 46 && isDigit(c1))) {
      this.scanNumber(p);
    } else if (c === 45 && s.startsWith('-inf', p)) {
      this.kind = USDA_NUMBER;
      this.number = -Infinity;
      this.integral = false;
      this.end = this.pos = p + 4;
    } else if (isNameStart(c)) {
      this.scanName(p);
    } else if (c === 34 || c === 39) {
      this.scanString(p, c);
    } else if (c === 64) {
      this.scanAsset(p);
    } else if (c === 60) {
      const close = pathEnd(s, p + 1);
      if (close < 0) this.fail('a path <…> is not closed on its line');
      this.kind = USDA_PATH;
      this.text = evalEscapes(s, p + 1, close);
      this.end = this.pos = close + 1;
    } else if (PUNCTUATION.includes(s[p]!)) {
      this.kind = USDA_PUNCT;
      this.punct = c;
      this.text = s[p]!;
      this.end = this.pos = p + 1;
    } else {
      this.fail(`unexpected character ${JSON.stringify(String.fromCodePoint(s.codePointAt(p)!))}`);
    }
  }

  /**
   * Whether the token is of kind `kind`. (A method, not a comparison of `kind`: TypeScript would
   * keep a compared `kind` narrowed across {@link next}.)
   *
   * @example
   * ```ts
   * while (!t.at(USDA_END)) statement();
   * ```
   */
  at(kind: UsdaTokenKind): boolean {
    return this.kind === kind;
  }

  /**
   * The text of the quoted string at hand, which is consumed; anything else fails naming `what`.
   *
   * @example
   * ```ts
   * const name = t.quoted('a variant name');
   * ```
   */
  quoted(what: string): string {
    if (this.kind !== USDA_STRING) this.fail(`expected ${what} in quotes, found ${this.describe()}`);
    const text = this.text;
    this.next();
    return text;
  }

  /**
   * Whether the token is the punctuation character `char`.
   *
   * @example
   * ```ts
   * if (t.isPunct('(')) metadata();
   * ```
   */
  isPunct(char: string): boolean {
    return this.punct === char.charCodeAt(0);
  }

  /**
   * Whether the token is the name (or keyword) `name`.
   *
   * @example
   * ```ts
   * if (t.isName('uniform')) t.next();
   * ```
   */
  isName(name: string): boolean {
    return this.kind === USDA_NAME && this.text === name;
  }

  /**
   * Consumes punctuation `char` if it is the token; tells whether it was.
   *
   * @example
   * ```ts
   * while (t.eat(',')) item();
   * ```
   */
  eat(char: string): boolean {
    if (this.punct !== char.charCodeAt(0)) return false;
    this.next();
    return true;
  }

  /**
   * Consumes punctuation `char`, or fails with `expected "char" <context>, found …`.
   *
   * @example
   * ```ts
   * t.expect('=', 'after attribute name');
   * ```
   */
  expect(char: string, context: string): void {
    if (this.punct !== char.charCodeAt(0)) this.fail(`expected "${char}" ${context}, found ${this.describe()}`);
    this.next();
  }

  /**
   * The token as a message shows it: `"{"`, `"kind"`, `string "abc"`, `end of file`.
   *
   * @example
   * ```ts
   * t.fail(`expected a prim name, found ${t.describe()}`);
   * ```
   */
  describe(): string {
    const raw = this.source.slice(this.start, Math.min(this.end, this.start + 40)) + (this.end - this.start > 40 ? '…' : '');
    switch (this.kind) {
      case USDA_END:
        return 'end of file';
      case USDA_NAME:
      case USDA_PUNCT:
        return JSON.stringify(this.text);
      case USDA_STRING:
        return `string ${raw}`;
      case USDA_ASSET:
        return `asset path ${raw}`;
      case USDA_PATH:
        return `path ${raw}`;
      case USDA_NUMBER:
        return `number ${raw}`;
      default:
        return raw;
    }
  }

  /**
   * Throws {@link UsdUnreadableError}: `<layer> line <line>: <message>`.
   *
   * @example
   * ```ts
   * if (!ok) t.fail('duplicate prim /World');
   * ```
   */
  fail(message: string, line = this.line): never {
    const { name, fileName, field } = this.where;
    // Names and strings quoted in a message may be huge in hostile text.
    const text = message.length > 400 ? `${message.slice(0, 400)}…` : message;
    throw new UsdUnreadableError(`${name} line ${line}: ${text}`, {
      ...(fileName !== undefined && { fileName }),
      ...(field !== undefined && { field }),
    });
  }

  private scanNumber(p: number): void {
    const s = this.source,
      start = p;
    let negative = false;
    if (s.charCodeAt(p) === 45) {
      negative = true;
      p++;
    }
    // Clinger's fast path: up to 15 significant digits and a power of ten up to 22 give a
    // correctly rounded double from one multiplication or division; anything else goes
    // through Number(), which is exact but needs the text.
    let mantissa = 0,
      digits = 0,
      scale = 0,
      integral = true;
    for (let c = s.charCodeAt(p); isDigit(c); c = s.charCodeAt(++p)) {
      if (mantissa !== 0 || c !== 48) digits++;
      if (digits <= 15) mantissa = mantissa * 10 + (c - 48);
      else scale++;
    }
    if (s.charCodeAt(p) === 46) {
      integral = false;
      for (let c = s.charCodeAt(++p); isDigit(c); c = s.charCodeAt(++p)) {
        if (mantissa !== 0 || c !== 48) digits++;
        if (digits <= 15) {
          mantissa = mantissa * 10 + (c - 48);
          scale--;
        }
      }
    }
    let c = s.charCodeAt(p);
    if (c === 101 || c === 69) {
      // e E
      let q = p + 1;
      const sign = s.charCodeAt(q);
      if (sign === 43 || sign === 45) q++;
      if (isDigit(s.charCodeAt(q))) {
        integral = false;
        let exponent = 0;
        for (c = s.charCodeAt(q); isDigit(c); c = s.charCodeAt(++q)) exponent = exponent < 1e6 ? exponent * 10 + (c - 48) : exponent;
        scale += sign === 45 ? -exponent : exponent;
        p = q;
      }
    }
    let value: number;
    if (digits <= 15 && scale >= -22 && scale <= 22) value = scale >= 0 ? mantissa * POW10[scale]! : mantissa / POW10[-scale]!;
    else value = Math.abs(Number(s.slice(negative ? start + 1 : start, p)));
    this.kind = USDA_NUMBER;
    this.number = negative ? -value : value;
    this.integral = integral;
    this.end = this.pos = p;
  }

  private scanName(p: number): void {
    const s = this.source,
      start = p;
    let wide = false;
    p = nameEnd(s, p);
    wide = hasWide(s, start, p);
    // `a:b:c` (property names) and `a::b` (C++ type names) are one token when every part is a name.
    if (s.charCodeAt(p) === 58) {
      const cxx = s.charCodeAt(p + 1) === 58;
      const step = cxx ? 2 : 1;
      while (s.charCodeAt(p) === 58 && (s.charCodeAt(p + 1) === 58) === cxx && isNameStart(s.charCodeAt(p + step))) {
        const partStart = p + step;
        p = nameEnd(s, partStart);
        wide ||= hasWide(s, partStart, p);
        this.namespaced = true;
      }
    }
    const text = s.slice(start, p);
    if (wide && !text.split(':').every((part) => part === '' || IDENTIFIER.test(part)))
      this.fail(`${JSON.stringify(text)} is not a valid identifier`);
    this.kind = USDA_NAME;
    this.text = text;
    this.end = this.pos = p;
  }

  private scanString(p: number, quote: number): void {
    const s = this.source,
      n = s.length;
    const triple = s.charCodeAt(p + 1) === quote && s.charCodeAt(p + 2) === quote;
    if (triple) {
      let q = p + 3,
        lines = 0;
      for (;;) {
        if (q >= n) this.fail('a triple-quoted string is never closed');
        const c = s.charCodeAt(q);
        if (c === 92) {
          // backslash escapes anything, a line break too
          if (s.charCodeAt(q + 1) === 10 || (s.charCodeAt(q + 1) === 13 && s.charCodeAt(q + 2) !== 10)) lines++;
          q += 2;
          continue;
        }
        if (c === 10 || (c === 13 && s.charCodeAt(q + 1) !== 10)) lines++;
        if (c === quote && s.charCodeAt(q + 1) === quote && s.charCodeAt(q + 2) === quote) break;
        q++;
      }
      this.text = evalEscapes(s, p + 3, q);
      this.end = this.pos = q + 3;
      this.lineAt = this.line + lines;
    } else {
      let q = p + 1,
        escaped = false;
      for (;;) {
        const c = q < n ? s.charCodeAt(q) : -1;
        if (c === quote) break;
        if (c === -1 || c === 10 || c === 13) this.fail('a string is not closed on its line');
        if (c === 92) {
          if (q + 1 >= n || s.charCodeAt(q + 1) === 10) this.fail('a string is not closed on its line');
          escaped = true;
          q += 2;
        } else q++;
      }
      this.text = escaped ? evalEscapes(s, p + 1, q) : s.slice(p + 1, q);
      this.end = this.pos = q + 1;
    }
    this.kind = USDA_STRING;
  }

  private scanAsset(p: number): void {
    const s = this.source;
    let text: string;
    if (s.startsWith('@@@', p)) {
      let q = p + 3;
      for (;;) {
        if (s.startsWith('\\@@@', q)) {
          q += 4;
          continue;
        }
        const c = s.charCodeAt(q);
        if (q >= s.length || c === 10) this.fail('an @@@ asset path is not closed on its line');
        if (s.startsWith('@@@', q)) {
          // Up to two '@' may end the path itself, before the closing three.
          for (let extra = 0; extra < 2 && s.charCodeAt(q + 3) === 64; extra++) q++;
          break;
        }
        q++;
      }
      text = s.slice(p + 3, q).replaceAll('\\@@@', '@@@');
      this.end = this.pos = q + 3;
    } else {
      let q = p + 1;
      while (q < s.length && s.charCodeAt(q) !== 64 && s.charCodeAt(q) !== 10) q++;
      if (s.charCodeAt(q) !== 64) this.fail('an @ asset path is not closed on its line');
      text = s.slice(p + 1, q);
      this.end = this.pos = q + 1;
    }
    // SdfAssetPath refuses control characters.
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 32 || c === 127) this.fail(`asset path ${JSON.stringify(text)} holds a control character`);
    }
    this.kind = USDA_ASSET;
    this.text = text;
  }
}

/**
 * Every token of a USDA text, for tools and tests (the parser reads {@link UsdaTokenizer}
 * directly).
 *
 * @example
 * ```ts
 * tokenizeUsda('#usda 1.0\nfloat a = -2.5e-3', 'a.usda').map((t) => t.text);
 * // → ['#usda 1.0', 'float', 'a', '=', '-2.5e-3']
 * ```
 */
export function tokenizeUsda(text: string, name: string): UsdaToken[] {
  const t = new UsdaTokenizer(text, { name });
  const out: UsdaToken[] = [];
  for (; t.kind !== USDA_END; t.next()) {
    if (t.kind === USDA_NUMBER) out.push({ kind: t.kind, text: text.slice(t.start, t.end), number: t.number, line: t.line });
    else out.push({ kind: t.kind, text: t.text, line: t.line });
  }
  return out;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 128;
}

function nameEnd(s: string, p: number): number {
  for (
    let c = s.charCodeAt(p);
    (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c >= 128;
    c = s.charCodeAt(++p)
  );
  return p;
}

function hasWide(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (s.charCodeAt(i) >= 128) return true;
  return false;
}

function lineEnd(s: string, p: number): number {
  for (let c = s.charCodeAt(p); p < s.length && c !== 10 && c !== 13; c = s.charCodeAt(++p));
  return p;
}

function pathEnd(s: string, p: number): number {
  for (; p < s.length; p++) {
    const c = s.charCodeAt(p);
    if (c === 62) return p;
    if (c === 60 || c === 10 || c === 13) return -1;
  }
  return -1;
}

function countLines(s: string, from: number, to: number): number {
  let lines = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 10 || (c === 13 && s.charCodeAt(i + 1) !== 10)) lines++;
  }
  return lines;
}

const SIMPLE_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

/** UTF-8 bytes, for strings whose escapes spell bytes above 0x7f. */
class ByteText {
  private buffer = new Uint8Array(256);
  private length = 0;
  private readonly encoder = new TextEncoder();

  text(s: string): void {
    this.reserve(s.length * 3);
    this.length += this.encoder.encodeInto(s, this.buffer.subarray(this.length)).written;
  }

  byte(b: number): void {
    this.reserve(1);
    this.buffer[this.length++] = b;
  }

  decode(): string {
    return new TextDecoder().decode(this.buffer.subarray(0, this.length));
  }

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + n));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }
}

/**
 * The text between `from` and `to` with C escapes evaluated as `TfEscapeString` does: `\n`,
 * `\t`, … , `\xhh` (at most two hex digits), `\ooo` (at most three octal digits), and any other
 * escaped character standing for itself (`\"`, `\'`). Hex and octal escapes are bytes, so once
 * one is above 0x7f the whole text is assembled as UTF-8 and decoded.
 */
function evalEscapes(s: string, from: number, to: number): string {
  let out = '';
  let bytes: ByteText | undefined;
  let p = from;
  while (p < to) {
    // Search only up to `to`: indexOf would run on through the rest of the layer every time.
    let stop = p;
    while (stop < to && s.charCodeAt(stop) !== 92) stop++;
    if (bytes) bytes.text(s.slice(p, stop));
    else out += s.slice(p, stop);
    if (stop >= to - 1) break; // the end, or a lone trailing backslash (impossible in a closed token)
    p = stop + 1;
    const e = s[p]!;
    let code: number;
    if (e === 'x') {
      code = 0;
      let k = 0;
      for (p++; k < 2 && p < to && isHexDigit(s.charCodeAt(p)); k++, p++) code = code * 16 + parseInt(s[p]!, 16);
    } else if (e >= '0' && e <= '7') {
      code = 0;
      for (let k = 0; k < 3 && p < to && s[p]! >= '0' && s[p]! <= '7'; k++, p++) code = code * 8 + (s.charCodeAt(p) - 48);
    } else {
      const text = SIMPLE_ESCAPES[e] ?? e;
      if (bytes) bytes.text(text);
      else out += text;
      p++;
      continue;
    }
    if (bytes) bytes.byte(code);
    else if (code < 128) out += String.fromCharCode(code);
    else {
      bytes = new ByteText();
      bytes.text(out);
      bytes.byte(code);
    }
  }
  return bytes ? bytes.decode() : out;
}

function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}
