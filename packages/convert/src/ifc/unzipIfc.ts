import { inflateRawSync } from 'node:zlib';
import { ModelUnreadableError } from '../errors/ConvertError.js';
import { readZipDirectory } from '@arsession/usd';
import { withConvertErrors } from '../usdz/fromUsdError.js';

/** Options of {@link unzipIfc}. */
export interface UnzipIfcOptions {
  fileName?: string;
  /** Largest uncompressed IFC accepted (bytes): a zip bomb stops here, not at memory exhaustion. */
  maxBytes: number;
}

/** Defaults of {@link unzipIfc}. */
export const UNZIP_IFC_DEFAULTS: Readonly<UnzipIfcOptions> = { maxBytes: 1024 * 1024 * 1024 };

/**
 * Extracts the IFC file from an `.ifczip` (web-ifc reads only plain STEP): the first `.ifc` entry
 * of the checked central directory, inflated with a hard output limit.
 *
 * @example
 * ```ts
 * const step = unzipIfc(readFileSync('model.ifczip'));
 * ```
 */
export function unzipIfc(bytes: Uint8Array, options: Partial<UnzipIfcOptions> = {}): Uint8Array {
  const { maxBytes, fileName } = { ...UNZIP_IFC_DEFAULTS, ...options };
  const fail = (why: string) => new ModelUnreadableError(`${fileName ?? 'ifczip'}: ${why}`, fileName === undefined ? {} : { fileName });
  const entry = withConvertErrors({ fileName }, () => readZipDirectory(bytes, fileName)).find((e) => /\.ifc$/i.test(e.name));
  if (!entry) throw fail('the zip holds no .ifc file');
  if (entry.size > maxBytes)
    throw fail(`${entry.name} unpacks to ${entry.size} bytes, over the ${maxBytes} bytes an archive may unpack to`);
  const data = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  if (entry.method === 0) return data;
  if (entry.method !== 8) throw fail(`entry ${entry.name} uses compression method ${entry.method}; only stored and deflate are supported`);
  try {
    // No more than the directory declares: a bomb declares little and inflates to much.
    return inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw fail(`${entry.name} unpacks to more than the ${entry.size} bytes the zip declares for it (a zip bomb?)`);
    throw fail(`entry ${entry.name} cannot be inflated (${(err as Error).message})`);
  }
}
