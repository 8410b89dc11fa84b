import { CRATE_TYPE } from './crateTypes.js';
import type { CrateStructure } from './readCrate.js';
import { compressIntegers } from './integerCoding.js';
import { fastCompress } from './fastCompression.js';

/**
 * A crate value representation: 64 bits as two uint32 halves. `hi` holds the flags (array,
 * inlined, compressed), the type and the payload's top 16 bits; `lo` the payload's low 32 bits
 * (a file offset, or an inlined value).
 */
export interface ValueRep {
  hi: number;
  lo: number;
}

/** The crate version we write: 0.8.0, what current USD writes by default and ARKit reads. */
export const CRATE_VERSION = [0, 8, 0] as const;

const ARRAY = 0x80000000,
  INLINED = 0x40000000,
  COMPRESSED = 0x20000000;
const BOOTSTRAP_SIZE = 88;
// Below this many elements USD stores int arrays as they are.
const MIN_COMPRESSED_ARRAY = 16;
const FIELD_SET_END = 0xffffffff;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const encoder = new TextEncoder();

interface PathNode {
  parent: number;
  token: number;
  property: boolean;
  children: number[];
  /** Children by name, properties prefixed with '.'; made with the first child. */
  childIndex: Map<string, number> | undefined;
}

/**
 * Builds a USD crate (`.usdc`) file: values are written as they are packed, specs and their
 * fields are collected, and {@link finish} appends the structural sections (tokens, strings,
 * fields, field sets, paths, specs) and the table of contents, then fills in the bootstrap.
 * Large arrays are not copied: the parts returned reference the caller's typed arrays, so the
 * caller must not change them before the parts are written out. An array passed again (the same
 * object) is written once and referenced again, as USD's own writer deduplicates values.
 *
 * @example
 * ```ts
 * const crate = new CrateWriter();
 * const root = crate.rootPath();
 * crate.addSpec(root, SPEC_TYPE.PseudoRoot, [['upAxis', crate.token('Y')]]);
 * const parts = crate.finish();
 * ```
 */
export class CrateWriter {
  private readonly parts: Uint8Array[] = [new Uint8Array(BOOTSTRAP_SIZE)];
  private scratch = new Uint8Array(1 << 16);
  private view = new DataView(this.scratch.buffer);
  private used = 0;
  /** File offset of `scratch[0]`. */
  private base = BOOTSTRAP_SIZE;

  private readonly tokens: string[] = [];
  private readonly tokenIndex = new Map<string, number>();
  private readonly strings: number[] = [];
  private readonly stringIndex = new Map<string, number>();
  private readonly paths: PathNode[] = [];
  private readonly fields: Array<{ token: number; rep: ValueRep }> = [];
  /** Field index by rep.hi, then token, then rep.lo: numbers all the way, no key strings. */
  private readonly fieldIndex = new Map<number, Map<number, Map<number, number>>>();
  private readonly fieldSets: number[] = [];
  /** Start of each field set in `fieldSets`, by a hash of its field indexes. */
  private readonly fieldSetIndex = new Map<number, number[]>();
  private specs: Array<{ path: number; fieldSet: number; type: number }> = [];
  /** Arrays already written, by identity: instances of one mesh share its points and indices. */
  private readonly written = new Map<object, ValueRep>();
  /** Index of the absolute root path. */
  private root = 0;
  private version: readonly number[] = CRATE_VERSION;

  constructor() {
    // Token 0 is the empty token, the absolute root's element: a property's token index is
    // stored negated, so no property may have index 0.
    this.tokenOf('');
    this.paths.push({ parent: -1, token: 0, property: false, children: [], childIndex: undefined });
  }

