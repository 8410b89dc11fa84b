const POWERS = [1, 10, 100, 1e3, 1e4, 1e5, 1e6];
const encoder = new TextEncoder();

/**
 * A growable byte buffer for writing USDA: numbers go in as ASCII digits with integer arithmetic,
 * no intermediate strings, which is what makes big layers fast to write. `take()` hands out what
 * was written since the last call, so callers can stream chunks.
 */
export class AsciiWriter {
  private buffer = new Uint8Array(1 << 16);
  private length = 0;

  /** Appends text (UTF-8). */
  text(s: string): this {
    this.reserve(s.length * 3);
    this.length += encoder.encodeInto(s, this.buffer.subarray(this.length)).written;
    return this;
  }

  /** Appends one ASCII character code. */
  char(code: number): this {
    this.reserve(1);
    this.buffer[this.length++] = code;
    return this;
  }

  /** Appends non-negative integers separated by `, ` (an index array's body). */
  uints(values: ArrayLike<number>): this {
    for (let i = 0; i < values.length; i++) this.putUint(values[i]!, i > 0);
    return this;
  }

  /**
   * Appends `(a, b)` or `(a, b, c)` from `values` starting at `i`, each with `decimals`: one bounds
   * check per tuple, as this is the loop that writes every point and normal of a model.
   */
  tuple(values: ArrayLike<number>, i: number, size: 2 | 3, decimals: number): this {
    this.reserve(size * (FIXED_MAX + 2) + 2);
    const buf = this.buffer;
    let at = this.length;
    buf[at++] = 40; // (
    for (let k = 0; k < size; k++) {
      if (k > 0) {
        buf[at++] = 44;
        buf[at++] = 32;
      } // ", "
      at = putFixed(buf, at, values[i + k]!, decimals);
    }
    buf[at++] = 41; // )
    this.length = at;
    return this;
  }

  /** Everything written since the last call (a copy), and a fresh start. */
  take(): Uint8Array {
    const out = this.buffer.slice(0, this.length);
    this.length = 0;
    return out;
  }

  /** Appends `n`, after `, ` when `separated`; one bounds check for both. */
  private putUint(n: number, separated: boolean): this {
    if (!(n < 2 ** 31)) return this.text(separated ? `, ${n}` : String(n));
    this.reserve(12);
    let at = this.length;
    if (separated) {
      this.buffer[at++] = 44;
      this.buffer[at++] = 32;
    }
    const count = digitCount(n);
    this.length = putDigits(this.buffer, at + count, n, count);
    return this;
  }

  private reserve(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    let size = this.buffer.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }
}

/** Most bytes {@link putFixed} writes: `String` of any number is at most 24 characters (-1.7976931348623157e+308). */
const FIXED_MAX = 24;

/**
 * Writes `v` with at most `decimals` decimals and no trailing zeros at `at` (room for
 * {@link FIXED_MAX} bytes assumed) and returns the end. Magnitudes of 10⁹ and more, and non-numbers,
 * are written exactly, as `String` writes them.
 */
function putFixed(buf: Uint8Array, at: number, v: number, decimals: number): number {
  const a = v < 0 ? -v : v;
  if (!(a < 1e9)) {
    const exact = String(v); // ASCII only
    for (let k = 0; k < exact.length; k++) buf[at + k] = exact.charCodeAt(k);
    return at + exact.length;
  }
  const unit = POWERS[decimals]!;
  const scaled = Math.round(a * unit);
  if (scaled === 0) {
    buf[at] = 48;
    return at + 1;
  }
  // Below 1e9 the whole part, and below 1e6 the fraction, fit in 31 bits: digits come from integer
  // division, written straight into the buffer.
  if (v < 0) buf[at++] = 45;
  const whole = Math.floor(scaled / unit);
  let frac = scaled - whole * unit;
  const wholeDigits = digitCount(whole);
  at = putDigits(buf, at + wholeDigits, whole, wholeDigits);
  if (frac !== 0) {
    let digits = decimals;
    while (frac % 10 === 0) {
      frac = (frac / 10) | 0;
      digits--;
    }
    buf[at++] = 46;
    at = putDigits(buf, at + digits, frac, digits); // leading zeros included: `digits` is fixed
  }
  return at;
}

/** ASCII of 00, 01, …, 99: two digits per division. */
const DIGIT_PAIRS = Uint8Array.from({ length: 200 }, (_, i) => 48 + (i & 1 ? (i >> 1) % 10 : Math.floor((i >> 1) / 10)));

/**
 * Writes the `count` lowest decimal digits of `n` (0 ≤ n < 2³¹) into `buf`, the last one just before
 * `end`, with leading zeros if `n` has fewer; returns `end`.
 */
function putDigits(buf: Uint8Array, end: number, n: number, count: number): number {
  let at = end,
    left = count;
  for (; left >= 2; left -= 2) {
    const q = (n / 100) | 0;
    const pair = (n - q * 100) * 2;
    buf[--at] = DIGIT_PAIRS[pair + 1]!;
    buf[--at] = DIGIT_PAIRS[pair]!;
    n = q;
  }
  if (left === 1) buf[--at] = 48 + (n % 10);
  return end;
}

/** Decimal digits of a non-negative integer below 2³¹ (0 has one). */
function digitCount(n: number): number {
  if (n < 10) return 1;
  if (n < 100) return 2;
  if (n < 1000) return 3;
  if (n < 10000) return 4;
  if (n < 100000) return 5;
  if (n < 1000000) return 6;
  if (n < 10000000) return 7;
  if (n < 100000000) return 8;
  if (n < 1000000000) return 9;
  return 10;
}
