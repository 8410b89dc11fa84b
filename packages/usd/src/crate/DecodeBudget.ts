/** What a crate layer may allocate while it is decoded: see {@link decodeBudgetFor}. */
export interface DecodeBudgetOptions {
  /** Bytes one layer may decode to at most, whatever its size: the memory a reader gives it. */
  maxDecodedBytes: number;
  /** Bytes a layer may decode to per byte it holds: its own size sets its allowance. */
  decodedPerFileByte: number;
  /** The allowance of a small layer, which a ratio alone would starve. */
  minDecodedBytes: number;
}

/**
 * A real crate compresses regular data far beyond what LZ4 alone does (integer coding turns a run
 * of equal deltas into two bits each, then LZ4 squeezes those runs): thousands of bytes from tens
 * is normal. So no ratio per value is safe; what protects the reader is the total it allocates.
 */
export const DECODE_BUDGET_DEFAULTS: Readonly<DecodeBudgetOptions> = {
  maxDecodedBytes: 2 * 1024 ** 3,
  decodedPerFileByte: 1024,
  minDecodedBytes: 64 * 1024 ** 2,
};

/** Raised when a layer's claims go past its allowance, before anything is allocated for them. */
export class DecodeBudgetExceeded extends Error {}

/**
 * The bytes a crate layer of `fileBytes` may allocate for its decoded sections and values, in all:
 * `min(maxDecodedBytes, max(minDecodedBytes, fileBytes × decodedPerFileByte))`.
 *
 * @example
 * ```ts
 * decodeBudgetFor(1_000).limit; // → 67108864 (64 MiB: the floor)
 * ```
 */
export function decodeBudgetFor(fileBytes: number, options: Partial<DecodeBudgetOptions> = {}): DecodeBudget {
  const { maxDecodedBytes, decodedPerFileByte, minDecodedBytes } = { ...DECODE_BUDGET_DEFAULTS, ...options };
  return new DecodeBudget(Math.min(maxDecodedBytes, Math.max(minDecodedBytes, fileBytes * decodedPerFileByte)));
}

/** A running total of what a reader has allocated, checked before each allocation. */
export class DecodeBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  /** Books `bytes` for `what`, or throws {@link DecodeBudgetExceeded} naming it if they do not fit. */
  take(bytes: number, what: string): void {
    if (!(bytes >= 0) || this.used + bytes > this.limit) {
      throw new DecodeBudgetExceeded(
        `${what} would decode to ${bytes} bytes, past the layer's ${this.limit}-byte allowance (${this.used} already used)`,
      );
    }
    this.used += bytes;
  }
}