  /**
   * A writer that extends an existing crate file instead of starting one: its bytes stay where
   * they are (every stored value keeps its offset), its tables keep their indexes (every field,
   * field set, path and token already referenced means what it meant), and what is added goes
   * after them. {@link finish} writes new structural sections and table of contents at the end and
   * points the copied bootstrap at them, keeping the file's version.
   *
   * @example
   * ```ts
   * const crate = CrateWriter.extending(layer, readCrateStructure(layer, 'model.usdc'));
   * ```
   */
  static extending(original: Uint8Array, s: CrateStructure): CrateWriter {
    const w = new CrateWriter();
    w.parts.length = 0;
    w.parts.push(original.slice(0, BOOTSTRAP_SIZE), original.subarray(BOOTSTRAP_SIZE));
    w.base = original.length;
    w.version = s.version;
    w.tokens.length = 0;
    w.tokenIndex.clear();
    s.tokens.forEach((t, i) => {
      w.tokens.push(t);
      if (!w.tokenIndex.has(t)) w.tokenIndex.set(t, i);
    });
    s.strings.forEach((token, i) => {
      w.strings.push(token);
      const text = s.tokens[token]!;
      if (!w.stringIndex.has(text)) w.stringIndex.set(text, i);
    });
    // Verbatim, duplicates included: every index must keep its meaning.
    for (const f of s.fields) {
      const index = w.fields.length;
      w.fields.push(f);
      let byToken = w.fieldIndex.get(f.rep.hi);
      if (!byToken) w.fieldIndex.set(f.rep.hi, (byToken = new Map()));
      let byLo = byToken.get(f.token);
      if (!byLo) byToken.set(f.token, (byLo = new Map()));
      if (!byLo.has(f.rep.lo)) byLo.set(f.rep.lo, index);
    }
    let start = 0;
    for (let i = 0; i < s.fieldSets.length; i++) {
      w.fieldSets.push(s.fieldSets[i]!);
      if (s.fieldSets[i] !== FIELD_SET_END) continue;
      const indexes = Array.from(s.fieldSets.subarray(start, i));
      let hash = indexes.length;
      for (const x of indexes) hash = (Math.imul(hash, 31) + x) | 0;
      const list = w.fieldSetIndex.get(hash) ?? [];
      list.push(start);
      w.fieldSetIndex.set(hash, list);
      start = i + 1;
    }
    w.paths.length = 0;
    const size = s.paths.reduce((n, p) => Math.max(n, p.index + 1), 0);
    for (let i = 0; i < size; i++) w.paths.push({ parent: -1, token: 0, property: false, children: [], childIndex: undefined });
    for (const p of s.paths) {
      const node = w.paths[p.index]!;
      node.parent = p.parent;
      node.token = Math.abs(p.element);
      node.property = p.element < 0;
      if (p.parent >= 0) w.paths[p.parent]!.children.push(p.index);
    }
    w.root = s.paths[0]?.index ?? 0;
    w.specs = s.specs.map((x) => ({ ...x }));
    return w;
  }

  /** The absolute root path `/`. */
  rootPath(): number {
    return this.root;
  }

  /**
   * Makes a new absolute root and returns the path the old one now has: it and everything under it
   * wait to be given a place with {@link adoptPath}. The root keeps the first index (readers, USD's
   * own among them, take the first path for the root); the old root's specs move with it.
   */
  newRoot(): number {
    const old = this.paths.length;
    const node = this.paths[this.root]!;
    this.paths.push(node);
    for (const c of node.children) this.paths[c]!.parent = old;
    for (const spec of this.specs) if (spec.path === this.root) spec.path = old;
    this.paths[this.root] = { parent: -1, token: node.token, property: false, children: [], childIndex: undefined };
    return old;
  }

  /** Hangs an existing path, with everything under it, below `parent` as the prim `name`. */
  adoptPath(parent: number, path: number, name: string): void {
    const node = this.paths[path]!;
    const parentNode = this.paths[parent]!;
    node.parent = parent;
    node.token = this.tokenOf(name);
    node.property = false;
    parentNode.children.push(path);
    (parentNode.childIndex ??= this.childIndexOf(parent)).set(name, path);
  }

  /** The specs of `path`, with their fields by name (values as stored). */
  specsOf(path: number): Array<{ type: number; fields: Array<[string, ValueRep]> }> {
    return this.specs
      .filter((x) => x.path === path)
      .map((x) => {
        const fields: Array<[string, ValueRep]> = [];
        for (let f = x.fieldSet; this.fieldSets[f] !== FIELD_SET_END; f++) {
          const field = this.fields[this.fieldSets[f]!]!;
          fields.push([this.tokens[field.token]!, field.rep]);
        }
        return { type: x.type, fields };
      });
  }

