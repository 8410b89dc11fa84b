import { fastCompress } from '../../src/crate/fastCompression.js';
import { compressIntegers } from '../../src/crate/integerCoding.js';

/**
 * Builds crate files byte by byte for tests, independently of our writer: any version, any value
 * coding (inlined, stored, compressed int and float arrays, 32-bit array sizes, time samples,
 * dictionaries, list ops), so the reader meets what other tools write. Values are laid out by the
 * test with {@link CrateBuilder.stored}; the builder adds the structural sections and header.
 */
export class CrateBuilder {
  private readonly data: number[] = [];
  private readonly tokens: string[] = [''];
  private readonly strings: number[] = [];
  private readonly specs: Array<{ path: string; type: number; fields: Array<[string, Rep]> }> = [];

  constructor(private readonly version: readonly [number, number, number] = [0, 8, 0]) {}

  token(s: string): number {
    let i = this.tokens.indexOf(s);
    if (i < 0) i = this.tokens.push(s) - 1;
    return i;
  }

  string(s: string): number {
    const t = this.token(s);
    let i = this.strings.indexOf(t);
    if (i < 0) i = this.strings.push(t) - 1;
    return i;
  }

  /** An inlined value: its type and 32 payload bits. */
  inline(type: number, bits: number): Rep {
    return { type, flags: 0x40000000, payload: bits >>> 0 };
  }

  /** A value stored at the current end of the value area (`bytes` laid out by the caller). */
  stored(type: number, bytes: Uint8Array, flags = 0): Rep {
    while (this.data.length % 8) this.data.push(0);
    const payload = 88 + this.data.length;
    this.data.push(...bytes);
    return { type, flags, payload };
  }

  /** The offset the next stored byte will have (for values that point forward to themselves). */
  get end(): number {
    return 88 + this.data.length + ((8 - (this.data.length % 8)) % 8);
  }

  spec(path: string, type: number, fields: Array<[string, Rep]>): void {
    this.specs.push({ path, type, fields });
  }

  build(): Uint8Array {
    // Paths: every spec path and its ancestors, in a tree written depth first.
    const all = new Set<string>(['/']);
    for (const { path } of this.specs) {
      for (let p = path; p !== '/'; p = parentOf(p)) all.add(p);
    }
    const children = new Map<string, string[]>();
    for (const p of [...all].sort()) if (p !== '/') (children.get(parentOf(p)) ?? children.set(parentOf(p), []).get(parentOf(p))!).push(p);
    const order: string[] = [];
    const visit = (p: string) => {
      order.push(p);
      for (const c of children.get(p) ?? []) visit(c);
    };
    visit('/');
    const index = new Map(order.map((p, i) => [p, i]));
    const elements = order.map((p) => {
      if (p === '/') return 0;
      const dot = p.lastIndexOf('.');
      const slash = Math.max(p.lastIndexOf('/'), p.lastIndexOf('}'));
      if (dot > slash) return -this.token(p.slice(dot + 1));
      const brace = p.lastIndexOf('{');
      if (brace > p.lastIndexOf('/') && p.endsWith('}')) return this.token(p.slice(brace));
      return this.token(p.slice(slash + 1));
    });
    const jumps = order.map((p) => {
      const kids = children.get(p) ?? [];
      const siblings = p === '/' ? [p] : children.get(parentOf(p))!;
      const hasSibling = siblings[siblings.length - 1] !== p;
      const subtree = (q: string): number => 1 + (children.get(q) ?? []).reduce((n, c) => n + subtree(c), 0);
      return kids.length && hasSibling ? subtree(p) : hasSibling ? 0 : kids.length ? -1 : -2;
    });
    const fields: Array<[number, Rep]> = [];
    const fieldSets: number[] = [];
    const specSets = this.specs.map((s) => {
      const start = fieldSets.length;
      for (const [name, rep] of s.fields) fieldSets.push(fields.push([this.token(name), rep]) - 1);
      fieldSets.push(0xffffffff);
      return start;
    });

    const out = new Bytes();
    out.raw(new Uint8Array(88));
    out.raw(Uint8Array.from(this.data));
    const toc: Array<[string, number, number]> = [];
    const section = (name: string, write: () => void) => {
      const start = out.length;
      write();
      toc.push([name, start, out.length - start]);
    };
    section('TOKENS', () => {
      const chars = new TextEncoder().encode(this.tokens.map((t) => `${t}\0`).join(''));
      const framed = fastCompress(chars);
      out.u64(this.tokens.length).u64(chars.length).u64(framed.length).raw(framed);
    });
    section('STRINGS', () => {
      out.u64(this.strings.length);
      for (const s of this.strings) out.u32(s);
    });
    section('FIELDS', () => {
      out.u64(fields.length).ints(fields.map(([t]) => t));
      const reps = new Uint8Array(8 * fields.length);
      const v = new DataView(reps.buffer);
      fields.forEach(([, r], i) => {
        v.setUint32(8 * i, r.payload % 2 ** 32, true);
        v.setUint32(8 * i + 4, (r.flags | (r.type << 16) | Math.floor(r.payload / 2 ** 32)) >>> 0, true);
      });
      const framed = fastCompress(reps);
      out.u64(framed.length).raw(framed);
    });
    section('FIELDSETS', () => out.u64(fieldSets.length).ints(fieldSets));
    section('PATHS', () =>
      out
        .u64(order.length)
        .u64(order.length)
        .ints(order.map((p) => index.get(p)!))
        .ints(elements)
        .ints(jumps),
    );
    section('SPECS', () =>
      out
        .u64(this.specs.length)
        .ints(this.specs.map((s) => index.get(s.path)!))
        .ints(specSets)
        .ints(this.specs.map((s) => s.type)),
    );
    const tocAt = out.length;
    out.u64(toc.length);
    for (const [name, start, size] of toc) {
      const n = new Uint8Array(16);
      n.set(new TextEncoder().encode(name));
      out.raw(n).u64(start).u64(size);
    }
    const bytes = out.bytes();
    bytes.set(new TextEncoder().encode('PXR-USDC'));
    bytes.set(this.version, 8);
    new DataView(bytes.buffer).setBigUint64(16, BigInt(tocAt), true);
    return bytes;
  }
}

