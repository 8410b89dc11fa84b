/**
 * The converter's version, as conversion caches key their entries (with the model's SHA-256): the
 * package version, and after the `+` the revision of what it writes, raised whenever the same
 * model would convert to other bytes or another report. An entry made by another version is never reused.
 *
 * @example
 * ```ts
 * const key = `${sha256}.${CONVERTER_VERSION}`;
 * ```
 */
export const CONVERTER_VERSION = '0.1.0+35';