  /** Replaces the specs of `path` with one of `type` holding `fields`. */
  replaceSpec(path: number, type: number, fields: ReadonlyArray<readonly [string, ValueRep]>): void {
    this.specs = this.specs.filter((x) => x.path !== path);
    this.addSpec(path, type, fields);
  }

  /** The path `parent/name` (a prim) or `parent.name` (a property). */
  childPath(parent: number, name: string, property = false): number {
    const node = this.paths[parent]!;
    const key = property ? `.${name}` : name;
    const childIndex = (node.childIndex ??= this.childIndexOf(parent));
    let index = childIndex.get(key);
    if (index === undefined) {
      index = this.paths.length;
      const token = this.tokenOf(name);
      // A property's element is stored as its token's index negated: index 0 cannot be told apart.
      if (property && token === 0) throw new Error(`CrateWriter: property ${name} has token 0, which a crate cannot store as a property`);
      this.paths.push({ parent, token, property, children: [], childIndex: undefined });
      node.children.push(index);
      childIndex.set(key, index);
    }
    return index;
  }

  /** A path given as text (`/A/B.prop`), created with its ancestors when new. */
  path(text: string): number {
    // Prim names never hold '/' or '.', and a property (after the one '.') is the last element.
    const dot = text.indexOf('.');
    const prims = dot < 0 ? text : text.slice(0, dot);
    let index = this.root;
    for (const name of prims.split('/')) if (name) index = this.childPath(index, name);
    return dot < 0 ? index : this.childPath(index, text.slice(dot + 1), true);
  }

  /** Adds a spec: a path, its type and its fields (name, packed value). */
  addSpec(path: number, type: number, fields: ReadonlyArray<readonly [string, ValueRep]>): void {
    const indexes = fields.map(([name, rep]) => this.field(this.tokenOf(name), rep));
    this.specs.push({ path, fieldSet: this.fieldSet(indexes), type });
  }

  // ---- Scalar values: inlined in the rep when USD inlines them, else written here. ----

  bool(v: boolean): ValueRep {
    return inlined(CRATE_TYPE.Bool, v ? 1 : 0);
  }
  int(v: number): ValueRep {
    return inlined(CRATE_TYPE.Int, v >>> 0);
  }
  float(v: number): ValueRep {
    return inlined(CRATE_TYPE.Float, floatBits(v));
  }
  token(s: string): ValueRep {
    return inlined(CRATE_TYPE.Token, this.tokenOf(s));
  }
  string(s: string): ValueRep {
    return inlined(CRATE_TYPE.String, this.stringOf(s));
  }
  assetPath(s: string): ValueRep {
    return inlined(CRATE_TYPE.AssetPath, this.tokenOf(s));
  }
  specifierDef(): ValueRep {
    return inlined(CRATE_TYPE.Specifier, 0);
  }
  /** `SdfSpecifier`: def 0, over 1, class 2. */
  specifier(specifier: 'def' | 'over' | 'class'): ValueRep {
    return inlined(CRATE_TYPE.Specifier, ['def', 'over', 'class'].indexOf(specifier));
  }
  variability(uniform: boolean): ValueRep {
    return inlined(CRATE_TYPE.Variability, uniform ? 1 : 0);
  }

  double(v: number): ValueRep {
    // A double that a float holds exactly is inlined as that float.
    if (Math.fround(v) === v || Number.isNaN(v)) return inlined(CRATE_TYPE.Double, floatBits(v));
    const rep = this.repAt(CRATE_TYPE.Double);
    this.reserve(8).setFloat64(this.used, v, true);
    this.used += 8;
    return rep;
  }

  /** A `GfVec2f`/`GfVec3f`/`GfVec4f`; inlined as int8s when every component is one. */
  vecf(type: typeof CRATE_TYPE.Vec2f | typeof CRATE_TYPE.Vec3f | typeof CRATE_TYPE.Vec4f, v: readonly number[]): ValueRep {
    if (v.every((x) => Number.isInteger(x) && x >= -128 && x <= 127 && !Object.is(x, -0))) {
      let bits = 0;
      v.forEach((x, i) => (bits |= (x & 0xff) << (8 * i)));
      return inlined(type, bits >>> 0);
    }
    const rep = this.repAt(type);
    const view = this.reserve(4 * v.length);
    v.forEach((x, i) => view.setFloat32(this.used + 4 * i, x, true));
    this.used += 4 * v.length;
    return rep;
  }

