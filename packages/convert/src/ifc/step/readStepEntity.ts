import { decodeStepString } from './decodeStepString.js';
import type { StepValue } from './StepValue.js';
import { stepStringEnd } from './stepStringEnd.js';

const OPEN = 0x28,
  CLOSE = 0x29,
  COMMA = 0x2c,
  QUOTE = 0x27,
  DOUBLE_QUOTE = 0x22,
  DOLLAR = 0x24,
  STAR = 0x2a;
const HASH = 0x23,
  DOT = 0x2e,
  SLASH = 0x2f,
  EQUALS = 0x3d,
  SEMICOLON = 0x3b,
  MINUS = 0x2d,
  PLUS = 0x2b;

/** An entity instance: its type keyword and its attributes in order. */
export interface StepEntity {
  /** The entity's keyword as written (`IFCWALL`); `''` for a complex instance `#1=(A()B());`. */
  type: string;
  attributes: StepValue[];
}

/** Deepest list nesting read; deeper values are `invalid` (checkStepSyntax refuses such files first). */
const MAX_DEPTH = 64;
const UNSET: StepValue = { kind: 'unset' };

/**
 * Reads the entity instance whose statement starts at `at` (its `#`) from STEP bytes: every
 * attribute as a typed {@link StepValue}, whatever form the file uses. Total: any bytes give an
 * answer, and a statement that is not an entity instance gives `undefined`. Never reads past the
 * statement's `;`.
 *
 * @example
 * ```ts
 * readStepEntity(bytes, offsets.offsetOf(40));
 * // → { type: 'IFCWALL', attributes: [{ kind: 'string', value: '3g46…' }, { kind: 'reference', id: 5 }, { kind: 'derived' }, …] }
 * ```
 */
export function readStepEntity(bytes: Uint8Array, at: number): StepEntity | undefined {
  const p = new StepParser(bytes);
  const open = p.entityBody(at);
  if (open === undefined) return undefined;
  if (open.type === '') return { type: '', attributes: [] };
  const attributes: StepValue[] = [];
  if (!p.endsList()) {
    for (;;) {
      attributes.push(p.value(1));
      if (!p.comma()) break;
    }
  }
  return { type: open.type, attributes };
}

/**
 * Attribute `index` (0-based) of the entity instance starting at `at`, reading no further than
 * it: `unset` when the statement has fewer attributes or is not an entity instance.
 *
 * @example
 * ```ts
 * readStepAttribute(bytes, offsets.offsetOf(40), 2); // → { kind: 'string', value: 'South wall' }
 * ```
 */
export function readStepAttribute(bytes: Uint8Array, at: number, index: number): StepValue {
  const p = new StepParser(bytes);
  const open = p.entityBody(at);
  if (open === undefined || open.type === '' || p.endsList()) return UNSET;
  for (let k = 0; k < index; k++) {
    p.skipValue();
    if (!p.comma()) return UNSET;
  }
  return p.value(1);
}

/**
 * The records of a STEP file's `HEADER;` section (`FILE_DESCRIPTION`, `FILE_NAME`, `FILE_SCHEMA`
 * and any others) in file order, their attributes read like an entity's. Reading stops at
 * `ENDSEC;` (or `DATA;`) or at the first statement that is not a record: a file with a broken
 * header gives the records before the break. Never throws.
 *
 * @example
 * ```ts
 * readStepHeader(bytes).find((r) => r.type === 'FILE_SCHEMA')?.attributes;
 * // → [{ kind: 'list', items: [{ kind: 'string', value: 'IFC4' }] }]
 * ```
 */
export function readStepHeader(bytes: Uint8Array): StepEntity[] {
  const p = new StepParser(bytes);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) p.i = 3; // a UTF-8 BOM some exporters write
  const records: StepEntity[] = [];
  for (;;) {
    const type = p.statementKeyword();
    if (!type || type === 'ENDSEC' || type === 'DATA') return records;
    if (p.semicolon()) continue; // ISO-10303-21; HEADER;
    const attributes = p.parameters(1);
    if (!attributes || !p.semicolon()) return records;
    records.push({ type, attributes });
  }
}

