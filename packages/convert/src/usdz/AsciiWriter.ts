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

  /** Appends a non-negative integer. */
  uint(n: number): this {
    if (!(n < 2 ** 31)) return this.text(String(n));
    const count = digitCount(n);
    this.reserve(count);
    this.length = putDigits(this.buffer, this.length + count, n, count);
    return this;
  }

  /** Appends `v` with at most `decimals` decimals, no trailing zeros: byte for byte what `formatFixed` returns. */
  fixed(v: number, decimals: number): this {
    const a = v < 0 ? -v : v;
    if (!(a < 1e9)) return this.text(String(v));
    const unit = POWERS[decimals]!;
    const scaled = Math.round(a * unit);
    if (scaled === 0) return this.char(48);
    // Below 1e9 the whole part, and below 1e6 the fraction, fit in 31 bits: digits come from integer
    // division, written straight into the buffer after one bounds check. This runs once per
    // coordinate, millions of times for a big building.
    this.reserve(24);
    const buf = this.buffer;
    let at = this.length;
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
    this.length = at;
    return this;
  }

  /** Everything written since the last call (a copy), and a fresh start. */
  take(): Uint8Array {
    const out = this.buffer.slice(0, this.length);
    this.length = 0;
    return out;
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

/**
 * Writes the `count` lowest decimal digits of `n` (0 ≤ n < 2³¹) into `buf`, the last one just before
 * `end`, with leading zeros if `n` has fewer; returns `end`.
 */
function putDigits(buf: Uint8Array, end: number, n: number, count: number): number {
  let at = end;
  for (let k = 0; k < count; k++) {
    const q = (n / 10) | 0;
    buf[--at] = 48 + n - q * 10;
    n = q;
  }
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