  /** A `GfMatrix4d` from 16 numbers in USD's row order; inlined when it is an integer diagonal. */
  matrix4d(m: ArrayLike<number>): ValueRep {
    let diagonal = true,
      bits = 0;
    for (let r = 0; r < 4; r++) {
      for (let c = 0; c < 4; c++) {
        const x = m[r * 4 + c]!;
        if (r !== c ? x !== 0 : !(Number.isInteger(x) && x >= -128 && x <= 127)) diagonal = false;
      }
      bits |= (m[r * 5]! & 0xff) << (8 * r);
    }
    if (diagonal) return inlined(CRATE_TYPE.Matrix4d, bits >>> 0);
    const rep = this.repAt(CRATE_TYPE.Matrix4d);
    const view = this.reserve(128);
    for (let i = 0; i < 16; i++) view.setFloat64(this.used + 8 * i, m[i]!, true);
    this.used += 128;
    return rep;
  }

  /** A `std::vector<TfToken>` (prim children, property names). */
  tokenVector(list: readonly string[]): ValueRep {
    const rep = this.repAt(CRATE_TYPE.TokenVector);
    this.indexList(list.map((s) => this.tokenOf(s)));
    return rep;
  }

  /** A token list op with prepended items only (`prepend apiSchemas = [...]`). */
  tokenListOpPrepend(items: readonly string[]): ValueRep {
    const rep = this.repAt(CRATE_TYPE.TokenListOp);
    this.byte(1 << 5); // HasPrependedItems
    this.indexList(items.map((s) => this.tokenOf(s)));
    return rep;
  }

  /** A string list op with prepended items only (`prepend variantSets = "storey"`). */
  stringListOpPrepend(items: readonly string[]): ValueRep {
    const rep = this.repAt(CRATE_TYPE.StringListOp);
    this.byte(1 << 5); // HasPrependedItems
    this.indexList(items.map((s) => this.stringOf(s)));
    return rep;
  }

  /** An `SdfVariantSelectionMap` (`variants = { string storey = "all" }`): a std::map, so in key order. */
  variantSelection(selections: ReadonlyMap<string, string>): ValueRep {
    const rep = this.repAt(CRATE_TYPE.VariantSelectionMap);
    const keys = [...selections.keys()].sort();
    this.uint64(keys.length);
    for (const key of keys) {
      this.uint32(this.stringOf(key));
      this.uint32(this.stringOf(selections.get(key)!));
    }
    return rep;
  }

  /**
   * A reference list op with prepended internal references only (`prepend references = </A>`):
   * each an empty asset path, the prim's path, a zero layer offset and no custom data.
   */
  referenceListOpPrepend(primPaths: readonly string[]): ValueRep {
    const rep = this.repAt(CRATE_TYPE.ReferenceListOp);
    this.byte(1 << 5); // HasPrependedItems
    this.uint64(primPaths.length);
    for (const target of primPaths) {
      this.uint32(this.stringOf(''));
      this.uint32(this.path(target));
      this.float64(0); // layer offset
      this.float64(1); // layer scale
      this.uint64(0); // custom data: an empty dictionary
    }
    return rep;
  }

  /** An explicit path list op (`rel x = <…>`, `a.connect = <…>`). */
  pathListOpExplicit(targets: readonly string[]): ValueRep {
    const rep = this.repAt(CRATE_TYPE.PathListOp);
    this.byte(0b11); // IsExplicit | HasExplicitItems
    this.indexList(targets.map((t) => this.path(t)));
    return rep;
  }

  /**
   * A `VtDictionary`, keys in order; each value is packed by its callback, which may write nested
   * data (USD puts a forward offset to the value's rep before it, for exactly that).
   */
  dictionary(entries: ReadonlyArray<readonly [string, () => ValueRep]>): ValueRep {
    if (entries.length === 0) return inlined(CRATE_TYPE.Dictionary, 0);
    const rep = this.repAt(CRATE_TYPE.Dictionary);
    this.uint64(entries.length);
    for (const [key, pack] of entries) {
      this.uint32(this.stringOf(key));
      const offsetAt = this.tell();
      this.uint64(0);
      const value = pack();
      this.patchUint64(offsetAt, this.tell() - offsetAt);
      this.rep(value);
    }
    return rep;
  }

