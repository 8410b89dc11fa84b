import type { Bounds } from '@arsession/geometry';

/**
 * How far a point lies outside a box (0 inside): what makes an anchor or a door implausible, and
 * a placement too far to draw beside its model.
 *
 * @example
 * ```ts
 * distanceOutside({ min: [0, 0, 0], max: [1, 1, 1] }, [4, 0.5, 0.5]); // → 3
 * ```
 */
export function distanceOutside(b: Bounds, p: readonly number[]): number {
  return Math.hypot(...[0, 1, 2].map((k) => Math.max(b.min[k]! - p[k]!, 0, p[k]! - b.max[k]!)));
}

/** Length of a box's diagonal. */
export function diagonalOf(b: Bounds): number {
  return Math.hypot(...[0, 1, 2].map((k) => b.max[k]! - b.min[k]!));
}

/** Centre of a door opening's four corners. */
export function openingCentre(corners: readonly (readonly number[])[]): number[] {
  return [0, 1, 2].map((k) => corners.reduce((s, c) => s + c[k]! / 4, 0));
}
