import type { SdfValue } from '../sdf/SdfLayer.js';
import { USDA_ASSET, USDA_NAME, USDA_NUMBER, USDA_PATH, USDA_STRING, type UsdaTokenizer } from './tokenizeUsda.js';
import type { UsdaFieldType } from './usdaMetadataFields.js';
import { storedNumber, typedArrayOf, usdaValueType, type UsdaBase, type UsdaValueType } from './usdaValueTypes.js';

// Values in USDA text, read against the type that declares them (an attribute's or dictionary
// entry's type name, a metadatum's registered type) as OpenUSD's value factories read them:
// tuples must have exactly the type's shape, numbers convert to the component type (ints
// truncated and range-checked, floats to float32, halves to float16), `inf`/`nan` are floats
// only, strings and tokens must be quoted. A value of an unregistered metadatum has no type and
// is kept as parsed.

/** Nesting bookkeeping shared with the structure parser, so one limit covers everything. */
export interface UsdaNesting {
  enter(): void;
  leave(): void;
}

/** An item of a value read without a type. */
type Untyped =
  | { kind: 'number'; value: number }
  | { kind: 'string' | 'token' | 'asset' | 'path'; value: string }
  | { kind: 'list' | 'tuple'; items: Untyped[] };

const BOOL_WORDS: Record<string, boolean> = { true: true, false: false, yes: true, no: false, '1': true, '0': false };

/**
 * Reads values from a {@link UsdaTokenizer} positioned at their first token, leaving it after
 * their last.
 *
 * @example
 * ```ts
 * const values = new UsdaValueReader(tokenizer, nesting);
 * values.typed('point3f[]'); // at `[(0, 0, 0), (1, 0, 0)]` → { kind: 'array', type: 'point3f[]', size: 3, value: Float32Array(6) }
 * ```
 */
export class UsdaValueReader {
  constructor(
    private readonly t: UsdaTokenizer,
    private readonly nesting: UsdaNesting,
  ) {}

  /**
   * A value of type `typeName` (`float3`, `point3f[]`, `token`, `matrix4d`, …), which must be a
   * known type; the caller handles `None`.
   *
   * @example
   * ```ts
   * values.typed('quatf'); // at `(1, 0, 0, 0)` → { kind: 'tuple', type: 'quatf', value: [0, 0, 0, 1] }
   * ```
   */
  typed(typeName: string): SdfValue {
    const array = typeName.endsWith('[]');
    const type = usdaValueType(array ? typeName.slice(0, -2) : typeName);
    if (!type) return this.t.fail(`unknown value type "${typeName}"`);
    if (type.base === 'opaque') return this.t.fail(`a value of type ${typeName} cannot be authored`);
    const t: UsdaTokenizer = this.t;
    if (!array) {
      if (t.isPunct('[')) t.fail(`a ${typeName} value is a single value, not a list`);
      if (isText(type.base)) return scalarText(type.base, this.text(type.base, typeName));
      const out: number[] = [];
      this.element(type, out);
      return scalarNumbers(type, out);
    }
    if (!t.isPunct('[')) t.fail(`expected "[" to open a ${typeName} value, found ${t.describe()}`);
    t.next();
    if (isText(type.base)) {
      const strings: string[] = [];
      if (!t.eat(']')) {
        do {
          if (t.isPunct(']')) break; // a trailing comma
          strings.push(this.text(type.base, typeName));
        } while (t.eat(','));
        t.expect(']', `or "," in a ${typeName} value`);
      }
      if (type.base === 'pathExpression') return { kind: 'unsupported', type: typeName };
      return { kind: 'stringArray', type: typeName as 'token[]' | 'string[]' | 'asset[]', value: strings };
    }
    const out: number[] = [];
    if (!t.eat(']')) {
      do {
        if (t.isPunct(']')) break;
        if (t.isPunct('[')) t.fail(`nested lists in a ${typeName} value are not supported`);
        this.element(type, out);
      } while (t.eat(','));
      t.expect(']', `or "," in a ${typeName} value`);
    }
    return { kind: 'array', type: typeName, size: type.size, value: typedArrayOf(type.base, out) };
  }

  /**
   * A metadatum's value read as its registered type (list ops excepted: see {@link listItems}).
   *
   * @example
   * ```ts
   * values.field('double'); // at `1` → { kind: 'number', type: 'double', value: 1 }
   * ```
   */
  field(type: Exclude<UsdaFieldType, 'tokenListOp' | 'stringListOp' | 'int64ListOp'>): SdfValue {
    if (type === 'dictionary') {
      if (!this.t.isPunct('{')) this.t.fail(`expected a dictionary "{", found ${this.t.describe()}`);
      return this.dictionary();
    }
    return this.typed(type);
  }

