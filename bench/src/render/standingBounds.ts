import type { Bounds } from '@arsession/geometry';

/** Options of {@link standingBounds}. */
export interface StandingBoundsOptions {
  /** How far above the floor (m) a triangle must reach to count as standing: above kerbs, fences and parked cars. */
  above: number;
}

/** Defaults of {@link standingBounds}. */
export const STANDING_BOUNDS_DEFAULTS: Readonly<StandingBoundsOptions> = { above: 2 };

/**
 * The box to frame a building in: across, the extent of the triangles that rise more than
 * `above` over its floor (`floorY`: walls, columns, roofs, trees; not the terrain, paving and
 * street a model is often set in, which can be twice the building's size and would shrink it in
 * the picture); up and down, everything (piles, basements and roof plant included). Falls back to
 * the bounds of everything when nothing rises that high. Positions are a soup, nine floats a triangle.
 *
 * @example
 * ```ts
 * const stand = insideStand(positions, categories);
 * const frame = standingBounds(positions, stand?.floorY ?? Number.NEGATIVE_INFINITY);
 * ```
 */
export function standingBounds(positions: Float32Array, floorY: number, options: Partial<StandingBoundsOptions> = {}): Bounds {
  const { above } = { ...STANDING_BOUNDS_DEFAULTS, ...options };
  const all: Bounds = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
  const standing: Bounds = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
  const height = floorY + above;
  for (let o = 0; o < positions.length; o += 9) {
    const top = Math.max(positions[o + 1]!, positions[o + 4]!, positions[o + 7]!);
    for (let k = o; k < o + 9; k += 3) {
      for (let a = 0; a < 3; a++) {
        const v = positions[k + a]!;
        if (v < all.min[a]!) all.min[a] = v;
        if (v > all.max[a]!) all.max[a] = v;
        if (top > height && a !== 1) {
          if (v < standing.min[a]!) standing.min[a] = v;
          if (v > standing.max[a]!) standing.max[a] = v;
        }
      }
    }
  }
  if (!(standing.max[0] >= standing.min[0])) return all;
  return { min: [standing.min[0], all.min[1], standing.min[2]], max: [standing.max[0], all.max[1], standing.max[2]] };
}
