import { inflateRawSync } from 'node:zlib';
import { UsdUnreadableError, UsdPackageError } from '../errors/UsdError.js';
import { readZipDirectory, type ZipDirectoryEntry } from '../zip/readZipDirectory.js';
import { zipStored, type ZipEntry } from '../zip/zipStored.js';

/** Options of {@link checkUsdzPackage}. */
export interface CheckUsdzPackageOptions {
  fileName?: string;
  field?: string;
  /**
   * Largest total unpacked size (bytes) of the entries read (those left out are never inflated):
   * declared sizes are counted before anything is inflated, and no entry inflates past its own.
   * A server passes its upload limit: a bomb is held to what a plain file could be.
   */
  maxUnpackedBytes: number;
}

/** Defaults of {@link checkUsdzPackage}. */
export const CHECK_USDZ_PACKAGE_DEFAULTS: Readonly<CheckUsdzPackageOptions> = { maxUnpackedBytes: 1024 * 1024 * 1024 };

/** A package that passed, possibly after a repack. */
export interface CheckedUsdzPackage {
  /** The package bytes: the input, or a repacked copy when entries were compressed or misaligned. */
  bytes: Uint8Array;
  /** Entries in package order, with their (uncompressed) data; those in `leftOut` are not among them. */
  entries: ZipEntry[];
  /** What the repack fixed, if anything (rule codes). */
  repaired: string[];
  /**
   * Entries of kinds neither ARKit nor we load (an `.obj` beside the layers, a GIF, a UDIM tile
   * named oddly): OpenUSD opens such packages, so they are read, and these are never inflated nor
   * delivered (a repack leaves them out). A layer that refers to one as a layer is refused when
   * the stage is composed.
   */
  leftOut: string[];
}

const LAYER = /\.(usda|usdc|usd)$/i;
// Input may carry what Pixar's checker allows (EXR images, audio) and what OpenUSD reads and we
// transcode (TGA, as Blender packs it); anything else is left out. Output is stricter.
const LOADED = /\.(usda|usdc|usd|usdz|png|jpe?g|tga|exr|m4a|mp3|wav)$/i;

/**
 * Checks a USDZ against the package rules ARKit enforces and repairs what a repack can repair.
 * Refused ({@link UsdPackageError}, naming the rule): entries escaping the package, a first
 * entry that is not a USD layer, and zip bombs. Repaired by repacking (stored, 64-byte aligned,
 * same order): compressed and misaligned entries. Entries of kinds no one here loads are listed
 * in `leftOut` (OpenUSD opens such packages too).
 *
 * @example
 * ```ts
 * const { bytes, repaired } = checkUsdzPackage(upload); // repaired: ['compressed_entry', 'misaligned_entry']
 * ```
 */
export function checkUsdzPackage(input: Uint8Array, options: Partial<CheckUsdzPackageOptions> = {}): CheckedUsdzPackage {
  const opts = { ...CHECK_USDZ_PACKAGE_DEFAULTS, ...options };
  const named = { ...(opts.fileName !== undefined && { fileName: opts.fileName }), ...(opts.field !== undefined && { field: opts.field }) };
  const label = opts.fileName ?? 'the USDZ';
  const refuse = (rule: string, why: string) => new UsdPackageError(rule, `${label}: ${why}`, named);
  const directory = readZipDirectory(input, opts.fileName);
  if (directory.length === 0) throw refuse('empty_package', 'the package has no entries');

  for (const e of directory) {
    if (e.name.startsWith('/') || e.name.includes('\\') || e.name.split('/').includes('..') || /^[a-z]:/i.test(e.name)) {
      throw refuse('entry_escapes_package', `entry "${e.name}" points outside the package`);
    }
  }
  const files = directory.filter((e) => !e.name.endsWith('/'));
  const loaded = files.filter((e) => LOADED.test(e.name));
  // Counted as declared before anything is inflated; an entry that inflates past its declaration is refused on the way.
  let unpacked = 0;
  for (const e of loaded) {
    unpacked += e.size;
    if (unpacked > opts.maxUnpackedBytes)
      throw refuse(
        'too_large',
        `the package unpacks to more than the ${opts.maxUnpackedBytes} bytes it may ` +
          `(entry "${e.name}" declares ${e.size} bytes, ${unpacked} with those before it)`,
      );
  }
  const first = directory[0]!;
  // A package may stand first for its own root layer, as OpenUSD reads it.
  if (!LAYER.test(first.name) && !/\.usdz$/i.test(first.name))
    throw refuse('first_entry_not_usd', `the first entry, "${first.name}", is not a USD layer; the root layer must come first`);

  const leftOut = files.filter((e) => !LOADED.test(e.name)).map((e) => e.name);
  const repaired = new Set<string>();
  const entries = loaded.map((e) => ({ name: e.name, data: entryData(input, e, opts, refuse, repaired) }));
  for (const e of directory) if (e.method === 0 && e.dataOffset % 64 !== 0) repaired.add('misaligned_entry');
  if (repaired.size === 0) return { bytes: input, entries, repaired: [], leftOut };
  const bytes = new Uint8Array(Buffer.concat(zipStored(entries)));
  return { bytes, entries, repaired: [...repaired].sort(), leftOut };
}

function entryData(
  bytes: Uint8Array,
  e: ZipDirectoryEntry,
  opts: CheckUsdzPackageOptions,
  refuse: (rule: string, why: string) => UsdPackageError,
  repaired: Set<string>,
): Uint8Array {
  const raw = bytes.subarray(e.dataOffset, e.dataOffset + e.compressedSize);
  const named = { ...(opts.fileName !== undefined && { fileName: opts.fileName }), ...(opts.field !== undefined && { field: opts.field }) };
  const label = opts.fileName ?? 'the USDZ';
  if (e.method === 0) return raw;
  if (e.method !== 8)
    throw new UsdUnreadableError(
      `${label}: entry "${e.name}" uses compression method ${e.method}; only stored and deflate are supported`,
      named,
    );
  repaired.add('compressed_entry');
  const limit = Math.min(opts.maxUnpackedBytes, Math.max(e.size, 1));
  try {
    return inflateRawSync(raw, { maxOutputLength: limit });
  } catch (err) {
    // Inflating past the size the directory declares is the zip bomb's trick: name it as one.
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw refuse('too_large', `entry "${e.name}" unpacks to more than the ${e.size} bytes the zip declares for it (a zip bomb?)`);
    }
    throw new UsdUnreadableError(`${label}: entry "${e.name}" cannot be inflated (${(err as Error).message})`, named);
  }
}
