/** Options of {@link ArrayBlocks}. */
export interface ArrayBlocksOptions {
  /** Bytes of each shared block; a request over a quarter of it gets a buffer of its own. */
  blockBytes: number;
}

/** Defaults of {@link ArrayBlocks}. */
export const ARRAY_BLOCKS_DEFAULTS: Readonly<ArrayBlocksOptions> = { blockBytes: 2 << 20 };

/**
 * Hands out `Float32Array`s and `Uint32Array`s as views carved, one after another, from large
 * shared `ArrayBuffer`s. A model streams hundreds of small geometries: a buffer of its own for
 * each array cost more than placing its vertices (every one is a zeroed allocation outside the
 * heap that the collector must track), and views cost a small object each. Every view keeps
 * its whole block alive, which suits arrays that live and die together, as a scene's do.
 *
 * @example
 * ```ts
 * const blocks = new ArrayBlocks();
 * const positions = blocks.floats(vertexCount * 3); // zeroed, like new Float32Array(n)
 * ```
 */
export class ArrayBlocks {
  private readonly blockBytes: number;
  private block = new ArrayBuffer(0);
  private used = 0;

  constructor(options: Partial<ArrayBlocksOptions> = {}) {
    this.blockBytes = { ...ARRAY_BLOCKS_DEFAULTS, ...options }.blockBytes;
  }

  /** `count` zeroed floats. */
  floats(count: number): Float32Array {
    const at = this.take(count * 4);
    return at < 0 ? new Float32Array(count) : new Float32Array(this.block, at, count);
  }

  /** `count` zeroed unsigned 32-bit integers. */
  uints(count: number): Uint32Array {
    const at = this.take(count * 4);
    return at < 0 ? new Uint32Array(count) : new Uint32Array(this.block, at, count);
  }

  /** The byte offset of `bytes` reserved in the current block, or −1 for a buffer of their own. */
  private take(bytes: number): number {
    if (bytes * 4 > this.blockBytes) return -1;
    if (this.used + bytes > this.block.byteLength) {
      this.block = new ArrayBuffer(this.blockBytes);
      this.used = 0;
    }
    const at = this.used;
    this.used += bytes;
    return at;
  }
}
