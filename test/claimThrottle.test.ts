// Claim throttling shared by the API nodes of a cluster: counted in a real Redis (private, on
// loopback), so a client spreading its guesses over nodes gains nothing; counted locally while
// Redis is out of reach.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisThrottle } from '../packages/server/src/throttle/redisThrottle.js';
import { createThrottle } from '../packages/server/src/throttle/Throttle.js';
import { startRedis, type RedisServer } from '@arsession/bench/services';

let redis: RedisServer;
let nodeA: Redis, nodeB: Redis;
beforeAll(async () => {
  redis = await startRedis();
  const connect = () => {
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 1000 });
    client.on('error', () => {});
    return client;
  };
  [nodeA, nodeB] = [connect(), connect()];
  await Promise.all([nodeA, nodeB].map((c) => new Promise((resolve) => c.once('ready', resolve))));
});
afterAll(async () => {
  nodeA.disconnect();
  nodeB.disconnect();
  await redis.stop();
});

// An hour's window, so that no window rolls over during a test.
const HOUR = 3600_000;

describe('claim throttles across nodes', () => {
  it('two nodes share one count per key: the limit holds whichever node a client asks', async () => {
    const [a, b] = [createRedisThrottle(nodeA, 'test-shared', 5, HOUR), createRedisThrottle(nodeB, 'test-shared', 5, HOUR)];
    const waits = [];
    for (let i = 0; i < 6; i++) waits.push(await (i % 2 ? b : a).hit('10.0.0.1'));
    expect(waits.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(waits[5]).toBeGreaterThan(0);
    expect(await a.blockedFor('10.0.0.1')).toBeGreaterThan(0);
    expect([await b.hit('10.0.0.2'), await a.blockedFor('10.0.0.2')]).toEqual([0, 0]);
    // Another deployment on the same Redis (another name) counts apart.
    expect(await createRedisThrottle(nodeB, 'other-deployment:test-shared', 5, HOUR).blockedFor('10.0.0.1')).toBe(0);
  });

  it('counts as a single node would: the same answers as the in-memory throttle for the same events', async () => {
    const shared = createRedisThrottle(nodeA, 'test-same', 3, HOUR);
    const memory = createThrottle(3, HOUR);
    const keys = ['x', 'y', 'x', 'x', 'y', 'x', 'z', 'y', 'y'];
    const now = Math.floor(Date.now() / HOUR) * HOUR + 1000;
    for (const key of keys) expect((await shared.hit(key, now)) > 0).toBe((await memory.hit(key, now)) > 0);
  });

  it('while Redis is down a node counts on its own (claims are still throttled), and shares again after', async () => {
    const throttle = createRedisThrottle(nodeA, 'test-outage', 2, HOUR);
    await redis.kill();
    try {
      expect([await throttle.hit('c'), await throttle.hit('c'), (await throttle.hit('c')) > 0]).toEqual([0, 0, true]);
    } finally {
      await redis.start();
    }
    for (let i = 0; i < 40 && nodeA.status !== 'ready'; i++) await new Promise((r) => setTimeout(r, 100));
    const fresh = createRedisThrottle(nodeB, 'test-outage-after', 1, HOUR);
    for (let i = 0; i < 40 && nodeB.status !== 'ready'; i++) await new Promise((r) => setTimeout(r, 100));
    expect([await fresh.hit('d'), (await createRedisThrottle(nodeA, 'test-outage-after', 1, HOUR).hit('d')) > 0]).toEqual([0, true]);
  });
});