  /**
   * The items of a list op's list, `[a, b]`, as items of type `item` (`token`, `string`, `int64`).
   *
   * @example
   * ```ts
   * values.listItems('token'); // at `["MaterialBindingAPI"]` → ['MaterialBindingAPI']
   * ```
   */
  listItems(item: 'token' | 'string'): string[];
  listItems(item: 'int64'): number[];
  listItems(item: 'token' | 'string' | 'int64'): string[] | number[] {
    const v = this.typed(`${item}[]`);
    if (v.kind === 'stringArray') return v.value;
    if (v.kind === 'array') return Array.from(v.value);
    return [];
  }

  /**
   * A typed dictionary, `{ string a = "x"  double3 b = (1, 2, 3)  dictionary c = { … } }`, keys
   * in USD's (sorted) order.
   *
   * @example
   * ```ts
   * values.dictionary();
   * // at `{ string creator = "x" }` → { kind: 'dictionary', value: Map { 'creator' → { kind: 'string', value: 'x' } } }
   * ```
   */
  dictionary(): SdfValue {
    const t: UsdaTokenizer = this.t;
    t.expect('{', 'to open a dictionary');
    this.nesting.enter();
    const entries = new Map<string, SdfValue>();
    while (!t.isPunct('}')) {
      if (!t.at(USDA_NAME)) t.fail(`expected a value type in a dictionary, found ${t.describe()}`);
      let value: SdfValue, key: string;
      if (t.text === 'dictionary') {
        t.next();
        key = this.key();
        t.expect('=', `after dictionary key "${key}"`);
        if (!t.isPunct('{')) t.fail(`expected "{" to open dictionary "${key}", found ${t.describe()}`);
        value = this.dictionary();
      } else {
        let typeName = t.text;
        t.next();
        if (t.eat('[')) {
          t.expect(']', `after "${typeName}[" in a dictionary`);
          typeName += '[]';
        }
        if (!usdaValueType(typeName.replace(/\[\]$/, ''))) t.fail(`unknown value type "${typeName}" in a dictionary`);
        key = this.key();
        t.expect('=', `after dictionary key "${key}"`);
        value = this.typed(typeName);
      }
      entries.set(key, value);
      if (!t.eat(';') && !t.isPunct('}') && !t.newlineBefore)
        t.fail(`expected a new line or ";" after dictionary entry "${key}", found ${t.describe()}`);
    }
    t.next();
    this.nesting.leave();
    return { kind: 'dictionary', value: sortedMap(entries) };
  }

  /**
   * A string-to-string dictionary, `{ "a": "b", "c": "d" }` (prefix and suffix substitutions).
   *
   * @example
   * ```ts
   * values.stringDictionary();
   * // at `{ "old": "new" }` → { kind: 'dictionary', value: Map { 'old' → { kind: 'string', value: 'new' } } }
   * ```
   */
  stringDictionary(): SdfValue {
    const t: UsdaTokenizer = this.t;
    t.expect('{', 'to open a dictionary');
    const entries = new Map<string, SdfValue>();
    while (!t.isPunct('}')) {
      const key = this.t.quoted('a dictionary key');
      t.expect(':', `after dictionary key "${key}"`);
      entries.set(key, { kind: 'string', value: this.t.quoted('a string value') });
      if (!t.eat(',')) break;
    }
    t.expect('}', 'or "," in a dictionary');
    return { kind: 'dictionary', value: sortedMap(entries) };
  }

  /**
   * Time samples, `{ 0: (0, 0, 0), 10: (0, 90, 0), 20: None }`, of type `typeName`, in time order.
   *
   * @example
   * ```ts
   * values.timeSamples('float'); // at `{ 0: 1, 1: 2 }` → { kind: 'timeSamples', value: Map { 0 → …, 1 → … } }
   * ```
   */
  timeSamples(typeName: string): SdfValue {
    const t: UsdaTokenizer = this.t;
    t.expect('{', 'to open time samples');
    const samples = new Map<number, SdfValue>();
    while (!t.isPunct('}')) {
      let time: number;
      if (t.at(USDA_NUMBER)) time = t.number;
      else if (t.isName('inf')) time = Infinity;
      else if (t.isName('nan')) time = NaN;
      else return t.fail(`expected a time in time samples, found ${t.describe()}`);
      t.next();
      t.expect(':', 'after a sample time');
      if (t.isName('None')) {
        t.next();
        samples.set(time, { kind: 'none' });
      } else {
        samples.set(time, this.typed(typeName));
      }
      if (!t.eat(',')) break;
    }
    t.expect('}', 'or "," in time samples');
    const ordered = [...samples.entries()].sort(([a], [b]) => (Number.isNaN(a) ? 1 : Number.isNaN(b) ? -1 : a - b));
    return { kind: 'timeSamples', value: new Map(ordered) };
  }

