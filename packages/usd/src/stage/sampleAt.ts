import type { SdfValue } from '../sdf/SdfLayer.js';

/**
 * The value of time samples at time `t` (`undefined`: the earliest sample), as USD resolves it:
 * an exact sample as is; before the first or after the last, that sample held; between two,
 * floating-point values interpolated linearly (quaternions too, then renormalised) and anything
 * else held from the earlier one.
 *
 * @example
 * ```ts
 * sampleAt(new Map([[0, { kind: 'number', type: 'float', value: 0 }], [10, { kind: 'number', type: 'float', value: 1 }]]), 5);
 * // → { kind: 'number', type: 'float', value: 0.5 }
 * ```
 */
export function sampleAt(samples: ReadonlyMap<number, SdfValue>, t: number | undefined): SdfValue | undefined {
  const times = [...samples.keys()].filter(Number.isFinite).sort((a, b) => a - b);
  if (times.length === 0) return undefined;
  if (t === undefined || t <= times[0]!) return samples.get(times[0]!);
  if (t >= times[times.length - 1]!) return samples.get(times[times.length - 1]!);
  let hi = times.findIndex((x) => x >= t);
  const t1 = times[hi]!;
  if (t1 === t) return samples.get(t1);
  const t0 = times[--hi]!;
  const a = samples.get(t0)!,
    b = samples.get(t1)!;
  return lerp(a, b, (t - t0) / (t1 - t0)) ?? a;
}

const FLOATING = /^(half|float|double|timecode)|^(point|normal|vector|color|texCoord|quat|matrix|frame)/;

function lerp(a: SdfValue, b: SdfValue, f: number): SdfValue | undefined {
  const mix = (x: number, y: number) => x + (y - x) * f;
  if (a.kind === 'number' && b.kind === 'number' && FLOATING.test(a.type)) return { ...a, value: mix(a.value, b.value) };
  if (a.kind === 'tuple' && b.kind === 'tuple' && FLOATING.test(a.type) && a.value.length === b.value.length) {
    const value = a.value.map((x, i) => mix(x, b.value[i]!));
    if (a.type.startsWith('quat')) {
      const n = Math.hypot(...value) || 1;
      return { ...a, value: value.map((x) => x / n) };
    }
    return { ...a, value };
  }
  if (
    a.kind === 'array' &&
    b.kind === 'array' &&
    FLOATING.test(a.type) &&
    a.value.length === b.value.length &&
    !(a.value instanceof Uint8Array)
  ) {
    const value = a.value.slice();
    for (let i = 0; i < value.length; i++) value[i] = mix(a.value[i]!, b.value[i]!);
    return { ...a, value };
  }
  return undefined;
}
