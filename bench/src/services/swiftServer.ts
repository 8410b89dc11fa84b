import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, killProcess } from './processes.js';

/** A private OpenStack Swift with its S3 API on loopback: what an S3 client needs to reach it. */
export interface SwiftServer {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Stops the proxy (the store becomes unreachable); `start` brings it back. */
  stopProxy(): Promise<void>;
  startProxy(): Promise<void>;
  stop(): Promise<void>;
}

const PROXY_PIPELINE =
  'catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server';

/**
 * Starts OpenStack Swift from Debian's packages as a one-node S3-compatible store: one-replica rings,
 * account, container and object servers and a proxy with the `s3api` and `tempauth` middlewares
 * (user `test:tester`, key `testing`), and the memcached tempauth keeps its tokens in — every
 * process on a free loopback port, every file in a temporary directory (`swift_dir` points the
 * servers at its own swift.conf, so /etc/swift is not used).
 *
 * @example
 * ```ts
 * const swift = await startSwift();
 * const s3 = new S3Client({ endpoint: swift.endpoint, region: swift.region, forcePathStyle: true, credentials: swift });
 * await swift.stop();
 * ```
 */
export async function startSwift(): Promise<SwiftServer> {
  for (const tool of ['swift-proxy-server', 'swift-ring-builder', 'memcached']) {
    try {
      execFileSync('which', [tool], { stdio: 'ignore' });
    } catch {
      throw new Error(
        `${tool} is not installed: apt-get install swift swift-proxy swift-object ` +
          `swift-container swift-account memcached (scripts/install-test-services.sh installs them)`,
      );
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'arsession-swift-'));
  mkdirSync(join(dir, 'srv', 'd1'), { recursive: true });
  writeFileSync(
    join(dir, 'swift.conf'),
    '[swift-hash]\nswift_hash_path_suffix = arsessiontest\nswift_hash_path_prefix ' +
      '= arsessiontest\n[storage-policy:0]\nname = Policy-0\ndefault = yes\n',
  );
  const user = process.getuid?.() === 0 ? 'root' : execFileSync('id', ['-un'], { encoding: 'utf8' }).trim();
  const common = (port: number) =>
    `[DEFAULT]\nbind_ip = 127.0.0.1\nbind_port = ${port}\nswift_dir = ${dir}\nuser = ${user}\nworkers = 0\nlog_level = WARNING\n`;
  const children: ChildProcess[] = [];
  const run = (command: string, args: string[]) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    children.push(child);
    return child;
  };
  const memcachePort = await freePort();
  run('memcached', ['-l', '127.0.0.1', '-p', String(memcachePort), '-U', '0', '-m', '16', ...(user === 'root' ? ['-u', 'nobody'] : [])]);
  for (const server of ['account', 'container', 'object'] as const) {
    const port = await freePort();
    const builder = join(dir, `${server}.builder`);
    execFileSync('swift-ring-builder', [builder, 'create', '10', '1', '1'], { stdio: 'ignore' });
    execFileSync('swift-ring-builder', [builder, 'add', `r1z1-127.0.0.1:${port}/d1`, '1'], { stdio: 'ignore' });
    execFileSync('swift-ring-builder', [builder, 'rebalance'], { stdio: 'ignore' });
    const conf = join(dir, `${server}-server.conf`);
    writeFileSync(
      conf,
      `${common(port)}devices = ${join(dir, 'srv')}\nmount_check = false\n[pipeline:main]\npipeline ` +
        `= ${server}-server\n[app:${server}-server]\nuse = egg:swift#${server}\n`,
    );
    run(`swift-${server}-server`, [conf]);
  }
  const proxyPort = await freePort();
  const filters = ['catch_errors', 'gatekeeper', 'healthcheck', 'listing_formats', 'copy', 'slo', 'dlo']
    .map((f) => `[filter:${f}]\nuse = egg:swift#${f}\n`)
    .join('');
  const proxyConf = join(dir, 'proxy-server.conf');
  writeFileSync(
    proxyConf,
    `${common(proxyPort)}[pipeline:main]\npipeline = ` +
      `${PROXY_PIPELINE}\n[app:proxy-server]\nuse = egg:swift#proxy\naccount_autocreate = true\n` +
      // Swift's defaults (0.5 s to connect to a storage server) are for idle machines; on two busy
      // cores its single-process servers can take longer to accept, and the proxy would answer 503.
      `conn_timeout = 5\nnode_timeout = 30\n${filters}` +
      '[filter:proxy-logging]\nuse = egg:swift#proxy_logging\n' +
      `[filter:cache]\nuse = egg:swift#memcache\nmemcache_servers = 127.0.0.1:${memcachePort}\n` +
      '[filter:s3api]\nuse = egg:swift#s3api\nlocation = us-east-1\n' +
      '[filter:tempauth]\nuse = egg:swift#tempauth\nuser_test_tester = testing .admin\n',
  );
  const endpoint = `http://127.0.0.1:${proxyPort}`;
  let proxy: ChildProcess | undefined;
  const startProxy = async () => {
    proxy = run('swift-proxy-server', [proxyConf]);
    // Ready when an object goes in and out: the proxy's health check answers before the account,
    // container and object servers listen, and a first upload then met a 503 on a loaded machine.
    for (let i = 0; i < 300; i++) {
      if (await roundTrip(endpoint)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('Swift did not start within 30 s (no object could be stored and read back)');
  };
  const stopProxy = () => killProcess(proxy);
  await startProxy();
  return {
    endpoint,
    region: 'us-east-1',
    accessKeyId: 'test:tester',
    secretAccessKey: 'testing',
    stopProxy,
    startProxy,
    async stop() {
      await Promise.all(children.map(killProcess));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Whether Swift stores an object and gives it back through every server it has: authenticated
 * (tempauth), a container made, an object put, read and deleted, the container deleted. False on
 * any refusal or error, for the caller to try again.
 */
async function roundTrip(endpoint: string): Promise<boolean> {
  try {
    const auth = await fetch(`${endpoint}/auth/v1.0`, { headers: { 'X-Auth-User': 'test:tester', 'X-Auth-Key': 'testing' } });
    const storage = auth.headers.get('x-storage-url'),
      token = auth.headers.get('x-auth-token');
    if (!auth.ok || !storage || !token) return false;
    const headers = { 'X-Auth-Token': token };
    const container = `${storage}/arsession-readiness`;
    if (!(await fetch(container, { method: 'PUT', headers })).ok) return false;
    if (!(await fetch(`${container}/probe`, { method: 'PUT', headers, body: 'ready' })).ok) return false;
    const back = await fetch(`${container}/probe`, { headers });
    const ready = back.ok && (await back.text()) === 'ready';
    await fetch(`${container}/probe`, { method: 'DELETE', headers });
    await fetch(container, { method: 'DELETE', headers });
    return ready;
  } catch {
    return false;
  }
}
