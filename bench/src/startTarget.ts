import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** A server under load, in a process of its own. */
export interface Target {
  child: ChildProcess;
  /** The URL to load (a session endpoint for the throughput bench, the server root for the soak). */
  url: string;
  /** An API key on it ('' for the bare floor). */
  key: string;
  pid: number;
}

/**
 * Starts `serverTarget.js` with `args` (`ours|ours-uncached|distributed|distributed-uncached|bare|soak DATA_DIR [QUEUE]`;
 * `env` adds to the environment: the distributed kinds read their services' settings there) and resolves
 * once it prints where it listens, so the load generator never shares the server's event loop.
 *
 * @example
 * ```ts
 * const target = await startTarget(['bare', dataDir]);
 * target.child.kill('SIGTERM');
 * ```
 */
export async function startTarget(args: readonly string[], env: Record<string, string> = {}): Promise<Target> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'serverTarget.js'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} server exited ${code}`)));
  });
  return { child, ...(JSON.parse(line) as Omit<Target, 'child'>) };
}
