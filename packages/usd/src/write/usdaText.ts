import type { AsciiWriter } from './AsciiWriter.js';

// Formatting of USDA values. Kept apart from the layer writer so the hot loops are easy to see.

/** Decimals written per kind of value, each finer than anything an AR renderer can show. */
export const USDA_DECIMALS = {
  /** Positions and extents: a micrometre (below float32's own step beyond 8 m from the origin). */
  position: 6,
  /** Unit normals: 10⁻⁴ per component, under 0.005° of direction. */
  normal: 4,
  /** Texture coordinates: 10⁻⁵, 0.04 texel on a 4096² texture. */
  uv: 5,
} as const;

/** A float64 number (transforms, factors) in shortest round-trip form. */
export function formatFloat64(v: number): string {
  return Object.is(v, -0) ? '0' : String(v);
}

/** Writes `[(x, y, z), …]` (or pairs) of a packed float array, each component with `decimals`. */
export function tupleArray(w: AsciiWriter, values: Float32Array, size: 2 | 3, decimals: number): void {
  w.char(91); // [
  for (let i = 0; i < values.length; i += size) {
    if (i > 0) w.char(44).char(32);
    w.tuple(values, i, size, decimals);
  }
  w.char(93); // ]
}

/** Writes `[a, b, c, …]` of non-negative integers. */
export function intArray(w: AsciiWriter, values: ArrayLike<number>): void {
  w.char(91).uints(values).char(93);
}

/** A USDA string literal. */
export function quote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`;
}

/** A valid, unique USD prim name from any text (USD identifiers: [A-Za-z_][A-Za-z0-9_]*). */
export function primName(text: string, taken: Set<string>, fallback: string): string {
  let base = text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 48);
  if (!base) base = fallback;
  if (/^[0-9]/.test(base)) base = `_${base}`;
  let name = base;
  for (let i = 1; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}
