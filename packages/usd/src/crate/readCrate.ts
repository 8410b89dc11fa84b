import { UsdUnreadableError } from '../errors/UsdError.js';
import type { SdfLayer, SdfLayerOffset, SdfListOp, SdfReference, SdfSpec, SdfSpecType, SdfValue } from '../sdf/SdfLayer.js';
import { NUMERIC_TYPES, SCALAR_BYTES, SPEC_TYPE_NAMES, TYPE, type CrateNumericType } from './crateTypes.js';
import { decompressFramed } from './decompressLz4.js';
import { decodeIntegers } from './integerCoding.js';
import { type DecodeBudget, DecodeBudgetExceeded, decodeBudgetFor, type DecodeBudgetOptions } from './DecodeBudget.js';

/** Options of {@link readCrate}: what a refusal names besides the layer, and what the layer may decode to. */
export interface ReadCrateOptions {
  fileName?: string;
  field?: string;
  /** The layer's decoding allowance (see {@link decodeBudgetFor}); defaults {@link DECODE_BUDGET_DEFAULTS}. */
  budget?: Partial<DecodeBudgetOptions>;
  /** An allowance shared with other layers (all those of one package), used instead of `budget`. */
  allowance?: DecodeBudget;
}

const BOOTSTRAP_BYTES = 88;
const ARRAY = 0x80000000,
  INLINED = 0x40000000,
  COMPRESSED = 0x20000000,
  ARRAY_EDIT = 0x10000000;
/** Int and float arrays shorter than this are stored as they are, even in files that compress. */
const MIN_COMPRESSED_ARRAY = 16;
/** What one decoded object (a token's string, a field, a path) costs the heap, about: booked with the allowance. */
const PER_OBJECT_BYTES = 64;
/** Nesting of values in values (dictionaries, time samples) read at most. */
const MAX_VALUE_DEPTH = 64;
const SPECIFIERS = ['def', 'over', 'class'] as const;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A fault in the file, with what it is: reported as a {@link UsdUnreadableError} naming the layer. */
class CrateError extends Error {}

/**
 * Reads a USD crate file (`.usdc`, "PXR-USDC", versions 0.4.0 to 0.14.0) into its specs: the
 * bootstrap and table of contents, the structural sections (tokens, strings, fields, field sets,
 * paths, specs; LZ4-framed and integer-coded) and every field's value — inlined or stored,
 * scalars, vectors, quaternions (as `[x, y, z, w]`), matrices, arrays (integer- and
 * float-compressed ones too), dictionaries, list ops, references, payloads, variant selections,
 * time samples. Values of types this reader does not model come back `unsupported`. Every count,
 * offset and size is checked against the bytes present before it is used, so a corrupt or hostile
 * file is refused with a {@link UsdUnreadableError} naming the layer and the fault; it never
 * over-allocates, loops, or throws anything else.
 *
 * @example
 * ```ts
 * const layer = readCrate(entry.data, 'model.usdc');
 * layer.specs.get('/')?.fields.get('upAxis'); // → { kind: 'token', value: 'Y' }
 * ```
 */
export function readCrate(bytes: Uint8Array, identifier: string, options: ReadCrateOptions = {}): SdfLayer {
  try {
    return new CrateReader(bytes, options.allowance ?? decodeBudgetFor(bytes.length, options.budget)).read(identifier);
  } catch (err) {
    throw refusal(err, identifier, options);
  }
}

interface ValueRep {
  hi: number;
  lo: number;
}

/**
 * A crate file's structural tables as they are stored, index for index: what a writer needs to
 * extend the file without rewriting its values ({@link CrateWriter.extending}).
 */
export interface CrateStructure {
  /** Major, minor, patch. */
  version: [number, number, number];
  tokens: string[];
  /** Each string as the index of its token. */
  strings: number[];
  fields: Array<{ token: number; rep: ValueRep }>;
  /** Field indexes, each set ended by 0xffffffff. */
  fieldSets: Uint32Array;
  /**
   * Per path index: its parent's index (−1 for the root), its element token (negative for a property), in the depth-first order the file
   * lists them.
   */
  paths: Array<{ index: number; parent: number; element: number }>;
  specs: Array<{ path: number; fieldSet: number; type: number }>;
  /** A field's value, decoded as {@link readCrate} decodes it. */
  value(rep: ValueRep): SdfValue;
}

/**
 * Reads a crate file's structural tables without decoding its values (see {@link CrateStructure});
 * refusals as {@link readCrate}'s.
 *
 * @example
 * ```ts
 * const { tokens, specs } = readCrateStructure(layerBytes, 'model.usdc');
 * ```
 */
