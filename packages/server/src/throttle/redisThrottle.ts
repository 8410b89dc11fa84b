import type { Redis } from 'ioredis';
import { createThrottle, type Throttle } from './Throttle.js';

/**
 * A {@link Throttle} counted in Redis, so that every API node of a cluster shares one count per key
 * (a client spreading its guesses over nodes gains nothing). Windows are aligned to the epoch, the
 * same on every node; each count is one INCR with an expiry. While Redis cannot be reached the node
 * counts on its own (a local throttle of the same limit) rather than refusing every claim.
 *
 * @example
 * ```ts
 * const perClient = createRedisThrottle(redis, 'claims-per-client', 10, 60_000);
 * if ((await perClient.hit(req.ip)) > 0) answer429();
 * ```
 */
export function createRedisThrottle(redis: Redis, name: string, limit: number, windowMs: number): Throttle {
  const local = createThrottle(limit, windowMs);
  const window = (now: number) => Math.floor(now / windowMs);
  const keyOf = (key: string, now: number) => `arsession:throttle:${name}:${window(now)}:${key}`;
  const wait = (now: number) => Math.max(1, Math.ceil(((window(now) + 1) * windowMs - now) / 1000));
  return {
    async hit(key, now = Date.now()) {
      try {
        const k = keyOf(key, now);
        const [[, count]] = (await redis
          .multi()
          .incr(k)
          .pexpire(k, windowMs * 2)
          .exec()) as [[Error | null, number], unknown];
        return count > limit ? wait(now) : 0;
      } catch {
        return local.hit(key, now);
      }
    },
    async blockedFor(key, now = Date.now()) {
      try {
        const count = Number((await redis.get(keyOf(key, now))) ?? 0);
        return count >= limit ? wait(now) : 0;
      } catch {
        return local.blockedFor(key, now);
      }
    },
  };
}
