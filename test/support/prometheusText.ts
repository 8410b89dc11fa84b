/**
 * The value of one series in Prometheus' text format: the sample of `name` whose labels include
 * `labels` (others may be there too); undefined when there is none, so a test can say which.
 *
 * @example
 * ```ts
 * sampleValue(text, 'arsession_sessions_created_total', { method: 'by_plane' }); // → 1
 * ```
 */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const own = Object.fromEntries([...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => own[k] === v)) return Number(m[3]);
  }
  return undefined;
}