/** A cursor over STEP bytes: blanks and comments skipped between tokens, values read one by one. */
class StepParser {
  i = 0;
  constructor(private readonly bytes: Uint8Array) {}

  /** Moves past `#id = KEYWORD (`; the keyword, or `''` for a complex instance; `undefined` for anything else. */
  entityBody(at: number): { type: string } | undefined {
    const b = this.bytes;
    this.i = at;
    if (b[this.i] !== HASH) return undefined;
    this.i++;
    if (this.digits() === 0) return undefined;
    this.blank();
    if (b[this.i] !== EQUALS) return undefined;
    this.i++;
    this.blank();
    if (b[this.i] === OPEN) return { type: '' };
    const type = this.keyword();
    if (!type) return undefined;
    this.blank();
    if (b[this.i] !== OPEN) return undefined;
    this.i++;
    return { type };
  }

  /** At a `)` (consumed): the list is empty. */
  endsList(): boolean {
    return this.takes(CLOSE);
  }

  /** At `;` (consumed): the statement ends here. */
  semicolon(): boolean {
    return this.takes(SEMICOLON);
  }

  /** Whether the next byte after blanks is `byte`, which is then consumed. */
  private takes(byte: number): boolean {
    this.blank();
    if (this.bytes[this.i] !== byte) return false;
    this.i++;
    return true;
  }

  /** At a `,` (consumed): another value follows; at anything else the list ends (a `)` is consumed). */
  comma(): boolean {
    this.blank();
    const c = this.bytes[this.i];
    if (c === COMMA) {
      this.i++;
      return true;
    }
    if (c === CLOSE) this.i++;
    return false;
  }

  value(depth: number): StepValue {
    this.blank();
    const b = this.bytes,
      start = this.i,
      c = b[this.i];
    switch (c) {
      case DOLLAR:
        this.i++;
        return { kind: 'unset' };
      case STAR:
        this.i++;
        return { kind: 'derived' };
      case QUOTE: {
        const end = stepStringEnd(b, this.i);
        if (end < 0) return this.invalid(start);
        this.i = end + 1;
        return { kind: 'string', value: decodeStepString(b, start + 1, end) };
      }
      case DOUBLE_QUOTE: {
        const end = stepStringEnd(b, this.i);
        if (end < 0) return this.invalid(start);
        this.i = end + 1;
        return { kind: 'binary', value: ascii(b, start + 1, end) };
      }
      case HASH: {
        this.i++;
        const id = this.digitsValue();
        return id < 0 ? this.invalid(start) : { kind: 'reference', id };
      }
      case OPEN: {
        const items = depth < MAX_DEPTH ? this.parameters(depth + 1) : undefined;
        return items ? { kind: 'list', items } : this.invalid(start);
      }
      case DOT: {
        if (isDigit(b[this.i + 1])) return this.number();
        this.i++;
        const name = this.keyword();
        if (!name || b[this.i] !== DOT) return this.invalid(start);
        this.i++;
        return { kind: 'enum', value: name };
      }
      default:
        if (c === MINUS || c === PLUS || isDigit(c)) return this.number();
        if (c !== undefined && isKeywordStart(c)) {
          const type = this.keyword();
          const items = depth < MAX_DEPTH ? this.parameters(depth + 1) : undefined;
          if (!items) return this.invalid(start);
          return { kind: 'typed', type, value: items.length === 1 ? items[0]! : { kind: 'list', items } };
        }
        return this.invalid(start);
    }
  }

  /** `( value, … )`, a list or a keyword's parameters, each value read at `depth`; `undefined` when it is not a parenthesised list. */
  parameters(depth: number): StepValue[] | undefined {
    const b = this.bytes;
    this.blank();
    if (b[this.i] !== OPEN) return undefined;
    this.i++;
    const items: StepValue[] = [];
    if (this.endsList()) return items;
    for (;;) {
      items.push(this.value(depth));
      this.blank();
      if (b[this.i] === COMMA) {
        this.i++;
        continue;
      }
      if (b[this.i] === CLOSE) {
        this.i++;
        return items;
      }
      return undefined;
    }
  }

