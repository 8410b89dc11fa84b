import type { Vec3 } from '../types/vector.js';
import type { Problem } from '../errors/GeometryValidationError.js';

// Embedders call us from plain JavaScript and the server hands over parsed JSON, so every
// reader checks the runtime shape even though the TypeScript signature already promises it.

/**
 * Reads a 3-vector of finite numbers, recording a problem under `field` when it is not one.
 * Returns `undefined` when the value is unusable.
 */
export function readVec3(value: unknown, field: string, problems: Problem[], label = 'value'): Vec3 | undefined {
  if (!isArrayLike(value)) {
    problems.push({ field, code: 'not_a_vector', message: `${label} must be an array of 3 numbers [x, y, z]` });
    return undefined;
  }
  if (value.length !== 3) {
    problems.push({
      field,
      code: 'wrong_length',
      message: `${label} must have exactly 3 numbers [x, y, z], got ${value.length}`,
    });
    return undefined;
  }
  const out: Vec3 = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    const n: unknown = value[i];
    if (typeof n !== 'number' || !Number.isFinite(n)) {
      problems.push({
        field,
        code: 'non_finite',
        message: `${label} has a ${describe(n)} at index ${i}; every coordinate must be a finite number`,
      });
      return undefined;
    }
    out[i] = n;
  }
  return out;
}

/** Reads a strictly positive finite number (a size or radius). */
export function readPositive(value: unknown, field: string, problems: Problem[], label = 'value'): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    problems.push({ field, code: 'non_finite', message: `${label} must be a finite number, got ${describe(value)}` });
    return undefined;
  }
  if (value <= 0) {
    problems.push({ field, code: 'not_positive', message: `${label} must be greater than 0, got ${value}` });
    return undefined;
  }
  return value;
}

/** Reads a non-zero direction and returns it normalised. `minLength` guards against noise-sized vectors. */
export function readDirection(value: unknown, field: string, problems: Problem[], label = 'direction', minLength = 1e-9): Vec3 | undefined {
  const v = readVec3(value, field, problems, label);
  if (!v) return undefined;
  // Components near 1e308 overflow the length to Infinity (and the direction to zero): scale by
  // the largest component first, which keeps every finite vector's direction exact.
  const largest = Math.max(Math.abs(v[0]), Math.abs(v[1]), Math.abs(v[2]));
  const scaled: Vec3 = largest > 1e150 ? [v[0] / largest, v[1] / largest, v[2] / largest] : v;
  const len = Math.hypot(scaled[0], scaled[1], scaled[2]);
  if (scaled === v && len < minLength) {
    problems.push({ field, code: 'zero_vector', message: `${label} has zero length; it must point somewhere` });
    return undefined;
  }
  return [scaled[0] / len, scaled[1] / len, scaled[2] / len];
}

function isArrayLike(value: unknown): value is ArrayLike<unknown> {
  return Array.isArray(value) || ArrayBuffer.isView(value);
}

function describe(n: unknown): string {
  if (typeof n === 'number') return String(n); // NaN, Infinity, -Infinity
  if (n === null) return 'null';
  if (Array.isArray(n)) return 'nested array';
  return typeof n;
}
