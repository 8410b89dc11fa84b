import type { Bounds } from '@arsession/geometry';

/** A triangle soup as the renderer draws it: nine floats, a category and an RGBA colour a triangle. */
export interface TriangleSoup {
  positions: Float32Array;
  categories: Uint8Array;
  colours: Uint8Array;
}

/** Centres this near outside the box (m) still count: a wall's face on the box's own side. */
const MARGIN = 0.01;

/**
 * The triangles of `soup` whose centre lies in `box` (grown by a centimetre), or the soup itself
 * without a box: a part of a delivery beside the same region of the model as read.
 *
 * @example
 * ```ts
 * cropTriangles(soup, part.bounds).positions.length / 9; // → the triangles of that storey
 * ```
 */
export function cropTriangles(soup: TriangleSoup, box: Bounds | undefined): TriangleSoup {
  if (!box) return soup;
  const { positions: p, categories, colours } = soup;
  const kept: number[] = [];
  for (let t = 0; t < categories.length; t++) {
    let inside = true;
    for (let k = 0; k < 3 && inside; k++) {
      const c = (p[t * 9 + k]! + p[t * 9 + 3 + k]! + p[t * 9 + 6 + k]!) / 3;
      inside = c >= box.min[k]! - MARGIN && c <= box.max[k]! + MARGIN;
    }
    if (inside) kept.push(t);
  }
  const out: TriangleSoup = {
    positions: new Float32Array(kept.length * 9),
    categories: new Uint8Array(kept.length),
    colours: new Uint8Array(kept.length * 4),
  };
  kept.forEach((t, i) => {
    out.positions.set(p.subarray(t * 9, t * 9 + 9), i * 9);
    out.categories[i] = categories[t]!;
    out.colours.set(colours.subarray(t * 4, t * 4 + 4), i * 4);
  });
  return out;
}
