/**
 * The runs `[from, to)` of sorted values (ascending or descending) with no gap wider than `gap`
 * between neighbours: the layers of offsets a wall's triangles sit at, the depths its probes
 * agree on.
 *
 * @example
 * ```ts
 * runsWithinGap([0.1, 0.105, 0.3], 0.01); // → [{ from: 0, to: 2 }, { from: 2, to: 3 }]
 * ```
 */
export function runsWithinGap(sorted: ArrayLike<number>, gap: number): Array<{ from: number; to: number }> {
  const runs: Array<{ from: number; to: number }> = [];
  let from = 0;
  for (let k = 1; k <= sorted.length; k++) {
    if (k < sorted.length && Math.abs(sorted[k]! - sorted[k - 1]!) <= gap) continue;
    runs.push({ from, to: k });
    from = k;
  }
  return runs;
}