  /** The keyword at the cursor, after blanks (`''` when none). */
  statementKeyword(): string {
    this.blank();
    return this.keyword();
  }

  /** Moves past one value without building it (strings and lists skipped as wholes). */
  skipValue(): void {
    this.blank();
    const b = this.bytes;
    let depth = 0;
    for (; this.i < b.length; this.i++) {
      const c = b[this.i]!;
      if (c === QUOTE || c === DOUBLE_QUOTE) {
        const end = stepStringEnd(b, this.i);
        if (end < 0) {
          this.i = b.length;
          return;
        }
        this.i = end;
      } else if (c === OPEN) depth++;
      else if (c === CLOSE) {
        if (depth === 0) return;
        if (--depth === 0) {
          this.i++;
          return;
        }
      } else if (depth === 0 && (c === COMMA || c === SEMICOLON)) return;
      else if (c === SLASH && b[this.i + 1] === STAR) {
        this.blank();
        this.i--;
      }
    }
  }

  private number(): StepValue {
    const b = this.bytes,
      start = this.i;
    if (b[this.i] === MINUS || b[this.i] === PLUS) this.i++;
    let real = false;
    this.digits();
    if (b[this.i] === DOT) {
      real = true;
      this.i++;
      this.digits();
    }
    if (b[this.i] === 0x45 || b[this.i] === 0x65) {
      real = true;
      this.i++;
      if (b[this.i] === MINUS || b[this.i] === PLUS) this.i++;
      if (this.digits() === 0) return this.invalid(start);
    }
    const text = ascii(b, start, this.i);
    const value = Number(text);
    if (!Number.isFinite(value) || text === '-' || text === '+') return this.invalid(start);
    return real ? { kind: 'real', value } : { kind: 'integer', value };
  }

  /** Skips to the next `,` `)` or `;` outside strings and lists, and returns what lay between as `invalid`. */
  private invalid(start: number): StepValue {
    this.i = start;
    this.skipValue();
    if (this.i === start && this.i < this.bytes.length && this.bytes[this.i] !== COMMA && this.bytes[this.i] !== CLOSE) this.i++;
    return { kind: 'invalid', text: ascii(this.bytes, start, Math.min(this.i, start + 80)) };
  }

  private digits(): number {
    const start = this.i;
    while (isDigit(this.bytes[this.i])) this.i++;
    return this.i - start;
  }

  private digitsValue(): number {
    let v = 0,
      n = 0;
    for (; isDigit(this.bytes[this.i]); this.i++, n++) v = v * 10 + (this.bytes[this.i]! - 0x30);
    return n === 0 ? -1 : v;
  }

  private keyword(): string {
    const start = this.i;
    while (this.i < this.bytes.length && isKeywordPart(this.bytes[this.i]!)) this.i++;
    return ascii(this.bytes, start, this.i).toUpperCase();
  }

  /** Skips blanks and `/* … *\/` comments. */
  private blank(): void {
    const b = this.bytes;
    for (;;) {
      const c = b[this.i];
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.i++;
      else if (c === SLASH && b[this.i + 1] === STAR) {
        const end = indexOfCommentEnd(b, this.i + 2);
        this.i = end < 0 ? b.length : end + 2;
      } else return;
    }
  }
}

function indexOfCommentEnd(b: Uint8Array, from: number): number {
  for (let k = from; k + 1 < b.length; k++) if (b[k] === STAR && b[k + 1] === SLASH) return k;
  return -1;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

function isKeywordStart(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x21;
}

function isKeywordPart(c: number): boolean {
  return isKeywordStart(c) || isDigit(c) || c === MINUS;
}

function ascii(b: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let k = from; k < to && k < b.length; k++) s += String.fromCharCode(b[k]!);
  return s;
}