  /**
   * A value with no registered type (an unknown metadatum), kept as parsed: dictionaries are
   * typed anyway; numbers are doubles, names tokens; lists of one kind become arrays, numeric
   * tuples tuples; anything else is `unsupported`.
   *
   * @example
   * ```ts
   * values.untyped(); // at `"Scene"` → { kind: 'string', value: 'Scene' }
   * ```
   */
  untyped(): SdfValue {
    const t: UsdaTokenizer = this.t;
    if (t.isPunct('{')) return this.dictionary();
    if (t.isName('None')) {
      t.next();
      return { kind: 'none' };
    }
    return untypedToSdf(this.untypedItem());
  }

  /**
   * The items of an unregistered list op's list, kept as strings or integers when they all are.
   *
   * @example
   * ```ts
   * values.untypedList(); // at `["a", "b"]` → { kind: 'stringListOp', items: ['a', 'b'] }
   * ```
   */
  untypedList(): { kind: 'stringListOp'; items: string[] } | { kind: 'intListOp'; items: number[] } | undefined {
    if (!this.t.isPunct('[')) this.t.fail(`expected "[" to open a list, found ${this.t.describe()}`);
    const list = this.untypedItem();
    if (list.kind !== 'list') return undefined;
    if (list.items.every((i) => i.kind === 'string' || i.kind === 'token' || i.kind === 'asset'))
      return { kind: 'stringListOp', items: list.items.map((i) => (i as { value: string }).value) };
    if (list.items.every((i) => i.kind === 'number' && Number.isInteger(i.value)))
      return { kind: 'intListOp', items: list.items.map((i) => (i as { value: number }).value) };
    return undefined;
  }

  private untypedItem(): Untyped {
    const t: UsdaTokenizer = this.t;
    if (t.isPunct('[') || t.isPunct('(')) {
      const list = t.isPunct('[');
      const close = list ? ']' : ')';
      t.next();
      this.nesting.enter();
      const items: Untyped[] = [];
      while (!t.isPunct(close)) {
        items.push(this.untypedItem());
        if (!t.eat(',')) break;
      }
      t.expect(close, `or "," in a ${list ? 'list' : 'tuple'}`);
      this.nesting.leave();
      return { kind: list ? 'list' : 'tuple', items };
    }
    let item: Untyped;
    switch (t.kind) {
      case USDA_NUMBER:
        item = { kind: 'number', value: t.number };
        break;
      case USDA_STRING:
        item = { kind: 'string', value: t.text };
        break;
      case USDA_ASSET:
        item = { kind: 'asset', value: t.text };
        break;
      case USDA_PATH:
        item = { kind: 'path', value: t.text };
        break;
      case USDA_NAME:
        item = { kind: 'token', value: t.text };
        break;
      default:
        return t.fail(`expected a value, found ${t.describe()}`);
    }
    t.next();
    return item;
  }

  /** One element of a type: a scalar or a tuple of the type's shape, components appended to `out`. */
  private element(type: UsdaValueType, out: number[]): void {
    if (type.shape.length === 0) {
      out.push(this.number(type.base, type.name));
      return;
    }
    if (!type.quaternion) {
      this.tuple(type, 0, out);
      return;
    }
    // Text writes quaternions real part first; the layer holds them imaginary part first.
    const at = out.length;
    this.tuple(type, 0, out);
    const w = out[at]!;
    out.copyWithin(at, at + 1, at + 4);
    out[at + 3] = w;
  }

  private tuple(type: UsdaValueType, level: number, out: number[]): void {
    const t: UsdaTokenizer = this.t;
    if (!t.isPunct('(')) t.fail(`expected "(" to open a ${type.name} value, found ${t.describe()}`);
    t.next();
    const want = type.shape[level]!;
    const inner = level + 1 < type.shape.length;
    let count = 0;
    do {
      if (t.isPunct(')')) break;
      if (inner) this.tuple(type, level + 1, out);
      else out.push(this.number(type.base, type.name));
      count++;
    } while (t.eat(','));
    const line = t.line;
    t.expect(')', `or "," in a ${type.name} value`);
    if (count !== want) t.fail(`a ${type.name} value needs ${want} ${inner ? 'rows' : 'components'} in each tuple, found ${count}`, line);
  }

