/** Summary of repeated timings (ms). */
export interface Sample {
  median: number;
  min: number;
  max: number;
  runs: number;
}

/** Median, min and max of a list of numbers. */
export function summarize(values: readonly number[]): Sample {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, runs: sorted.length };
}

/** Latency percentiles of repeated timings (ms), nearest-rank. */
export interface Percentiles {
  p50: number;
  p99: number;
  max: number;
  runs: number;
}

/** p50, p99 (nearest rank) and max of a list of timings. */
export function percentiles(values: readonly number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
  return { p50: rank(0.5), p99: rank(0.99), max: sorted[sorted.length - 1]!, runs: sorted.length };
}

/**
 * Times `ours` and `peer` in alternating rounds after a warm-up, so both see the same machine
 * noise; the ratio is taken round by round (ours ÷ peer) and summarized, which holds on a shared
 * machine even when absolute times drift.
 */
export async function compare(
  ours: () => Promise<unknown> | unknown,
  peer: () => Promise<unknown> | unknown,
  rounds: number,
  warmup = 1,
): Promise<{ ours: Sample; peer: Sample; ratio: Sample }> {
  for (let i = 0; i < warmup; i++) {
    await peer();
    await ours();
  }
  const a: number[] = [],
    b: number[] = [],
    r: number[] = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate who goes first: caches and GC debt fall on both sides alike.
    const first = i % 2 === 0 ? ours : peer;
    const t0 = performance.now();
    await first();
    const t1 = performance.now();
    await (first === ours ? peer : ours)();
    const t2 = performance.now();
    const tOurs = first === ours ? t1 - t0 : t2 - t1;
    const tPeer = first === ours ? t2 - t1 : t1 - t0;
    a.push(tOurs);
    b.push(tPeer);
    r.push(tOurs / tPeer);
  }
  return { ours: summarize(a), peer: summarize(b), ratio: summarize(r) };
}
