const BISECTIONS = 9; // a 0.1 m grid step / 2⁹ ≈ 0.2 mm

/**
 * The edge between `inside` (where `test` holds) and `outside` (where it does not), to 1/2⁹ of the
 * gap between them.
 *
 * @example
 * ```ts
 * bisect(0, 0.1, (x) => x < 0.0371); // → about 0.0371
 * ```
 */
export function bisect(inside: number, outside: number, test: (x: number) => boolean): number {
  let w = inside,
    f = outside;
  for (let k = 0; k < BISECTIONS; k++) {
    const m = (w + f) / 2;
    if (test(m)) w = m;
    else f = m;
  }
  return (w + f) / 2;
}

/** The middle value (the upper one of an even count): an edge measured at several heights. */
export const median = (v: readonly number[]): number => [...v].sort((a, b) => a - b)[v.length >> 1]!;

/** How far apart the measurements of one edge lie (0 for one). */
export const spread = (v: readonly number[]): number => (v.length > 1 ? Math.max(...v) - Math.min(...v) : 0);
