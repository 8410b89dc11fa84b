/**
 * The bytes `[from, to)` as text, one character per byte (ISO 8859-1), cut at the end of `bytes`.
 * A loop rather than `String.fromCharCode(...bytes)`, whose spread fails past ~100k arguments,
 * and rather than `TextDecoder('latin1')`, which decodes windows-1252 (0x80–0x9f differ).
 *
 * @example
 * ```ts
 * latin1Text(new TextEncoder().encode('#40=IFCWALL('), 4, 11); // → 'IFCWALL'
 * ```
 */
export function latin1Text(bytes: Uint8Array, from: number, to: number): string {
  let text = '';
  for (let k = from, end = Math.min(to, bytes.length); k < end; k++) text += String.fromCharCode(bytes[k]!);
  return text;
}
