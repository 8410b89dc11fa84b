import { BUDGET_CATEGORIES, type BudgetCategory } from '@arsession/convert';
import type { SurfaceSamples } from './sampleSurface.js';

/**
 * The distances a summary counts past (m): 2 cm, the AR budget's goal for the farthest deviation
 * on a building, and 10 cm, where a reader standing in the room sees a part out of place.
 */
export const FIDELITY_THRESHOLDS = { near: 0.02, far: 0.1 } as const;

/** Distances from one part of a sampled surface to the other surface (m; null where nothing was sampled). */
export interface DistanceSummary {
  /** This part's share of the sampled surface's area (0–1). */
  areaShare: number;
  areaM2: number;
  samples: number;
  median: number | null;
  /** 99th percentile, nearest rank. */
  p99: number | null;
  max: number | null;
  /** Share of the samples farther than {@link FIDELITY_THRESHOLDS}.near (0–1). */
  over2cm: number | null;
  /** Share of the samples farther than {@link FIDELITY_THRESHOLDS}.far (0–1). */
  over10cm: number | null;
}

/** One direction's distances, over the whole surface and by category. */
export interface DirectionSummary {
  overall: DistanceSummary;
  categories: Record<BudgetCategory, DistanceSummary>;
}

/**
 * Median, p99, max and the shares past 2 cm and 10 cm of the distances measured from `samples`,
 * overall and per category, beside each category's share of the sampled area.
 *
 * @example
 * ```ts
 * const s = summarizeDistances(surfaceDistances(bvh, samples.points), samples);
 * s.categories.envelope.p99; // metres
 * ```
 */
export function summarizeDistances(
  distances: Float32Array,
  samples: Pick<SurfaceSamples, 'categories' | 'area' | 'categoryArea'>,
): DirectionSummary {
  const categories = {} as Record<BudgetCategory, DistanceSummary>;
  BUDGET_CATEGORIES.forEach((name, c) => {
    const picked = distances.filter((_, k) => samples.categories[k] === c);
    categories[name] = summary(picked, samples.categoryArea[c] ?? 0, samples.area);
  });
  return { overall: summary(distances.slice(), samples.area, samples.area), categories };
}

/** Sorts `d` in place and summarizes it. */
function summary(d: Float32Array, areaM2: number, totalArea: number): DistanceSummary {
  d.sort();
  const n = d.length;
  const rank = (p: number) => (n ? d[Math.min(n - 1, Math.max(0, Math.ceil(p * n) - 1))]! : null);
  const over = (limit: number) => (n ? (n - upperBound(d, limit)) / n : null);
  return {
    areaShare: totalArea > 0 ? areaM2 / totalArea : 0,
    areaM2,
    samples: n,
    median: rank(0.5),
    p99: rank(0.99),
    max: n ? d[n - 1]! : null,
    over2cm: over(FIDELITY_THRESHOLDS.near),
    over10cm: over(FIDELITY_THRESHOLDS.far),
  };
}

/** First index of a sorted array whose value exceeds `limit`. */
function upperBound(sorted: Float32Array, limit: number): number {
  let lo = 0,
    hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
