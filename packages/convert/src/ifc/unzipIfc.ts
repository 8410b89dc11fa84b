import { inflateRawSync } from 'node:zlib';
import { ModelUnreadableError } from '../errors/ConvertError.js';

/** Options of {@link unzipIfc}. */
export interface UnzipIfcOptions {
  fileName?: string;
  /** Largest uncompressed IFC accepted (bytes): a zip bomb stops here, not at memory exhaustion. */
  maxBytes: number;
}

/** Defaults of {@link unzipIfc}. */
export const UNZIP_IFC_DEFAULTS: Readonly<UnzipIfcOptions> = { maxBytes: 1024 * 1024 * 1024 };

/**
 * Extracts the IFC file from an `.ifczip` (web-ifc reads only plain STEP). Reads the central
 * directory, takes the first `.ifc` entry, and inflates it with a hard output limit.
 *
 * @example
 * ```ts
 * const step = unzipIfc(readFileSync('model.ifczip'));
 * ```
 */
export function unzipIfc(bytes: Uint8Array, options: Partial<UnzipIfcOptions> = {}): Uint8Array {
  const { maxBytes, fileName } = { ...UNZIP_IFC_DEFAULTS, ...options };
  const label = fileName ?? 'ifczip';
  const fail = (why: string) => new ModelUnreadableError(`${label}: ${why}`, fileName === undefined ? {} : { fileName });
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (v.getUint32(i, true) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw fail('not a complete zip (no end of central directory)');
  const count = v.getUint16(eocd + 10, true);
  let at = v.getUint32(eocd + 16, true);
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || v.getUint32(at, true) !== 0x02014b50) throw fail('corrupt zip central directory');
    const method = v.getUint16(at + 10, true);
    const compressed = v.getUint32(at + 20, true), size = v.getUint32(at + 24, true);
    const nameLength = v.getUint16(at + 28, true), extraLength = v.getUint16(at + 30, true), commentLength = v.getUint16(at + 32, true);
    const localOffset = v.getUint32(at + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    if (!/\.ifc$/i.test(name)) continue;
    if (size > maxBytes) throw fail(`${name} unpacks to ${size} bytes, over the ${maxBytes}-byte limit`);
    if (localOffset + 30 > bytes.length || v.getUint32(localOffset, true) !== 0x04034b50) throw fail(`entry ${name} has no local header`);
    const dataStart = localOffset + 30 + v.getUint16(localOffset + 26, true) + v.getUint16(localOffset + 28, true);
    if (dataStart + compressed > bytes.length) throw fail(`entry ${name} runs past the end of the file`);
    const data = bytes.subarray(dataStart, dataStart + compressed);
    if (method === 0) return data;
    if (method !== 8) throw fail(`entry ${name} uses compression method ${method}; only stored and deflate are supported`);
    try {
      return inflateRawSync(data, { maxOutputLength: maxBytes });
    } catch (err) {
      throw fail(`entry ${name} cannot be inflated (${(err as Error).message})`);
    }
  }
  throw fail('the zip holds no .ifc file');
}