export function readCrateStructure(bytes: Uint8Array, identifier: string, options: ReadCrateOptions = {}): CrateStructure {
  try {
    return new CrateReader(bytes, options.allowance ?? decodeBudgetFor(bytes.length, options.budget)).structure();
  } catch (err) {
    throw refusal(err, identifier, options);
  }
}

/** A fault of the file as the {@link UsdUnreadableError} that names the layer; anything else as it is. */
function refusal(err: unknown, identifier: string, options: ReadCrateOptions): unknown {
  if (!(err instanceof CrateError || err instanceof DecodeBudgetExceeded || err instanceof RangeError)) return err;
  const named = {
    ...(options.fileName !== undefined && { fileName: options.fileName }),
    ...(options.field !== undefined && { field: options.field }),
  };
  return new UsdUnreadableError(`${identifier}: not a readable USD crate file (${err.message})`, { ...named, cause: err });
}

class CrateReader {
  private version = 0; // major * 10000 + minor * 100 + patch
  private tokens: string[] = [];
  private strings: number[] = [];
  private paths: string[] = [];
  /** The path tree as stored: each entry's index, parent index and element token, depth first. */
  private pathTree: Array<{ index: number; parent: number; element: number }> = [];
  private fields: Array<{ token: number; rep: ValueRep }> = [];
  private fieldSets: Uint32Array = new Uint32Array(0);
  /** Reps being unpacked: a value that contains itself is refused, not followed forever. */
  private readonly unpacking = new Set<string>();

  constructor(
    private readonly bytes: Uint8Array,
    private readonly budget: DecodeBudget,
  ) {}

  read(identifier: string): SdfLayer {
    const specs = this.readStructure();
    return { identifier, specs: this.readSpecs(specs) };
  }

  structure(): CrateStructure {
    const specs = this.readStructure();
    const v = this.version;
    const raw = [];
    for (let i = 0; i < specs.count; i++) raw.push({ path: specs.paths[i]!, fieldSet: specs.sets[i]!, type: specs.types[i]! });
    return {
      version: [Math.floor(v / 10000), Math.floor(v / 100) % 100, v % 100],
      tokens: this.tokens,
      strings: this.strings,
      fields: this.fields,
      fieldSets: this.fieldSets,
      paths: this.pathTree,
      specs: raw,
      value: (rep) => this.value(rep, 0),
    };
  }

  /** Every section but the specs' fields decoded: tokens, strings, fields, field sets, paths; the specs' raw table. */
  private readStructure(): { count: number; paths: Uint32Array; sets: Uint32Array; types: Int32Array | Float64Array } {
    const sections = this.readBootstrap();
    const section = (name: string) => {
      const s = sections.get(name);
      if (!s) throw new CrateError(`the ${name} section is missing`);
      return s;
    };
    this.readTokens(section('TOKENS'));
    this.readStrings(section('STRINGS'));
    this.readFields(section('FIELDS'));
    this.readFieldSets(section('FIELDSETS'));
    this.readPaths(section('PATHS'));
    const s = section('SPECS');
    const c = new Cursor(this.bytes, s.start, 'SPECS', s.start + s.size);
    const count = c.uint64();
    const paths = new Uint32Array(this.compressedInts(c, count, 'SPECS').buffer);
    const sets = new Uint32Array(this.compressedInts(c, count, 'SPECS').buffer);
    const types = this.compressedInts(c, count, 'SPECS');
    return { count, paths, sets, types };
  }

  // ---- Structure ----

  private readBootstrap(): Map<string, { start: number; size: number }> {
    if (this.bytes.length < BOOTSTRAP_BYTES) throw new CrateError(`the file has ${this.bytes.length} bytes, fewer than the 88-byte header`);
    if (String.fromCharCode(...this.bytes.subarray(0, 8)) !== 'PXR-USDC') throw new CrateError('it does not start with "PXR-USDC"');
    const [major, minor, patch] = [this.bytes[8]!, this.bytes[9]!, this.bytes[10]!];
    this.version = major * 10000 + minor * 100 + patch;
    if (major !== 0 || minor > 14)
      throw new CrateError(`crate version ${major}.${minor}.${patch} is newer than this reader knows (0.14.0)`);
    if (minor < 4)
      throw new CrateError(
        `crate version ${major}.${minor}.${patch} predates 0.4.0 (2017), which no USDZ tool writes; re-export it with current USD`,
      );
    const cursor = new Cursor(this.bytes, this.uint64At(16), 'the table of contents');
    const count = cursor.count(32);
    const sections = new Map<string, { start: number; size: number }>();
    for (let i = 0; i < count; i++) {
      const nameBytes = cursor.bytes(16);
      const end = nameBytes.indexOf(0);
      const name = String.fromCharCode(...nameBytes.subarray(0, end < 0 ? 16 : end));
      const start = cursor.uint64(),
        size = cursor.uint64();
      if (start + size > this.bytes.length)
        throw new CrateError(`section ${name} lies outside the file (${start}+${size} > ${this.bytes.length})`);
      sections.set(name, { start, size });
    }
    return sections;
  }

