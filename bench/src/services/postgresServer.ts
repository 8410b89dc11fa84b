import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes.js';
import pg from 'pg';

/** A private PostgreSQL server on a loopback port, its cluster in a temporary directory. */
export interface PostgresServer {
  port: number;
  /** `postgres://…` of a database on it. */
  url(database: string): string;
  /** Creates a database (if missing) and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops it at once (as a crash would) and starts it again on the same port and data. */
  restart(options?: { downMs?: number }): Promise<void>;
  /** Stops it at once, as a crash would. */
  stopNow(): void;
  /** Starts it again (nothing when it runs). */
  start(): void;
  /** Stops it and removes its directory. */
  stop(): void;
}

const USER = 'arsession';

/** The newest installed PostgreSQL's binaries (Debian: /usr/lib/postgresql/<version>/bin). */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error('PostgreSQL is not installed: `apt-get install postgresql` (scripts/install-test-services.sh installs it)');
  return join(root, versions[0]!, 'bin');
}

/**
 * Starts a private PostgreSQL from the installed binaries: `initdb` into a temporary directory,
 * `pg_ctl start` on a free loopback port, trust authentication for one user, fsync off (a test
 * cluster: a crash of the server loses nothing, only one of the machine would). PostgreSQL refuses
 * to run as root, so as root (CI) it runs as the `postgres` user.
 *
 * @example
 * ```ts
 * const pgServer = await startPostgres();
 * const url = await pgServer.createDatabase('t1');
 * pgServer.stop();
 * ```
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'arsession-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (tool: string, args: string[]) => {
    const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
    return execFileSync(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  run('initdb', ['-D', data, '-U', USER, '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
  const running = () => {
    try {
      run('pg_ctl', ['-D', data, 'status']);
      return true;
    } catch {
      return false;
    }
  };
  const start = () => {
    if (!running()) run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  };
  const stopNow = () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already stopped
    }
  };
  start();
  const url = (database: string) => `postgres://${USER}@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async restart({ downMs = 0 } = {}) {
      stopNow();
      await new Promise((r) => setTimeout(r, downMs));
      start();
    },
    stopNow,
    start,
    stop() {
      stopNow();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
