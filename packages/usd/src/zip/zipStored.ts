import { crc32 } from 'node:zlib';

/** One file of a zip package. */
export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

/** An entry to pack: its bytes whole, or as parts in order (stored as their concatenation, never copied). */
export interface ZipEntryInput {
  name: string;
  data: Uint8Array | readonly Uint8Array[];
}

/** Options of {@link zipStored}. */
export interface ZipStoredOptions {
  /** Byte boundary every entry's data starts on. USDZ requires 64 so layers can be memory-mapped. */
  alignment: number;
}

/** Defaults of {@link zipStored}. */
export const ZIP_STORED_DEFAULTS: Readonly<ZipStoredOptions> = { alignment: 64 };

// Padding goes in a private extra field; 0x1986 is the id Pixar's own USDZ writer uses for it.
const PADDING_EXTRA_ID = 0x1986;
// 1980-01-01 00:00: a fixed timestamp keeps output byte-identical run to run.
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const DOS_TIME = 0;

/** What a zip header needs to know of an entry before its data is written. */
export interface ZipEntryHeader {
  name: string;
  size: number;
  crc: number;
}

/** Headers of a stored, aligned zip: one local header per entry (data goes after each), then the tail. */
export interface ZipLayout {
  locals: Uint8Array[];
  /** Central directory and end record, written after the last entry's data. */
  tail: Uint8Array;
}

/**
 * Lays out a stored zip whose entry data start on `alignment`-byte boundaries (USDZ requires 64),
 * from names, sizes and CRCs alone, so callers can stream each entry's data from wherever it is.
 * Output depends only on the entries: a fixed timestamp, no data descriptors, no zip64.
 */
export function zipLayout(entries: readonly ZipEntryHeader[], options: Partial<ZipStoredOptions> = {}): ZipLayout {
  const { alignment } = { ...ZIP_STORED_DEFAULTS, ...options };
  const encoder = new TextEncoder();
  const locals: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    let pad = (alignment - ((offset + 30 + name.length) % alignment)) % alignment;
    if (pad > 0 && pad < 4) pad += alignment; // an extra field needs 4 bytes of its own header
    const { crc, size } = entry;
    if (offset + 30 + name.length + pad + size > 0xffffffff) throw new RangeError('USDZ package over 4 GiB (zip64 is not allowed in USDZ)');

    const local = new Uint8Array(30 + name.length + pad);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true); // version needed: 2.0
    lv.setUint16(6, 0, true); // flags: none (sizes are known up front; no data descriptor)
    lv.setUint16(8, 0, true); // method: stored
    lv.setUint16(10, DOS_TIME, true);
    lv.setUint16(12, DOS_DATE, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, size, true);
    lv.setUint32(22, size, true);
    lv.setUint16(26, name.length, true);
    lv.setUint16(28, pad, true);
    local.set(name, 30);
    if (pad > 0) {
      lv.setUint16(30 + name.length, PADDING_EXTRA_ID, true);
      lv.setUint16(32 + name.length, pad - 4, true);
    }
    locals.push(local);

    const cd = new Uint8Array(46 + name.length);
    const cv = new DataView(cd.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true); // version made by
    cv.setUint16(6, 20, true);
    cv.setUint16(12, DOS_TIME, true);
    cv.setUint16(14, DOS_DATE, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, size, true);
    cv.setUint32(24, size, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(42, offset, true);
    cd.set(name, 46);
    central.push(cd);
    offset += local.length + size;
  }
  const cdSize = central.reduce((s, c) => s + c.length, 0);
  const tail = new Uint8Array(cdSize + 22);
  let at = 0;
  for (const c of central) {
    tail.set(c, at);
    at += c.length;
  }
  const ev = new DataView(tail.buffer, cdSize);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, cdSize, true);
  ev.setUint32(16, offset, true);
  return { locals, tail };
}

/**
 * Packs in-memory entries into a stored, 64-byte-aligned zip (see {@link zipLayout}). Returns the
 * parts of the file in order (concatenate or stream them) to avoid one more copy.
 *
 * @example
 * ```ts
 * const parts = zipStored([{ name: 'scene.usda', data: layer }, { name: 'tex/0.png', data: png }]);
 * await writeFile('model.usdz', Buffer.concat(parts));
 * ```
 */
export function zipStored(entries: readonly ZipEntryInput[], options: Partial<ZipStoredOptions> = {}): Uint8Array[] {
  const parts = entries.map((e) => (e.data instanceof Uint8Array ? [e.data] : e.data));
  const { locals, tail } = zipLayout(
    entries.map((e, i) => ({
      name: e.name,
      size: parts[i]!.reduce((n, p) => n + p.length, 0),
      crc: parts[i]!.reduce((crc, p) => crc32(p, crc), 0) >>> 0,
    })),
    options,
  );
  return [...entries.flatMap((_, i) => [locals[i]!, ...parts[i]!]), tail];
}
