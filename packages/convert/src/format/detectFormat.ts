/** Model formats the service accepts. `ifczip` is IFC inside a zip. */
export type ModelFormat = 'ifc' | 'ifczip' | 'glb' | 'usdz';

const GLB_MAGIC = 0x46546c67; // "glTF" little-endian
const ZIP_LOCAL_HEADER = 0x04034b50;
// Alembic counts: a package of USD-family content that breaks an ARKit rule should be refused by
// the USDZ checker naming that rule, not as an unknown format.
const USD_FAMILY_EXTENSIONS = /\.(usd|usda|usdc|usdz|abc)$/i;
const IFC_EXTENSIONS = /\.ifc$/i;

/**
 * Recognises a model by its bytes: the STEP header of IFC (`ISO-10303-21;`), the binary glTF magic,
 * or a zip holding USD-family entries (USDZ) or an `.ifc` file (ifczip). Returns `undefined`
 * for anything else. File names are never consulted: clients mislabel files.
 *
 * @example
 * ```ts
 * detectFormat(readFileSync('house.ifc')); // → 'ifc'
 * ```
 */
export function detectFormat(bytes: Uint8Array): ModelFormat | undefined {
  if (bytes.length >= 12 && readU32(bytes, 0) === GLB_MAGIC) return 'glb';
  if (isStepHeader(bytes)) return 'ifc';
  if (bytes.length >= 30 && readU32(bytes, 0) === ZIP_LOCAL_HEADER) {
    // A USDZ's first entry must be a USD layer, but we still accept a package whose first entry is
    // something else here and let the USDZ checker report the broken rule by name.
    const names = zipEntryNames(bytes, 16);
    if (names.some((n) => USD_FAMILY_EXTENSIONS.test(n))) return 'usdz';
    if (names.some((n) => IFC_EXTENSIONS.test(n))) return 'ifczip';
  }
  return undefined;
}

function isStepHeader(bytes: Uint8Array): boolean {
  // Skip a UTF-8 BOM and leading white space; some exporters write either.
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  while (i < bytes.length && i < 1024 && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)) i++;
  const head = new TextDecoder('latin1').decode(bytes.subarray(i, i + 13));
  return head === 'ISO-10303-21;';
}

/** Names of the first `max` local-file entries of a zip, walking local headers (no central directory needed). */
export function zipEntryNames(bytes: Uint8Array, max: number): string[] {
  const names: string[] = [];
  let at = 0;
  while (names.length < max && at + 30 <= bytes.length && readU32(bytes, at) === ZIP_LOCAL_HEADER) {
    const flags = readU16(bytes, at + 6);
    const compressedSize = readU32(bytes, at + 18);
    const nameLen = readU16(bytes, at + 26);
    const extraLen = readU16(bytes, at + 28);
    if (at + 30 + nameLen > bytes.length) break;
    names.push(new TextDecoder().decode(bytes.subarray(at + 30, at + 30 + nameLen)));
    // With a data descriptor (flag bit 3) the size is not in the local header: stop walking.
    if (flags & 0x8) break;
    at += 30 + nameLen + extraLen + compressedSize;
  }
  return names;
}

function readU32(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

function readU16(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8);
}