  private readTokens(s: { start: number; size: number }): void {
    const c = new Cursor(this.bytes, s.start, 'TOKENS', s.start + s.size);
    const count = c.uint64();
    const uncompressed = c.uint64(),
      compressed = c.uint64();
    const chars = this.decompress(c.bytes(compressed), uncompressed, 'TOKENS');
    if (count > chars.length + 1) throw new CrateError(`TOKENS claims ${count} tokens in ${chars.length} bytes`);
    this.budget.take(count * PER_OBJECT_BYTES, `TOKENS (${count} tokens)`);
    const decoder = new TextDecoder();
    const tokens: string[] = [];
    let from = 0;
    for (let i = 0; i < count; i++) {
      let end = chars.indexOf(0, from);
      if (end < 0) end = chars.length;
      if (from > chars.length) throw new CrateError(`TOKENS claims ${count} tokens but holds ${i}`);
      tokens.push(decoder.decode(chars.subarray(from, end)));
      from = end + 1;
    }
    this.tokens = tokens;
  }

  private readStrings(s: { start: number; size: number }): void {
    const c = new Cursor(this.bytes, s.start, 'STRINGS', s.start + s.size);
    const count = c.count(4);
    const strings: number[] = [];
    for (let i = 0; i < count; i++) strings.push(this.tokenIndex(c.uint32()));
    this.strings = strings;
  }

  private readFields(s: { start: number; size: number }): void {
    const c = new Cursor(this.bytes, s.start, 'FIELDS', s.start + s.size);
    const count = c.uint64();
    const tokens = this.compressedInts(c, count, 'FIELDS');
    const repsSize = c.uint64();
    const reps = this.decompress(c.bytes(repsSize), count * 8, 'FIELDS');
    this.budget.take(count * PER_OBJECT_BYTES, `FIELDS (${count} fields)`);
    if (reps.length !== count * 8) throw new CrateError(`FIELDS holds ${reps.length / 8} value reps for ${count} fields`);
    const view = new DataView(reps.buffer, reps.byteOffset, reps.byteLength);
    this.fields = Array.from({ length: count }, (_, i) => ({
      token: this.tokenIndex(tokens[i]! >>> 0),
      rep: { lo: view.getUint32(8 * i, true), hi: view.getUint32(8 * i + 4, true) },
    }));
  }

  private readFieldSets(s: { start: number; size: number }): void {
    const c = new Cursor(this.bytes, s.start, 'FIELDSETS', s.start + s.size);
    const count = c.uint64();
    const sets = new Uint32Array(this.compressedInts(c, count, 'FIELDSETS').buffer);
    if (sets.length > 0 && sets[sets.length - 1] !== 0xffffffff) throw new CrateError('FIELDSETS does not end its last field set');
    for (const f of sets)
      if (f !== 0xffffffff && f >= this.fields.length) throw new CrateError(`FIELDSETS refers to field ${f} of ${this.fields.length}`);
    this.fieldSets = sets;
  }

  private readPaths(s: { start: number; size: number }): void {
    const c = new Cursor(this.bytes, s.start, 'PATHS', s.start + s.size);
    const total = c.uint64();
    const encoded = c.uint64();
    if (encoded > total) throw new CrateError(`PATHS claims ${encoded} of ${total} paths`);
    // Each path a string, a tree entry and a place on the walk's stack.
    this.budget.take(total * PER_OBJECT_BYTES, `PATHS (${total} paths)`);
    const pathIndexes = new Uint32Array(this.compressedInts(c, encoded, 'PATHS').buffer);
    const elements = this.compressedInts(c, encoded, 'PATHS');
    const jumps = this.compressedInts(c, encoded, 'PATHS');
    const paths: string[] = new Array<string>(total).fill('');
    const seen = new Uint8Array(total);
    // Depth first as written: each entry's jump says whether a child follows it and where its
    // next sibling is; the siblings still to visit wait on a stack (no recursion, any depth).
    const pending: Array<{ index: number; parent: string | undefined; parentSlot: number }> =
      encoded > 0 ? [{ index: 0, parent: undefined, parentSlot: -1 }] : [];
    const tree: Array<{ index: number; parent: number; element: number }> = [];
    let visited = 0;
    while (pending.length) {
      let { index, parent, parentSlot } = pending.pop()!;
      for (;;) {
        if (index >= encoded) throw new CrateError(`PATHS jumps to entry ${index} of ${encoded}`);
        if (++visited > encoded) throw new CrateError('PATHS visits an entry twice');
        const slot = pathIndexes[index]!;
        if (slot >= total || seen[slot]) throw new CrateError(`PATHS names path ${slot} twice or out of range`);
        seen[slot] = 1;
        let path: string;
        if (parent === undefined) path = '/';
        else {
          const element = elements[index]!;
          const name = this.token(Math.abs(element));
          path =
            element < 0
              ? `${parent}.${name}`
              : name.startsWith('{') || parent.endsWith('}')
                ? `${parent}${name}`
                : parent === '/'
                  ? `/${name}`
                  : `${parent}/${name}`;
        }
        paths[slot] = path;
        tree.push({ index: slot, parent: parentSlot, element: elements[index]! });
        const jump = jumps[index]!;
        const hasChild = jump > 0 || jump === -1,
          hasSibling = jump >= 0;
        if (hasChild && hasSibling) pending.push({ index: index + jump, parent, parentSlot });
        if (hasChild) {
          parent = path;
          parentSlot = slot;
          index++;
        } else if (hasSibling) {
          index++;
        } else break;
      }
    }
    this.paths = paths;
    this.pathTree = tree;
  }

