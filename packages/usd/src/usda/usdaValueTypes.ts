import type { SdfNumberType } from '../sdf/SdfLayer.js';

// USD's value types as the text format names them (Sdf's value type registry): what each
// element is made of and its shape. Vectors and roles share a base (`point3f` is three floats),
// quaternions are four components written real part first, matrices are rows of rows.

/** What the components of a value are. */
export type UsdaBase = SdfNumberType | 'string' | 'token' | 'asset' | 'pathExpression' | 'opaque';

/** A value type: `float3`, `point3f`, `matrix4d`, `quatf`, `token`, … (without `[]`). */
export interface UsdaValueType {
  name: string;
  base: UsdaBase;
  /** Tuple nesting: `[]` for a scalar, `[3]` for a vector, `[4, 4]` for a 4×4 matrix. */
  shape: readonly number[];
  /** Components per element: the product of `shape` (1 for scalars). */
  size: number;
  /** Quaternions: written (real, i, j, k), held as [i, j, k, real]. */
  quaternion: boolean;
}

const TYPES = new Map<string, UsdaValueType>();

function define(name: string, base: UsdaBase, shape: number[] = [], quaternion = false): void {
  TYPES.set(name, { name, base, shape, size: shape.reduce((a, b) => a * b, 1), quaternion });
}

for (const base of [
  'bool',
  'uchar',
  'int',
  'uint',
  'int64',
  'uint64',
  'half',
  'float',
  'double',
  'timecode',
  'string',
  'token',
  'asset',
  'pathExpression',
  'opaque',
] as const)
  define(base, base);
define('group', 'opaque');
const SUFFIX = { h: 'half', f: 'float', d: 'double', i: 'int' } as const;
for (const n of [2, 3, 4]) {
  define(`int${n}`, 'int', [n]);
  define(`half${n}`, 'half', [n]);
  define(`float${n}`, 'float', [n]);
  define(`double${n}`, 'double', [n]);
}
for (const s of ['h', 'f', 'd'] as const) {
  for (const role of ['point3', 'vector3', 'normal3', 'color3', 'color4', 'texCoord2', 'texCoord3'])
    define(`${role}${s}`, SUFFIX[s], [Number(role.at(-1))]);
  define(`quat${s}`, SUFFIX[s], [4], true);
}
define('matrix2d', 'double', [2, 2]);
define('matrix3d', 'double', [3, 3]);
define('matrix4d', 'double', [4, 4]);
define('frame4d', 'double', [4, 4]);

/**
 * The value type a USDA type name (without `[]`) stands for, or `undefined` for a name USD does
 * not know.
 *
 * @example
 * ```ts
 * usdaValueType('point3f'); // → { name: 'point3f', base: 'float', shape: [3], size: 3, quaternion: false }
 * ```
 */
export function usdaValueType(name: string): UsdaValueType | undefined {
  return TYPES.get(name);
}

const INTEGER_RANGE: Partial<Record<UsdaBase, readonly [number, number]>> = {
  uchar: [0, 255],
  int: [-(2 ** 31), 2 ** 31 - 1],
  uint: [0, 2 ** 32 - 1],
  int64: [-(2 ** 63), 2 ** 63],
  uint64: [0, 2 ** 64],
};

/**
 * A number as a component of type `base` holds it, or `undefined` when it cannot: integers are
 * truncated and must be finite and in range (as `GfNumericCast` requires), floats round to
 * float32, halves to float16 (through float32, as `GfHalf(float)` does).
 *
 * @example
 * ```ts
 * storedNumber('int', 2.7); // → 2
 * storedNumber('half', 0.1); // → 0.0999755859375
 * storedNumber('uchar', 256); // → undefined
 * ```
 */
export function storedNumber(base: UsdaBase, value: number): number | undefined {
  switch (base) {
    case 'float':
      return Math.fround(value);
    case 'half':
      return roundToHalf(value);
    case 'double':
    case 'timecode':
      return value;
    case 'bool':
      return value !== 0 ? 1 : 0; // NaN too, as C++'s `!= 0`
    default: {
      const range = INTEGER_RANGE[base];
      if (!range || !Number.isFinite(value)) return undefined;
      const t = Math.trunc(value);
      // The upper bounds of the 64-bit types are exclusive (2^63, 2^64 are one past the last).
      const top = base === 'int64' || base === 'uint64' ? t >= range[1] : t > range[1];
      return t < range[0] || top ? undefined : t + 0; // + 0: no negative zero
    }
  }
}

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/**
 * `value` rounded to the nearest float16 (ties to even), through float32; beyond the largest
 * half (65504, rounding included) it is infinite.
 *
 * @example
 * ```ts
 * roundToHalf(1 / 3); // → 0.333251953125
 * ```
 */
export function roundToHalf(value: number): number {
  F32[0] = value;
  const f = F32[0]!;
  if (!Number.isFinite(f) || f === 0) return f;
  const exponent = ((U32[0]! >>> 23) & 0xff) - 127;
  // A half has 10 fraction bits; below 2^-14 it is subnormal with a fixed step of 2^-24.
  const step = 2 ** (Math.max(exponent, -14) - 10);
  const a = Math.abs(f) / step;
  let r = Math.round(a);
  if (r - a === 0.5 && r % 2 === 1) r -= 1;
  const rounded = r * step;
  if (rounded > 65504) return f < 0 ? -Infinity : Infinity;
  return f < 0 ? -rounded : rounded;
}

/** Typed arrays elements of each base are stored in. */
export type UsdaTypedArray = Float32Array | Float64Array | Int32Array | Uint32Array | Uint8Array;

/**
 * The typed array that holds components of type `base`: floats and halves in Float32Array,
 * doubles, time codes and 64-bit integers in Float64Array, ints in Int32Array, uints in
 * Uint32Array, bools and uchars in Uint8Array.
 *
 * @example
 * ```ts
 * typedArrayOf('float', [1, 2, 3]); // → Float32Array [1, 2, 3]
 * ```
 */
export function typedArrayOf(base: UsdaBase, values: number[]): UsdaTypedArray {
  switch (base) {
    case 'half':
    case 'float':
      return new Float32Array(values);
    case 'int':
      return new Int32Array(values);
    case 'uint':
      return new Uint32Array(values);
    case 'bool':
    case 'uchar':
      return new Uint8Array(values);
    default:
      return new Float64Array(values);
  }
}