  // ---- Arrays. ----

  /** An array of `GfVec2f`/`GfVec3f` from packed floats; the bytes are referenced, not copied. */
  vecfArray(type: typeof CRATE_TYPE.Vec2f | typeof CRATE_TYPE.Vec3f, values: Float32Array): ValueRep {
    const size = type === CRATE_TYPE.Vec2f ? 2 : 3;
    if (values.length === 0) return emptyArray(type);
    const known = this.writtenAs(values, type);
    if (known) return known;
    this.align(8);
    const rep = this.repAt(type, ARRAY);
    this.uint64(values.length / size);
    this.append(littleEndianBytes(values));
    this.written.set(values, rep);
    return rep;
  }

  /** An `int[]`, integer-coded from 16 elements on as USD does. */
  intArray(values: ArrayLike<number>): ValueRep {
    if (values.length === 0) return emptyArray(CRATE_TYPE.Int);
    const known = this.writtenAs(values, CRATE_TYPE.Int);
    if (known) return known;
    const compress = values.length >= MIN_COMPRESSED_ARRAY;
    const rep = this.repAt(CRATE_TYPE.Int, ARRAY | (compress ? COMPRESSED : 0));
    this.uint64(values.length);
    if (compress) {
      this.compressedInts(values);
    } else {
      const view = this.reserve(4 * values.length);
      for (let i = 0; i < values.length; i++) view.setInt32(this.used + 4 * i, values[i]! | 0, true);
      this.used += 4 * values.length;
    }
    this.written.set(values, rep);
    return rep;
  }

  /** A `string[]` or `token[]`: indices into the string or token table. */
  textArray(type: typeof CRATE_TYPE.String | typeof CRATE_TYPE.Token, values: readonly string[]): ValueRep {
    if (values.length === 0) return emptyArray(type);
    this.align(8);
    const rep = this.repAt(type, ARRAY);
    this.indexList(values.map((s) => (type === CRATE_TYPE.Token ? this.tokenOf(s) : this.stringOf(s))));
    return rep;
  }

  /** Appends the structural sections and the table of contents; returns the file as parts in order. */
  finish(): Uint8Array[] {
    const sections: Array<[string, number, number]> = [];
    const section = (name: string, write: () => void) => {
      const start = this.tell();
      write();
      sections.push([name, start, this.tell() - start]);
    };
    section('TOKENS', () => {
      const bytes = encoder.encode(this.tokens.map((t) => `${t}\0`).join(''));
      const framed = fastCompress(bytes);
      this.uint64(this.tokens.length);
      this.uint64(bytes.length);
      this.uint64(framed.length);
      this.append(framed);
    });
    section('STRINGS', () => this.indexList(this.strings));
    section('FIELDS', () => {
      this.uint64(this.fields.length);
      this.compressedInts(this.fields.map((f) => f.token));
      const reps = new Uint8Array(8 * this.fields.length);
      const view = new DataView(reps.buffer);
      this.fields.forEach((f, i) => {
        view.setUint32(8 * i, f.rep.lo, true);
        view.setUint32(8 * i + 4, f.rep.hi, true);
      });
      const framed = fastCompress(reps);
      this.uint64(framed.length);
      this.append(framed);
    });
    section('FIELDSETS', () => {
      this.uint64(this.fieldSets.length);
      this.compressedInts(this.fieldSets);
    });
    section('PATHS', () => this.writePaths());
    section('SPECS', () => {
      this.uint64(this.specs.length);
      this.compressedInts(this.specs.map((s) => s.path));
      this.compressedInts(this.specs.map((s) => s.fieldSet));
      this.compressedInts(this.specs.map((s) => s.type));
    });
    const tocOffset = this.tell();
    this.uint64(sections.length);
    for (const [name, start, size] of sections) {
      this.reserve(16);
      this.scratch.fill(0, this.used, this.used + 16);
      encoder.encodeInto(name, this.scratch.subarray(this.used, this.used + 15));
      this.used += 16;
      this.uint64(start);
      this.uint64(size);
    }
    this.flush();

    const boot = this.parts[0]!;
    encoder.encodeInto('PXR-USDC', boot);
    boot.set(this.version, 8);
    setUint64(new DataView(boot.buffer, boot.byteOffset), 16, tocOffset);
    return this.parts;
  }