  private readSpecs({
    count,
    paths,
    sets,
    types,
  }: {
    count: number;
    paths: Uint32Array;
    sets: Uint32Array;
    types: Int32Array | Float64Array;
  }): Map<string, SdfSpec> {
    const specs = new Map<string, SdfSpec>();
    for (let i = 0; i < count; i++) {
      const path = this.paths[paths[i]!];
      if (path === undefined || path === '') throw new CrateError(`spec ${i} has no path`);
      const type = SPEC_TYPE_NAMES[types[i]!] as SdfSpecType | undefined;
      if (type === undefined) throw new CrateError(`spec ${path} has the unknown type ${types[i]}`);
      const set = sets[i]!;
      if (set >= this.fieldSets.length || (set > 0 && this.fieldSets[set - 1] !== 0xffffffff))
        throw new CrateError(`spec ${path} refers to field set ${set}, which is not the start of one`);
      const fields = new Map<string, SdfValue>();
      for (let f = set; this.fieldSets[f] !== 0xffffffff; f++) {
        const field = this.fields[this.fieldSets[f]!]!;
        fields.set(this.token(field.token), this.value(field.rep, 0));
      }
      specs.set(path, { type, fields });
    }
    return specs;
  }

  // ---- Values ----

  /** The value a rep stands for. */
  private value(rep: ValueRep, depth: number): SdfValue {
    if (depth > MAX_VALUE_DEPTH) throw new CrateError(`values nest deeper than ${MAX_VALUE_DEPTH}`);
    const type = (rep.hi >>> 16) & 0xff;
    const payload = (rep.hi & 0xffff) * 2 ** 32 + rep.lo;
    if (rep.hi & ARRAY_EDIT) return { kind: 'unsupported', type: 'arrayEdit' };
    const numeric = NUMERIC_TYPES.get(type);
    if (rep.hi & ARRAY) {
      if (payload === 0) return this.emptyArray(type, numeric);
      return this.array(type, numeric, new Cursor(this.bytes, payload, 'an array'), (rep.hi & COMPRESSED) !== 0);
    }
    if (numeric) return this.scalar(numeric, (rep.hi & INLINED) !== 0, rep.lo, payload);
    const inlined = (rep.hi & INLINED) !== 0;
    const key = `${rep.hi}:${rep.lo}`;
    if (!inlined) {
      if (this.unpacking.has(key)) throw new CrateError('a value contains itself');
      this.unpacking.add(key);
    }
    try {
      return this.other(type, inlined, rep.lo, payload, depth);
    } finally {
      this.unpacking.delete(key);
    }
  }

  private scalar(t: CrateNumericType, inlined: boolean, lo: number, payload: number): SdfValue {
    let values: number[];
    if (inlined) {
      values = decodeInline(t, lo);
    } else {
      const c = new Cursor(this.bytes, payload, t.name);
      values = Array.from({ length: t.components }, () => c.scalar(t.scalar));
    }
    if (t.components === 1)
      return t.scalar === 'bool' ? { kind: 'bool', value: values[0] !== 0 } : { kind: 'number', type: t.scalar, value: values[0]! };
    return { kind: 'tuple', type: t.name, value: values };
  }

