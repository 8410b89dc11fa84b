import { UsdUnreadableError } from '../errors/UsdError.js';

/** One entry of a zip, from its central directory and local header. */
export interface ZipDirectoryEntry {
  name: string;
  /** 0 stored, 8 deflate. */
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  headerOffset: number;
  /** Where the entry's (possibly compressed) data starts in the file. */
  dataOffset: number;
}

/**
 * Reads a zip's central directory (the authoritative list) and checks each entry against its
 * local header and the file's real length, so no later step trusts a size that is not there.
 *
 * @example
 * ```ts
 * readZipDirectory(readFileSync('model.usdz')).map((e) => e.name); // → ['model.usda', 'textures/0.png']
 * ```
 */
export function readZipDirectory(bytes: Uint8Array, fileName?: string): ZipDirectoryEntry[] {
  const fail = (why: string) => new UsdUnreadableError(`${fileName ?? 'USDZ'}: ${why}`, fileName === undefined ? {} : { fileName });
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (v.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw fail('not a complete zip (no end of central directory; truncated?)');
  const count = v.getUint16(eocd + 10, true);
  const cdSize = v.getUint32(eocd + 12, true),
    cdOffset = v.getUint32(eocd + 16, true);
  if (cdOffset + cdSize > eocd) throw fail('the central directory lies outside the file');
  const entries: ZipDirectoryEntry[] = [];
  let at = cdOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > eocd || v.getUint32(at, true) !== 0x02014b50) throw fail(`central directory entry ${n} is corrupt`);
    const nameLength = v.getUint16(at + 28, true);
    const entry = {
      name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: v.getUint16(at + 10, true),
      flags: v.getUint16(at + 8, true),
      crc: v.getUint32(at + 16, true),
      compressedSize: v.getUint32(at + 20, true),
      size: v.getUint32(at + 24, true),
      headerOffset: v.getUint32(at + 42, true),
      dataOffset: 0,
    };
    at += 46 + nameLength + v.getUint16(at + 30, true) + v.getUint16(at + 32, true);
    const h = entry.headerOffset;
    if (h + 30 > bytes.length || v.getUint32(h, true) !== 0x04034b50)
      throw fail(`entry ${entry.name} has no local header where the directory says`);
    entry.dataOffset = h + 30 + v.getUint16(h + 26, true) + v.getUint16(h + 28, true);
    if (entry.dataOffset + entry.compressedSize > bytes.length) throw fail(`entry ${entry.name} runs past the end of the file`);
    entries.push(entry);
  }
  return entries;
}
