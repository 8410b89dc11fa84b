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
    this.reserve(16);
    if (n === 0) {
      this.buffer[this.length++] = 48;
      return this;
    }
    let digits = 0;
    for (let m = n; m > 0; m = Math.floor(m / 10)) digits++;
    let at = this.length + digits;
    this.length = at;
    for (let m = n; m > 0; m = Math.floor(m / 10)) this.buffer[--at] = 48 + (m % 10);
    return this;
  }

  /** Appends `v` with at most `decimals` decimals, no trailing zeros: byte for byte what `formatFixed` returns. */
  fixed(v: number, decimals: number): this {
    const a = v < 0 ? -v : v;
    if (!(a < 1e9)) return this.text(String(v));
    const unit = POWERS[decimals]!;
    const scaled = Math.round(a * unit);
    if (scaled === 0) return this.char(48);
    const whole = Math.floor(scaled / unit);
    let frac = scaled - whole * unit;
    if (v < 0) this.char(45);
    this.uint(whole);
    if (frac === 0) return this;
    let digits = decimals;
    while (frac % 10 === 0) {
      frac /= 10;
      digits--;
    }
    this.reserve(digits + 1);
    this.buffer[this.length++] = 46;
    let at = this.length + digits;
    this.length = at;
    for (let i = 0; i < digits; i++, frac = Math.floor(frac / 10)) this.buffer[--at] = 48 + (frac % 10);
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