  private other(type: number, inlined: boolean, lo: number, payload: number, depth: number): SdfValue {
    const at = () => new Cursor(this.bytes, payload, `a value of crate type ${type}`);
    switch (type) {
      case TYPE.Token:
        return { kind: 'token', value: inlined ? this.token(lo) : this.token(at().uint32()) };
      case TYPE.String:
        return { kind: 'string', value: inlined ? this.string(lo) : this.string(at().uint32()) };
      case TYPE.AssetPath:
        return { kind: 'asset', value: inlined ? this.token(lo) : this.token(at().uint32()) };
      case TYPE.Specifier:
        return { kind: 'specifier', value: SPECIFIERS[inlined ? lo : at().uint32()] ?? 'over' };
      case TYPE.Variability:
        return { kind: 'variability', value: (inlined ? lo : at().uint32()) === 1 ? 'uniform' : 'varying' };
      case TYPE.Permission:
        return { kind: 'permission', value: (inlined ? lo : at().uint32()) === 1 ? 'private' : 'public' };
      case TYPE.ValueBlock:
        return { kind: 'none' };
      case TYPE.Dictionary:
        return { kind: 'dictionary', value: inlined ? new Map() : this.dictionary(at(), depth) };
      case TYPE.TokenVector:
        return { kind: 'tokenList', value: this.list(at(), 4, (c) => this.token(c.uint32())) };
      case TYPE.PathVector:
        return { kind: 'pathList', value: this.list(at(), 4, (c) => this.path(c.uint32())) };
      case TYPE.StringVector:
        return { kind: 'stringList', value: this.list(at(), 4, (c) => this.string(c.uint32())) };
      case TYPE.DoubleVector:
        return { kind: 'array', type: 'double[]', size: 1, value: Float64Array.from(this.list(at(), 8, (c) => c.float64())) };
      case TYPE.LayerOffsetVector:
        return { kind: 'layerOffsets', value: this.list(at(), 16, (c) => layerOffset(c)) };
      case TYPE.TokenListOp:
        return { kind: 'tokenListOp', value: this.listOp(at(), (c) => this.token(c.uint32())) };
      case TYPE.StringListOp:
        return { kind: 'stringListOp', value: this.listOp(at(), (c) => this.string(c.uint32())) };
      case TYPE.PathListOp:
        return { kind: 'pathListOp', value: this.listOp(at(), (c) => this.path(c.uint32())) };
      case TYPE.IntListOp:
      case TYPE.UIntListOp:
        return { kind: 'intListOp', value: this.listOp(at(), (c) => (type === TYPE.IntListOp ? c.int32() : c.uint32())) };
      case TYPE.Int64ListOp:
      case TYPE.UInt64ListOp:
        return { kind: 'intListOp', value: this.listOp(at(), (c) => c.scalar(type === TYPE.Int64ListOp ? 'int64' : 'uint64')) };
      case TYPE.ReferenceListOp:
        return { kind: 'referenceListOp', value: this.listOp(at(), (c) => this.reference(c, depth)) };
      case TYPE.PayloadListOp:
        return { kind: 'payloadListOp', value: this.listOp(at(), (c) => this.payload(c)) };
      case TYPE.Payload:
        return { kind: 'payload', value: this.payload(at()) };
      case TYPE.VariantSelectionMap: {
        const c = at();
        const map = new Map<string, string>();
        for (let i = 0, n = c.count(8); i < n; i++) map.set(this.string(c.uint32()), this.string(c.uint32()));
        return { kind: 'variantSelection', value: map };
      }
      case TYPE.TimeSamples:
        return { kind: 'timeSamples', value: this.timeSamples(at(), depth) };
      case TYPE.Value:
      case TYPE.UnregisteredValue:
        return this.nestedValue(at(), depth);
      case TYPE.PathExpression:
        return { kind: 'unsupported', type: 'pathExpression' };
      case TYPE.Relocates:
        return { kind: 'unsupported', type: 'relocates' };
      case TYPE.Spline:
        return { kind: 'unsupported', type: 'spline' };
      case TYPE.AnimationBlock:
        return { kind: 'unsupported', type: 'animationBlock' };
      default:
        return { kind: 'unsupported', type: `crate type ${type}` };
    }
  }

  private emptyArray(type: number, numeric: CrateNumericType | undefined): SdfValue {
    if (numeric) return { kind: 'array', type: `${numeric.name}[]`, size: numeric.components, value: typedArray(numeric.scalar, 0) };
    const names: Record<number, 'token[]' | 'string[]' | 'asset[]'> = {
      [TYPE.Token]: 'token[]',
      [TYPE.String]: 'string[]',
      [TYPE.AssetPath]: 'asset[]',
    };
    const name = names[type];
    return name ? { kind: 'stringArray', type: name, value: [] } : { kind: 'unsupported', type: `array of crate type ${type}` };
  }

