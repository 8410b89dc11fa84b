// Formatting of USDA values. Kept apart from the layer writer so the hot loops are easy to see.

/**
 * Shortest decimal that reads back as the same float32 (at most 9 significant digits, which
 * always suffice for float32), so output is exact, compact and deterministic.
 */
export function formatFloat32(v: number): string {
  if (Number.isInteger(v)) return v === 0 ? '0' : String(v);
  for (let p = 6; p <= 9; p++) {
    const s = v.toPrecision(p);
    if (Math.fround(Number(s)) === v) return trimNumber(s);
  }
  return trimNumber(v.toPrecision(9));
}

/** A float64 number (transforms, factors) in shortest round-trip form. */
export function formatFloat64(v: number): string {
  return Object.is(v, -0) ? '0' : String(v);
}

function trimNumber(s: string): string {
  const e = s.indexOf('e');
  const mantissa = e < 0 ? s : s.slice(0, e);
  const exponent = e < 0 ? '' : s.slice(e);
  const trimmed = mantissa.includes('.') ? mantissa.replace(/0+$/, '').replace(/\.$/, '') : mantissa;
  return trimmed + exponent;
}

/** `[(x, y, z), …]` of a packed float array with `size` components per tuple. */
export function tupleArray(values: Float32Array, size: 2 | 3): string {
  const out = new Array<string>(values.length / size);
  if (size === 3) {
    for (let i = 0, t = 0; i < values.length; i += 3, t++) {
      out[t] = `(${formatFloat32(values[i]!)}, ${formatFloat32(values[i + 1]!)}, ${formatFloat32(values[i + 2]!)})`;
    }
  } else {
    for (let i = 0, t = 0; i < values.length; i += 2, t++) out[t] = `(${formatFloat32(values[i]!)}, ${formatFloat32(values[i + 1]!)})`;
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
