import type { AddressInfo } from 'node:net';
import { closeConversionPool } from '@arsession/convert';
import { pino, type Logger } from 'pino';
import { createAdmission } from '../admission/Admission.js';
import { CONFIG_ENV, type ServerConfig } from '../config/ServerConfig.js';
import { openDatabase } from '../store/openDatabase.js';
import { removeOrphans, sweepExpired } from '../sweeper/sweepExpired.js';
import { createThrottle } from '../throttle/Throttle.js';
import { createApp } from './createApp.js';
import { dataPaths, type ServerContext } from './ServerContext.js';

/** A running server. */
export interface RunningServer {
  /** `http://host:port` it listens on. */
  url: string;
  port: number;
  context: ServerContext;
  /** Stops accepting, lets requests in flight finish (up to `graceMs`), then closes the database. */
  close(graceMs?: number): Promise<void>;
}

/** Options of {@link startServer}. */
export interface StartServerOptions {
  /** Where logs go; default stdout (pino JSON lines). */
  logger?: Logger;
}

/**
 * Opens the data directory (migrating the database and removing what a crash left behind),
 * starts the expiry sweeper and listens. The start-up log echoes the whole configuration.
 *
 * @example
 * ```ts
 * const server = await startServer(readServerConfig({ PORT: '0', ARSESSION_DATA_DIR: '/tmp/ars' }));
 * await fetch(`${server.url}/healthz`);
 * await server.close();
 * ```
 */
export async function startServer(config: ServerConfig, options: StartServerOptions = {}): Promise<RunningServer> {
  const log = options.logger ?? pino({ level: config.logLevel, base: { service: 'arsession' } });
  const paths = dataPaths(config.dataDir);
  const db = openDatabase(paths.database);
  const orphans = await removeOrphans(db, paths);
  if (orphans.length > 0) log.warn({ removed: orphans.length }, 'removed files left by an interrupted run');
  const ctx: ServerContext = {
    config, paths, db, log, draining: false,
    admission: createAdmission({ workers: config.workers, queue: config.queue }),
    claimThrottle: { perClient: createThrottle(config.claimsPerClientPerMinute, 60_000), failures: createThrottle(config.failedClaimsPerMinute, 60_000) },
  };
  await sweepExpired(db, paths);
  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweepExpired(db, paths).then(
      (n) => n > 0 && log.info({ sessions: n }, 'expired sessions swept'),
      (err: unknown) => log.error({ err }, 'sweep failed'),
    ).finally(() => { sweeping = false; });
  }, config.sweepIntervalSeconds * 1000);
  sweeper.unref();

  const app = createApp(ctx);
  const server = app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  // Slow senders cannot hold a connection: headers within 20 s, the whole request within the limit.
  server.headersTimeout = 20_000;
  server.requestTimeout = config.requestTimeoutSeconds * 1000;
  server.keepAliveTimeout = 5_000;
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log.info({ url, config: Object.fromEntries(Object.entries(config).map(([k, v]) => [CONFIG_ENV[k as keyof ServerConfig], v])) }, 'arsession listening');

  let closing: Promise<void> | undefined;
  return {
    url, port, context: ctx,
    close(graceMs = 30_000) {
      closing ??= (async () => {
        ctx.draining = true;
        clearInterval(sweeper);
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        await closed;
        clearTimeout(timer);
        await closeConversionPool();
        db.close();
        log.info('arsession stopped');
      })();
      return closing;
    },
  };
}
