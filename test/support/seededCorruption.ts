/** mulberry32: a tiny seeded generator, so every corrupt variant is the same on every run. */
function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A copy of `bytes` with `flips` single bits inverted at seeded positions from `from` on (past a
 * header the caller wants intact, so the variant still reaches the format's reader).
 */
export function flipBits(bytes: Uint8Array, flips: number, seed: number, from = 0): Uint8Array {
  const random = seededRandom(seed);
  const out = bytes.slice();
  for (let i = 0; i < flips; i++) {
    const at = from + Math.floor(random() * (out.length - from));
    out[at]! ^= 1 << Math.floor(random() * 8);
  }
  return out;
}

/** The first `fraction` of `bytes` (a transfer cut short). */
export function truncate(bytes: Uint8Array, fraction: number): Uint8Array {
  return bytes.slice(0, Math.floor(bytes.length * fraction));
}

/**
 * `text` with `count` of `tokens` spliced in at seeded places, most of them just inside a string
 * (where a reader's escapes and quotes are tried), some over up to three characters: the edits a
 * careless exporter or a hand edit makes to a STEP file, which bit flips rarely reach.
 */
export function spliceTokens(text: string, tokens: readonly string[], count: number, seed: number): string {
  const random = seededRandom(seed);
  let out = text;
  for (let i = 0; i < count; i++) {
    let at = Math.floor(random() * out.length);
    if (random() < 0.7) {
      const quote = out.indexOf("'", at);
      if (quote > 0) at = quote + 1 + Math.floor(random() * 3);
    }
    const replaced = random() < 0.3 ? Math.floor(random() * 4) : 0;
    out = out.slice(0, at) + tokens[Math.floor(random() * tokens.length)] + out.slice(at + replaced);
  }
  return out;
}
