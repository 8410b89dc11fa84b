import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { REPO_ROOT } from './corpus.js';
import { distributedEnv } from './serverHarness.js';

const CLI = join(REPO_ROOT, 'packages', 'cli', 'bin', 'arsession.js');

/** `arsession serve` as an operator runs it: its own process, configured by the environment. */
export interface CliServer {
  url: string;
  pid: number;
  /** Everything it printed so far (pino JSON lines). */
  output(): string;
  /** SIGKILL: no handler runs, nothing is flushed or closed; resolves once the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM, as a service manager stops it; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `node packages/cli/bin/arsession.js serve --role <role>` on a free loopback port with
 * `dataDir`, and resolves once it logs that it listens (a worker: that it is ready; its `url` is '').
 */
export async function startCliServer(
  dataDir: string,
  env: Record<string, string> = {},
  role: 'all' | 'api' | 'worker' = 'all',
): Promise<CliServer> {
  const distributed = await distributedEnv(dataDir);
  const child: ChildProcessByStdio<null, Readable, Readable> = spawn(process.execPath, [CLI, 'serve', '--role', role], {
    // Suites make many sessions from one address; the allowances themselves are tested apart.
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      ARSESSION_DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ARSESSION_SESSIONS_PER_CLIENT_PER_HOUR: '100000',
      ARSESSION_SESSIONS_PER_KEY_PER_HOUR: '100000',
      ...distributed,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const line = out.split('\n').find((l) => l.includes('"arsession listening"') || l.includes('"arsession worker ready"'));
      if (line) {
        child.stdout.off('data', onData);
        resolve((JSON.parse(line) as { url?: string }).url ?? '');
      }
    };
    child.stdout.on('data', onData);
    void exited.then((code) => reject(new Error(`arsession serve exited ${code} before listening:\n${out}`)));
  });
  return {
    url,
    pid: child.pid!,
    output: () => out,
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** `arsession keys create --account <name>` on `dataDir`; returns the key it prints once. */
export function createKeyWithCli(dataDir: string, account: string, env: Record<string, string> = {}): string {
  const run = spawnSync(process.execPath, [CLI, 'keys', 'create', '--account', account], {
    env: { ...process.env, ARSESSION_DATA_DIR: dataDir, ...env },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`keys create failed (${run.status}): ${run.stderr}`);
  return run.stdout.trim();
}
