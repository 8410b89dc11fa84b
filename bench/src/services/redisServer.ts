import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, killProcess } from './processes.js';

/** A private Redis on a loopback port, its files in a temporary directory. */
export interface RedisServer {
  url: string;
  /** Stops it at once (SIGKILL), as a crash would; nothing is kept (it runs without persistence). */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts Debian's redis-server on a free loopback port with no persistence, in a temporary
 * directory, and resolves once it answers.
 *
 * @example
 * ```ts
 * const redis = await startRedis(); // redis.url → 'redis://127.0.0.1:41234'
 * await redis.stop();
 * ```
 */
export async function startRedis(): Promise<RedisServer> {
  try {
    execFileSync('which', ['redis-server'], { stdio: 'ignore' });
  } catch {
    throw new Error('redis-server is not installed: apt-get install redis-server (scripts/install-test-services.sh installs it)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'arsession-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 200; i++) {
      const up = await new Promise<boolean>((resolve) => {
        const probe = createServer();
        probe.once('error', () => resolve(true)).listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
      });
      if (up) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('redis-server did not start');
  };
  const kill = () => killProcess(child);
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    kill,
    start,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
