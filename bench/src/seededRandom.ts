/**
 * A deterministic stream of numbers in [0, 1) from `seed` (a linear congruential generator): the
 * bench's synthetic scenes, rays and viewpoints are the same in every run and on every machine.
 *
 * @example
 * ```ts
 * const rand = seededRandom(777);
 * const x = rand() * 40 - 20;
 * ```
 */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
}