/** A value rep as the builder writes it. */
export interface Rep {
  type: number;
  flags: number;
  payload: number;
}

/** Little-endian byte assembly for values and sections. */
export class Bytes {
  private readonly parts: number[] = [];
  get length(): number {
    return this.parts.length;
  }
  raw(b: ArrayLike<number>): this {
    for (let i = 0; i < b.length; i++) this.parts.push(b[i]!);
    return this;
  }
  u8(v: number): this {
    this.parts.push(v & 0xff);
    return this;
  }
  u32(v: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v >>> 0, true);
    return this.raw(b);
  }
  i64(v: number): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigInt64(0, BigInt(v), true);
    return this.raw(b);
  }
  u64(v: number): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, BigInt(v), true);
    return this.raw(b);
  }
  f32(v: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, v, true);
    return this.raw(b);
  }
  f64(v: number): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, v, true);
    return this.raw(b);
  }
  /** Integers coded and framed as crate sections and int arrays store them: a size, then the bytes. */
  ints(values: ArrayLike<number>): this {
    const c = compressIntegers(values);
    return this.u64(c.length).raw(c);
  }
  /** 64-bit integers coded (16- and 32-bit differences) and framed, a size first. */
  ints64(values: readonly number[]): this {
    const c = fastCompress(encodeInt64(values));
    return this.u64(c.length).raw(c);
  }
  bytes(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

/** USD's integer coding for 64-bit values, written here from its description (for the reader's 64-bit path). */
function encodeInt64(values: readonly number[]): Uint8Array {
  const out = new Bytes();
  let previous = 0;
  const diffs = values.map((v) => {
    const d = v - previous;
    previous = v;
    return d;
  });
  const common = 0;
  out.i64(common);
  const codes = new Uint8Array(Math.ceil((values.length * 2) / 8));
  const rest = new Bytes();
  diffs.forEach((d, i) => {
    const code = d === common ? 0 : d >= -32768 && d <= 32767 ? 1 : d >= -(2 ** 31) && d < 2 ** 31 ? 2 : 3;
    codes[i >> 2]! |= code << ((i & 3) * 2);
    if (code === 1) {
      const b = new Uint8Array(2);
      new DataView(b.buffer).setInt16(0, d, true);
      rest.raw(b);
    }
    if (code === 2) {
      const b = new Uint8Array(4);
      new DataView(b.buffer).setInt32(0, d, true);
      rest.raw(b);
    }
    if (code === 3) rest.i64(d);
  });
  return Uint8Array.from([...out.raw(codes).bytes(), ...rest.bytes()]);
}

function parentOf(p: string): string {
  const dot = p.lastIndexOf('.');
  const slash = p.lastIndexOf('/');
  const brace = p.lastIndexOf('}');
  if (dot > Math.max(slash, brace)) return p.slice(0, dot);
  if (brace > slash && !p.endsWith('}')) return p.slice(0, brace + 1);
  if (p.endsWith('}')) return p.slice(0, p.lastIndexOf('{'));
  return slash <= 0 ? '/' : p.slice(0, slash);
}
