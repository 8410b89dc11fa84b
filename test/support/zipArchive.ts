import { crc32, deflateRawSync } from 'node:zlib';

/** One entry of {@link zipArchive}. */
export interface ZipArchiveEntry {
  name: string;
  data: Uint8Array;
  /** Deflate the data (method 8) instead of storing it. */
  deflate?: boolean;
  /** The uncompressed size the headers claim; default the truth. A zip bomb claims little. */
  declaredSize?: number;
  /** With `deflate`: the bytes written as the entry's deflate stream, as they are (none of `data` is compressed). */
  stream?: Uint8Array;
}

/**
 * A plain zip (no alignment, no data descriptors) whose headers may lie about sizes: hostile
 * packages for the USDZ and ifczip readers, built in memory.
 */
export function zipArchive(entries: readonly ZipArchiveEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const data = e.deflate ? (e.stream ? Buffer.from(e.stream) : deflateRawSync(e.data)) : Buffer.from(e.data);
    const method = e.deflate ? 8 : 0,
      crc = crc32(e.data),
      size = e.declaredSize ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(method, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    central.push(entry, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}
