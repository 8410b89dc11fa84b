/**
 * A safe `Content-Disposition` for a client-supplied name: an ASCII fallback with anything risky
 * replaced, and the exact name in RFC 5987 `filename*`.
 *
 * @example
 * ```ts
 * contentDisposition('Haus "Süd".usdz'); // → 'inline; filename="Haus _S_d_.usdz"; filename*=UTF-8\'\'Haus%20%22S%C3%BCd%22.usdz'
 * ```
 */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^A-Za-z0-9 ._()-]/g, '_').slice(0, 150) || 'file';
  // RFC 5987's attr-char leaves out ' ( ) * that encodeURIComponent keeps.
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The delivered file's name: the uploaded name with its extension replaced. */
export function deliveredName(sourceName: string, extension: string): string {
  const stem = sourceName.replace(/\.[^.]*$/, '') || 'model';
  return `${stem}.${extension}`;
}