  // ---- Structure. ----

  private writePaths(): void {
    // Depth first; each node says whether a child follows it and where its next sibling is.
    const order: number[] = [];
    const subtree = new Uint32Array(this.paths.length);
    const stack = [this.root];
    while (stack.length) {
      const p = stack.pop()!;
      order.push(p);
      const kids = this.paths[p]!.children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
    for (let i = order.length - 1; i >= 0; i--) {
      const p = order[i]!;
      subtree[p] = 1 + this.paths[p]!.children.reduce((s, c) => s + subtree[c]!, 0);
    }
    const elementTokens = new Int32Array(order.length);
    const jumps = new Int32Array(order.length);
    order.forEach((p, i) => {
      const node = this.paths[p]!;
      elementTokens[i] = node.property ? -node.token : node.token;
      const siblings = node.parent < 0 ? [] : this.paths[node.parent]!.children;
      const hasSibling = siblings.length > 0 && siblings[siblings.length - 1] !== p;
      const hasChild = node.children.length > 0;
      jumps[i] = hasChild && hasSibling ? subtree[p]! : hasSibling ? 0 : hasChild ? -1 : -2;
    });
    this.uint64(this.paths.length);
    this.uint64(order.length);
    this.compressedInts(order);
    this.compressedInts(elementTokens);
    this.compressedInts(jumps);
  }

  /** The children of `parent` by name, properties prefixed with '.'. */
  private childIndexOf(parent: number): Map<string, number> {
    const index = new Map<string, number>();
    for (const c of this.paths[parent]!.children) {
      const child = this.paths[c]!;
      index.set(child.property ? `.${this.tokens[child.token]}` : this.tokens[child.token]!, c);
    }
    return index;
  }

  private field(token: number, rep: ValueRep): number {
    let byToken = this.fieldIndex.get(rep.hi);
    if (!byToken) this.fieldIndex.set(rep.hi, (byToken = new Map()));
    let byLo = byToken.get(token);
    if (!byLo) byToken.set(token, (byLo = new Map()));
    let index = byLo.get(rep.lo);
    if (index === undefined) {
      index = this.fields.length;
      this.fields.push({ token, rep });
      byLo.set(rep.lo, index);
    }
    return index;
  }

  /** The field set of these field indexes: its start in `fieldSets`, appended when new. */
  private fieldSet(indexes: readonly number[]): number {
    let hash = indexes.length;
    for (const i of indexes) hash = (Math.imul(hash, 31) + i) | 0;
    let candidates = this.fieldSetIndex.get(hash);
    if (candidates) {
      for (const start of candidates) if (this.fieldSetEquals(start, indexes)) return start;
    } else {
      this.fieldSetIndex.set(hash, (candidates = []));
    }
    const start = this.fieldSets.length;
    for (const i of indexes) this.fieldSets.push(i);
    this.fieldSets.push(FIELD_SET_END);
    candidates.push(start);
    return start;
  }

  private fieldSetEquals(start: number, indexes: readonly number[]): boolean {
    for (let k = 0; k < indexes.length; k++) if (this.fieldSets[start + k] !== indexes[k]) return false;
    return this.fieldSets[start + indexes.length] === FIELD_SET_END;
  }

  /** The rep of `values` (the same object) when it was written before as an array of `type`. */
  private writtenAs(values: object, type: number): ValueRep | undefined {
    const known = this.written.get(values);
    return known && ((known.hi >>> 16) & 0xff) === type ? known : undefined;
  }

  private tokenOf(s: string): number {
    let index = this.tokenIndex.get(s);
    if (index === undefined) {
      index = this.tokens.length;
      this.tokens.push(s);
      this.tokenIndex.set(s, index);
    }
    return index;
  }

  private stringOf(s: string): number {
    let index = this.stringIndex.get(s);
    if (index === undefined) {
      index = this.strings.length;
      this.strings.push(this.tokenOf(s));
      this.stringIndex.set(s, index);
    }
    return index;
  }

  // ---- Bytes. ----

  private tell(): number {
    return this.base + this.used;
  }

  private repAt(type: number, flags = 0): ValueRep {
    const offset = this.tell();
    return { hi: (flags | (type << 16) | Math.floor(offset / 2 ** 32)) >>> 0, lo: offset >>> 0 };
  }

  private reserve(n: number): DataView {
    if (this.used + n > this.scratch.length) {
      const grown = new Uint8Array(Math.max(this.scratch.length * 2, this.used + n));
      grown.set(this.scratch.subarray(0, this.used));
      this.scratch = grown;
      this.view = new DataView(grown.buffer);
    }
    return this.view;
  }

  private byte(v: number): void {
    this.reserve(1);
    this.scratch[this.used++] = v;
  }

  private uint32(v: number): void {
    this.reserve(4).setUint32(this.used, v, true);
    this.used += 4;
  }

  private float64(v: number): void {
    this.reserve(8).setFloat64(this.used, v, true);
    this.used += 8;
  }

  private uint64(v: number): void {
    setUint64(this.reserve(8), this.used, v);
    this.used += 8;
  }

  private rep(r: ValueRep): void {
    const view = this.reserve(8);
    view.setUint32(this.used, r.lo, true);
    view.setUint32(this.used + 4, r.hi, true);
    this.used += 8;
  }

  private patchUint64(offset: number, v: number): void {
    if (offset >= this.base) {
      setUint64(this.view, offset - this.base, v);
      return;
    }
    // Already handed out as a part (a large value followed): find it. 8 bytes never straddle
    // parts, as a placeholder is written into the buffer in one piece.
    let start = this.base;
    for (let i = this.parts.length - 1; i >= 0; i--) {
      const part = this.parts[i]!;
      start -= part.length;
      if (offset >= start) {
        setUint64(new DataView(part.buffer, part.byteOffset, part.byteLength), offset - start, v);
        return;
      }
    }
  }

  private align(n: number): void {
    const pad = (n - (this.tell() % n)) % n;
    this.reserve(pad);
    this.scratch.fill(0, this.used, this.used + pad);
    this.used += pad;
  }

  private indexList(indexes: readonly number[]): void {
    this.uint64(indexes.length);
    const view = this.reserve(4 * indexes.length);
    indexes.forEach((x, i) => view.setUint32(this.used + 4 * i, x, true));
    this.used += 4 * indexes.length;
  }

  private compressedInts(values: ArrayLike<number>): void {
    const coded = compressIntegers(values);
    this.uint64(coded.length);
    this.append(coded);
  }

  /** Appends bytes as a part of their own (no copy) once they are worth it, else into the buffer. */
  private append(bytes: Uint8Array): void {
    if (bytes.length < 4096) {
      this.reserve(bytes.length);
      this.scratch.set(bytes, this.used);
      this.used += bytes.length;
      return;
    }
    this.flush();
    this.parts.push(bytes);
    this.base += bytes.length;
  }

  private flush(): void {
    if (this.used === 0) return;
    // A copy, so the buffer is reused and no part holds on to a mostly empty one.
    this.parts.push(this.scratch.slice(0, this.used));
    this.base += this.used;
    this.scratch.fill(0, 0, this.used);
    this.used = 0;
  }
}

/** An empty array of `type`: USD stores none, its rep says so with offset 0. */
function emptyArray(type: number): ValueRep {
  return { hi: (ARRAY | (type << 16)) >>> 0, lo: 0 };
}

function inlined(type: number, payload: number): ValueRep {
  return { hi: (INLINED | (type << 16)) >>> 0, lo: payload >>> 0 };
}

const floatScratch = new DataView(new ArrayBuffer(4));
function floatBits(v: number): number {
  floatScratch.setFloat32(0, v, true);
  return floatScratch.getUint32(0, true);
}

function setUint64(view: DataView, at: number, v: number): void {
  view.setUint32(at, v >>> 0, true);
  view.setUint32(at + 4, Math.floor(v / 2 ** 32), true);
}

function littleEndianBytes(values: Float32Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const out = new Uint8Array(values.byteLength);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setFloat32(4 * i, v, true));
  return out;
}