  private array(type: number, numeric: CrateNumericType | undefined, c: Cursor, compressed: boolean): SdfValue {
    if (!numeric) {
      const read =
        type === TYPE.Token
          ? (k: Cursor) => this.token(k.uint32())
          : type === TYPE.String
            ? (k: Cursor) => this.string(k.uint32())
            : type === TYPE.AssetPath
              ? (k: Cursor) => this.token(k.uint32())
              : undefined;
      if (!read) return { kind: 'unsupported', type: `array of crate type ${type}` };
      const n = this.arraySize(c, 4);
      this.budget.take(n * 8, `an array of ${n} strings`);
      const value = Array.from({ length: n }, () => read(c));
      return { kind: 'stringArray', type: type === TYPE.Token ? 'token[]' : type === TYPE.String ? 'string[]' : 'asset[]', value };
    }
    const { scalar, components } = numeric;
    const count = this.arraySize(c, compressed ? 0 : SCALAR_BYTES[scalar] * components);
    // Booked whether compressed or not: many fields may share one stored array, each read a copy.
    this.budget.take(count * components * typedArray(scalar, 0).BYTES_PER_ELEMENT, `an array of ${count} ${numeric.name}`);
    const total = count * components;
    const out = { kind: 'array' as const, type: `${numeric.name}[]`, size: components };
    const integer = scalar === 'int' || scalar === 'uint' || scalar === 'int64' || scalar === 'uint64';
    const floating = scalar === 'half' || scalar === 'float' || scalar === 'double';
    if (
      !compressed ||
      components !== 1 ||
      count < MIN_COMPRESSED_ARRAY ||
      (integer && this.version < 500) ||
      (floating && this.version < 600) ||
      (!integer && !floating)
    ) {
      return { ...out, value: c.array(scalar, total) };
    }
    if (integer) {
      const wide = scalar === 'int64' || scalar === 'uint64';
      const ints = this.compressedInts(c, count, 'an integer array', wide ? 64 : 32);
      return {
        ...out,
        value:
          scalar === 'uint'
            ? new Uint32Array(ints.buffer)
            : wide
              ? Float64Array.from(ints, (v) => (scalar === 'uint64' && v < 0 ? v + 2 ** 64 : v))
              : ints,
      };
    }
    const code = String.fromCharCode(c.uint8());
    const value = typedArray(scalar, count);
    if (code === 'i') {
      value.set(this.compressedInts(c, count, 'a float array'));
    } else if (code === 't') {
      const lut = c.array(scalar, c.uint32());
      const indexes = new Uint32Array(this.compressedInts(c, count, 'a float array').buffer);
      for (let i = 0; i < count; i++) {
        const k = indexes[i]!;
        if (k >= lut.length) throw new CrateError(`a float array's lookup index ${k} is past its ${lut.length}-entry table`);
        value[i] = lut[k]!;
      }
    } else {
      throw new CrateError(`a compressed float array has the unknown coding "${code}"`);
    }
    return { ...out, value };
  }

  /** An array's element count (preceded by a rank before 0.5.0; 32-bit before 0.7.0), checked against the bytes left. */
  private arraySize(c: Cursor, elementBytes: number): number {
    if (this.version < 500) c.uint32(); // the rank, always 1
    const n = this.version < 700 ? c.uint32() : c.uint64();
    if (elementBytes > 0) c.expect(n * elementBytes);
    return n;
  }

  private dictionary(c: Cursor, depth: number): Map<string, SdfValue> {
    const map = new Map<string, SdfValue>();
    for (let i = 0, n = c.count(12); i < n; i++) {
      const key = this.string(c.uint32());
      map.set(key, this.nestedValue(c, depth));
    }
    return map;
  }

  /** A value stored as a forward offset to its rep (dictionary values, time samples): read, then the cursor moves past the rep. */
  private nestedValue(c: Cursor, depth: number): SdfValue {
    const from = c.at;
    const offset = c.int64();
    const at = new Cursor(this.bytes, from + offset, 'a nested value');
    const rep = { lo: at.uint32(), hi: at.uint32() };
    c.seek(at.at);
    return this.value(rep, depth + 1);
  }

  private timeSamples(c: Cursor, depth: number): Map<number, SdfValue> {
    const from = c.at;
    const timesAt = new Cursor(this.bytes, from + c.int64(), 'time sample times');
    const timesRep = { lo: timesAt.uint32(), hi: timesAt.uint32() };
    const times = this.value(timesRep, depth + 1);
    const timeList = times.kind === 'array' ? Array.from(times.value) : times.kind === 'number' ? [times.value] : [];
    const valuesFrom = timesAt.at;
    const valuesAt = new Cursor(this.bytes, valuesFrom + new Cursor(this.bytes, valuesFrom, 'time samples').int64(), 'time sample values');
    const n = valuesAt.count(8);
    if (n !== timeList.length) throw new CrateError(`time samples have ${timeList.length} times but ${n} values`);
    const samples = new Map<number, SdfValue>();
    for (let i = 0; i < n; i++) samples.set(timeList[i]!, this.value({ lo: valuesAt.uint32(), hi: valuesAt.uint32() }, depth + 1));
    return samples;
  }

