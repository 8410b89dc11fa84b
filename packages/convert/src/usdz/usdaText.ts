// Formatting of USDA values. Kept apart from the layer writer so the hot loops are easy to see.

/**
 * A float32 value in at most `digits` significant digits (relative error ≤ 5·10^−digits):
 * deterministic and compact. Positions use 8 (50 µm at 1 km from the origin), normals and UVs 7.
 * This is the hot loop of USDA writing, so trailing zeros are trimmed by hand, not by regex.
 */
export function formatFloat32(v: number, digits: 7 | 8 = 7): string {
  if (v === 0) return '0';
  if (Number.isInteger(v) && Math.abs(v) < 1e7) return String(v);
  const s = v.toPrecision(digits);
  if (s.indexOf('e') >= 0) return trimExponent(s);
  if (s.indexOf('.') < 0) return s; // large integers: every zero is significant
  let end = s.length;
  while (s.charCodeAt(end - 1) === 48 /* 0 */) end--;
  if (s.charCodeAt(end - 1) === 46 /* . */) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** A float64 number (transforms, factors) in shortest round-trip form. */
export function formatFloat64(v: number): string {
  return Object.is(v, -0) ? '0' : String(v);
}

function trimExponent(s: string): string {
  const e = s.indexOf('e');
  let end = e;
  while (s.charCodeAt(end - 1) === 48) end--;
  if (s.charCodeAt(end - 1) === 46) end--;
  return s.slice(0, end) + s.slice(e);
}

/** `[(x, y, z), …]` of a packed float array with `size` components per tuple. */
export function tupleArray(values: Float32Array, size: 2 | 3, digits: 7 | 8 = 7): string {
  const out = new Array<string>(values.length / size);
  if (size === 3) {
    for (let i = 0, t = 0; i < values.length; i += 3, t++) {
      out[t] = `(${formatFloat32(values[i]!, digits)}, ${formatFloat32(values[i + 1]!, digits)}, ${formatFloat32(values[i + 2]!, digits)})`;
    }
  } else {
    for (let i = 0, t = 0; i < values.length; i += 2, t++) out[t] = `(${formatFloat32(values[i]!, digits)}, ${formatFloat32(values[i + 1]!, digits)})`;
  }
  return `[${out.join(', ')}]`;
}

/** `[a, b, c, …]` of integers. */
export function intArray(values: ArrayLike<number>): string {
  return `[${Array.prototype.join.call(values, ', ')}]`;
}

/** A USDA string literal. */
export function quote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`;
}

/** A valid, unique USD prim name from any text (USD identifiers: [A-Za-z_][A-Za-z0-9_]*). */
export function primName(text: string, taken: Set<string>, fallback: string): string {
  let base = text.normalize('NFKD').replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 48);
  if (!base) base = fallback;
  if (/^[0-9]/.test(base)) base = `_${base}`;
  let name = base;
  for (let i = 1; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}