  /** One numeric component, converted as USD converts it to `base`. */
  private number(base: UsdaBase, typeName: string): number {
    const t: UsdaTokenizer = this.t;
    let v: number | undefined;
    const floating = base === 'half' || base === 'float' || base === 'double' || base === 'timecode';
    if (t.at(USDA_NUMBER)) v = t.number;
    else if (t.at(USDA_NAME) || t.at(USDA_STRING)) {
      if (floating) v = t.text === 'inf' ? Infinity : t.text === '-inf' ? -Infinity : t.text === 'nan' ? NaN : undefined;
      else if (base === 'bool') {
        const word = BOOL_WORDS[t.text.toLowerCase()];
        v = word === undefined ? undefined : word ? 1 : 0;
      }
    }
    if (v === undefined) return t.fail(`expected a number for ${typeName}, found ${t.describe()}`);
    const stored = storedNumber(base, v);
    if (stored === undefined) return t.fail(`${t.describe()} does not fit in ${typeName}`);
    t.next();
    return stored;
  }

  /** A string, token or asset path component. */
  private text(base: UsdaBase, typeName: string): string {
    const t: UsdaTokenizer = this.t;
    if (t.at(USDA_STRING) || (base === 'asset' && t.at(USDA_ASSET))) {
      const text = t.text;
      t.next();
      return text;
    }
    return t.fail(`expected a ${base === 'asset' ? 'quoted or @…@ asset path' : 'quoted string'} for ${typeName}, found ${t.describe()}`);
  }

  private key(): string {
    const t: UsdaTokenizer = this.t;
    // Keys are strings or plain names (keywords included), never `a:b` names.
    if (t.at(USDA_STRING) || (t.at(USDA_NAME) && !(t.namespaced && !t.text.includes('::')))) {
      const key = t.text;
      t.next();
      return key;
    }
    return t.fail(`expected a dictionary key, found ${t.describe()}`);
  }
}

function isText(base: UsdaBase): base is 'string' | 'token' | 'asset' | 'pathExpression' {
  return base === 'string' || base === 'token' || base === 'asset' || base === 'pathExpression';
}

function scalarText(base: 'string' | 'token' | 'asset' | 'pathExpression', value: string): SdfValue {
  return base === 'pathExpression' ? { kind: 'unsupported', type: 'pathExpression' } : { kind: base, value };
}

function scalarNumbers(type: UsdaValueType, components: number[]): SdfValue {
  if (type.shape.length > 0) return { kind: 'tuple', type: type.name, value: components };
  const value = components[0]!;
  if (type.base === 'bool') return { kind: 'bool', value: value !== 0 };
  return { kind: 'number', type: type.base as Exclude<UsdaBase, 'string' | 'token' | 'asset' | 'pathExpression' | 'opaque'>, value };
}

function sortedMap<V>(entries: Map<string, V>): Map<string, V> {
  // VtDictionary is a std::map: keys in byte order, which UTF-16 order matches outside surrogates.
  return new Map([...entries.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function untypedToSdf(item: Untyped): SdfValue {
  switch (item.kind) {
    case 'number':
      return { kind: 'number', type: 'double', value: item.value };
    case 'string':
    case 'token':
    case 'asset':
      return { kind: item.kind, value: item.value };
    case 'path':
      return { kind: 'unsupported', type: 'path' };
    case 'tuple':
      return item.items.every((i) => i.kind === 'number')
        ? { kind: 'tuple', type: `double${item.items.length}`, value: item.items.map((i) => (i as { value: number }).value) }
        : { kind: 'unsupported', type: 'tuple' };
    case 'list': {
      const items = item.items;
      for (const kind of ['string', 'token', 'asset'] as const) {
        if (items.length > 0 && items.every((i) => i.kind === kind))
          return { kind: 'stringArray', type: `${kind}[]`, value: items.map((i) => (i as { value: string }).value) };
      }
      if (items.length > 0 && items.every((i) => i.kind === 'number')) {
        return { kind: 'array', type: 'double[]', size: 1, value: Float64Array.from(items, (i) => (i as { value: number }).value) };
      }
      const size = items[0]?.kind === 'tuple' ? items[0].items.length : 0;
      if (size > 0 && items.every((i) => i.kind === 'tuple' && i.items.length === size && i.items.every((c) => c.kind === 'number'))) {
        const flat = items.flatMap((i) => (i as { items: Array<{ value: number }> }).items.map((c) => c.value));
        return { kind: 'array', type: `double${size}[]`, size, value: Float64Array.from(flat) };
      }
      return { kind: 'unsupported', type: 'list' };
    }
  }
}