  /** A vector: a 64-bit count, then its items (at least `itemBytes` each). */
  private list<T>(c: Cursor, itemBytes: number, item: (c: Cursor) => T): T[] {
    const n = c.count(itemBytes);
    this.budget.take(n * 8, `a list of ${n} items`);
    return Array.from({ length: n }, () => item(c));
  }

  private listOp<T>(c: Cursor, item: (c: Cursor) => T): SdfListOp<T> {
    const bits = c.uint8();
    const part = (bit: number) => (bits & bit ? this.list(c, 4, item) : []);
    // Written in this order: explicit, added, prepended, appended, deleted, ordered.
    const explicit = part(2),
      added = part(4),
      prepended = part(32),
      appended = part(64),
      deleted = part(8),
      ordered = part(16);
    return { ...(bits & 1 && { explicit }), prepended, appended, added, deleted, ordered };
  }

  private reference(c: Cursor, depth: number): SdfReference {
    const assetPath = this.string(c.uint32());
    const primPath = this.path(c.uint32());
    const offset = layerOffset(c);
    // Custom data on a reference is read (to move past it) and not kept.
    for (let i = 0, n = c.count(12); i < n; i++) {
      c.uint32();
      this.nestedValue(c, depth);
    }
    return { assetPath, primPath, layerOffset: offset };
  }

  private payload(c: Cursor): SdfReference {
    const assetPath = this.string(c.uint32());
    const primPath = this.path(c.uint32());
    return { assetPath, primPath, layerOffset: this.version >= 800 ? layerOffset(c) : { offset: 0, scale: 1 } };
  }

  // ---- Tables ----

  private token(i: number): string {
    const t = this.tokens[i];
    if (t === undefined) throw new CrateError(`token ${i} of ${this.tokens.length} does not exist`);
    return t;
  }

  private tokenIndex(i: number): number {
    if (i >= this.tokens.length) throw new CrateError(`token ${i} of ${this.tokens.length} does not exist`);
    return i;
  }

  private string(i: number): string {
    const t = this.strings[i];
    if (t === undefined) throw new CrateError(`string ${i} of ${this.strings.length} does not exist`);
    return this.token(t);
  }

  private path(i: number): string {
    // The empty path (an internal reference's asset, a reference to a default prim) is written as an index no path has.
    return this.paths[i] ?? '';
  }

  /** `count` integers coded and framed as USD stores them: a size, then that many bytes. */
  private compressedInts(c: Cursor, count: number, what: string, width: 32 | 64 = 32): Int32Array | Float64Array {
    const size = c.uint64();
    const bytes = c.bytes(size);
    const perValue = width === 32 ? 4 : 8;
    this.budget.take(count * perValue, `${what} (${count} integers)`);
    const coded = this.decompress(bytes, perValue + Math.ceil((count * 2) / 8) + count * perValue, what);
    try {
      return decodeIntegers(coded, count, width);
    } catch (err) {
      throw new CrateError(`${what}: ${(err as Error).message}`);
    }
  }

  private decompress(bytes: Uint8Array, maxOutput: number, what: string): Uint8Array {
    this.budget.take(maxOutput, what);
    try {
      return decompressFramed(bytes, maxOutput);
    } catch (err) {
      throw new CrateError(`${what}: ${(err as Error).message}`);
    }
  }

  private uint64At(at: number): number {
    return new Cursor(this.bytes, at, 'the header').uint64();
  }
}

/** Reads forward through the file, every read checked against its end. */
class Cursor {
  private readonly view: DataView;

  constructor(
    private readonly data: Uint8Array,
    public at: number,
    private readonly what: string,
    private readonly end = data.length,
  ) {
    if (!(at >= 0 && at <= end)) throw new CrateError(`${what} is said to start at ${at}, outside the file`);
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }

  expect(n: number): void {
    if (!(n >= 0) || this.at + n > this.end)
      throw new CrateError(`${this.what} needs ${n} bytes at ${this.at} but the data ends at ${this.end}`);
  }

  seek(at: number): void {
    if (at < 0 || at > this.end) throw new CrateError(`${this.what} jumps outside the file`);
    this.at = at;
  }

