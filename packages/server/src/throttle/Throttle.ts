/** A fixed-window counter per key: at most `limit` events per `windowMs`. */
export interface Throttle {
  /** Counts one event for `key`; returns the seconds to wait when over the limit, else 0. */
  hit(key: string, now?: number): Promise<number>;
  /** Seconds until `key` may act again without counting an event (0 when it may). */
  blockedFor(key: string, now?: number): Promise<number>;
}

/**
 * Creates a {@link Throttle} in this process's memory (one node). Windows are fixed (simple, O(1)
 * per event, memory bounded by the keys seen in one window: stale keys are dropped as windows roll
 * over). A cluster counts in Redis instead (redisThrottle.ts).
 *
 * @example
 * ```ts
 * const t = createThrottle(10, 60_000);
 * if ((await t.hit(clientIp)) > 0) answer429();
 * ```
 */
export function createThrottle(limit: number, windowMs: number): Throttle {
  let windowStart = 0;
  let counts = new Map<string, number>();
  const roll = (now: number) => {
    if (now - windowStart >= windowMs) {
      windowStart = now - ((now - windowStart) % windowMs);
      counts = new Map();
    }
  };
  const wait = (now: number) => Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
  return {
    async hit(key, now = Date.now()) {
      roll(now);
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      return n > limit ? wait(now) : 0;
    },
    async blockedFor(key, now = Date.now()) {
      roll(now);
      return (counts.get(key) ?? 0) >= limit ? wait(now) : 0;
    },
  };
}