  uint8(): number {
    this.expect(1);
    return this.data[this.at++]!;
  }
  uint32(): number {
    this.expect(4);
    const v = this.view.getUint32(this.at, true);
    this.at += 4;
    return v;
  }
  int32(): number {
    this.expect(4);
    const v = this.view.getInt32(this.at, true);
    this.at += 4;
    return v;
  }
  float64(): number {
    this.expect(8);
    const v = this.view.getFloat64(this.at, true);
    this.at += 8;
    return v;
  }

  int64(): number {
    this.expect(8);
    const v = this.view.getBigInt64(this.at, true);
    this.at += 8;
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER))
      throw new CrateError(`${this.what} holds an offset beyond 2^53`);
    return Number(v);
  }

  uint64(): number {
    this.expect(8);
    const hi = this.view.getUint32(this.at + 4, true),
      lo = this.view.getUint32(this.at, true);
    this.at += 8;
    if (hi > 0x1fffff) throw new CrateError(`${this.what} holds a size beyond 2^53`);
    return hi * 2 ** 32 + lo;
  }

  /** A 64-bit count of items of at least `itemBytes` each, checked against the bytes left. */
  count(itemBytes: number): number {
    const n = this.uint64();
    this.expect(n * itemBytes);
    return n;
  }

  bytes(n: number): Uint8Array {
    this.expect(n);
    const out = this.data.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  scalar(s: keyof typeof SCALAR_BYTES): number {
    const n = SCALAR_BYTES[s];
    this.expect(n);
    const v = readScalar(this.view, this.at, s);
    this.at += n;
    return v;
  }

  /** `n` components stored as they are, as a typed array of their own. */
  array(s: keyof typeof SCALAR_BYTES, n: number): ReturnType<typeof typedArray> {
    const size = SCALAR_BYTES[s];
    this.expect(n * size);
    const out = typedArray(s, n);
    const bytes = this.data.subarray(this.at, this.at + n * size);
    if (LITTLE_ENDIAN && (s === 'float' || s === 'double' || s === 'int' || s === 'uint' || s === 'uchar' || s === 'bool')) {
      new Uint8Array(out.buffer).set(bytes);
    } else {
      for (let i = 0; i < n; i++) out[i] = readScalar(this.view, this.at + i * size, s);
    }
    this.at += n * size;
    return out;
  }
}

function readScalar(view: DataView, at: number, s: keyof typeof SCALAR_BYTES): number {
  switch (s) {
    case 'bool':
    case 'uchar':
      return view.getUint8(at);
    case 'int':
      return view.getInt32(at, true);
    case 'uint':
      return view.getUint32(at, true);
    case 'int64':
      return Number(view.getBigInt64(at, true));
    case 'uint64':
      return Number(view.getBigUint64(at, true));
    case 'half':
      return halfToNumber(view.getUint16(at, true));
    case 'float':
      return view.getFloat32(at, true);
    default:
      return view.getFloat64(at, true);
  }
}

function typedArray(s: keyof typeof SCALAR_BYTES, n: number): Float32Array | Float64Array | Int32Array | Uint32Array | Uint8Array {
  switch (s) {
    case 'half':
    case 'float':
      return new Float32Array(n);
    case 'int':
      return new Int32Array(n);
    case 'uint':
      return new Uint32Array(n);
    case 'bool':
    case 'uchar':
      return new Uint8Array(n);
    default:
      return new Float64Array(n);
  }
}

/** An inlined numeric value: a scalar's own bits, or int8 components (vectors, a matrix's diagonal). */
function decodeInline(t: CrateNumericType, lo: number): number[] {
  const view = new DataView(new ArrayBuffer(4));
  view.setUint32(0, lo, true);
  if (t.components === 1) {
    switch (t.scalar) {
      case 'bool':
      case 'uchar':
        return [lo & 0xff];
      case 'int':
      case 'int64':
        return [view.getInt32(0, true)];
      case 'uint':
      case 'uint64':
        return [lo >>> 0];
      case 'half':
        return [halfToNumber(lo & 0xffff)];
      default:
        return [view.getFloat32(0, true)]; // float, and a double that a float holds
    }
  }
  if (/^matrix/.test(t.name)) {
    const n = Math.round(Math.sqrt(t.components));
    const m = new Array<number>(t.components).fill(0);
    for (let i = 0; i < n; i++) m[i * n + i] = view.getInt8(i);
    return m;
  }
  return Array.from({ length: t.components }, (_, i) => view.getInt8(i));
}

function layerOffset(c: Cursor): SdfLayerOffset {
  return { offset: c.float64(), scale: c.float64() };
}

/** IEEE 754 half (binary16) to a number. */
function halfToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >>> 10) & 0x1f,
    fraction = h & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}
