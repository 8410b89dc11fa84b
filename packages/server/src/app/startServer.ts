import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeConversionPool, configureConversionPool } from '@arsession/convert';
import { pino, type Logger } from 'pino';
import { createAdmission } from '../admission/Admission.js';
import { createUploadGate } from '../admission/UploadGate.js';
import { conversionCacheVersion, openConversionCache } from '../cache/ConversionCache.js';
import { memoryCacheIndex } from '../cache/memory/memoryCacheIndex.js';
import { postgresCacheIndex } from '../cache/postgres/postgresCacheIndex.js';
import { arBudgetOf, conversionPoolOf, type ServerConfig } from '../config/ServerConfig.js';
import { echoedConfig } from '../config/echoedConfig.js';
import { createFileDeriver } from '../derived/createFileDeriver.js';
import { openSessionStore } from '../store/openSessionStore.js';
import { bullmqConversionJobs } from '../jobs/bullmq/bullmqConversionJobs.js';
import { runConversionWorker } from '../jobs/bullmq/runConversionWorker.js';
import { threadConversionJobs } from '../jobs/threads/threadConversionJobs.js';
import { openObjectStore } from '../objects/openObjectStore.js';
import { removeObjectOrphans, removeOrphans, sweepExpired } from '../sweeper/sweepExpired.js';
import { createRedisThrottle } from '../throttle/redisThrottle.js';
import { createThrottle } from '../throttle/Throttle.js';
import { Redis } from 'ioredis';
import { ServerMetrics } from '../metrics/ServerMetrics.js';
import { startMetricsListener, type MetricsListener } from '../metrics/startMetricsListener.js';
import { createApp, publicMetrics } from './createApp.js';
import { dataPaths, type ServerContext } from './ServerContext.js';

/** A running server. */
export interface RunningServer {
  /** `http://host:port` it listens on. */
  url: string;
  port: number;
  /**
   * Where Prometheus scrapes it: its metrics port's listener, or `<url>/metrics` (with the metrics
   * token); undefined when neither is set up.
   */
  metricsUrl: string | undefined;
  context: ServerContext;
  /** Stops accepting, lets requests in flight finish (up to `graceMs`), then closes the database. */
  close(graceMs?: number): Promise<void>;
}

/** Options of {@link startServer}. */
export interface StartServerOptions {
  /** Where logs go; default stdout (pino JSON lines). */
  logger?: Logger;
  /**
   * `all` (default): serve requests and, with a queue configured, take conversion jobs too; `api`:
   * serve requests only (conversions go to the queue's worker processes).
   */
  role?: 'all' | 'api';
  /**
   * Module the conversion workers run; default the real conversion worker. For fault tests, which
   * wrap the real worker so that chosen requests crash or hang it (the pool is process-wide).
   */
  conversionWorker?: URL;
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
  configureConversionPool(conversionPoolOf(config, options.conversionWorker));
  const paths = dataPaths(config.dataDir);
  const sessions = await openSessionStore(config, paths, 'server', log);
  const objects = await openObjectStore(config, paths);
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 })
    : undefined;
  redis?.on('error', () => {});
  const metrics = new ServerMetrics(options.role ?? 'all');
  const jobs = config.redisUrl
    ? await bullmqConversionJobs({
        redisUrl: config.redisUrl,
        queueName: config.queueName,
        objects,
        maxWaiting: config.clusterQueue,
        inlineBytes: config.queueInlineBytes,
      })
    : threadConversionJobs({ metrics });
  // `all` with a queue: this process also serves the queue, as a worker role would.
  const worker =
    config.redisUrl && (options.role ?? 'all') === 'all'
      ? runConversionWorker({
          redisUrl: config.redisUrl,
          queueName: config.queueName,
          objects,
          concurrency: config.workers,
          lockSeconds: config.jobLockSeconds,
          log,
          metrics,
          inlineBytes: config.queueInlineBytes,
        })
      : undefined;
  const orphans = await removeOrphans(sessions, paths);
  if (orphans.length > 0) log.warn({ removed: orphans.length }, 'removed files left by an interrupted run');
  // The cluster shares its cache through PostgreSQL and the bucket; one process keeps its index in memory.
  const conversionCache = openConversionCache({
    index: config.databaseUrl ? postgresCacheIndex({ url: config.databaseUrl }) : memoryCacheIndex(),
    objects,
    maxEntries: config.cacheEntries,
    maxBytes: config.cacheBytes,
    log,
    // A conversion made under another budget is another conversion.
    converterVersion: conversionCacheVersion(arBudgetOf(config)),
  });
  // A memory index starts empty: the files an earlier process kept belong to no entry now.
  if (conversionCache.engine === 'memory') await conversionCache.removeOrphans(0);
  const admission = createAdmission({ workers: config.workers, queue: config.queue });
  // The queue's depth: the shared queue's where there is one, else this process's own conversions.
  metrics.watchQueue(jobs.queueCounts ? () => jobs.queueCounts!() : async () => ({ ...admission.conversions(), failed: 0 }));
  metrics.watchAdmission(() => ({ inFlight: admission.inFlight, capacity: admission.capacity }));
  const ctx: ServerContext = {
    config,
    paths,
    sessions,
    objects,
    jobs,
    log,
    metrics,
    draining: false,
    admission,
    uploads: createUploadGate({ perClient: config.uploadsPerClient }),
    conversionCache,
    derivedFiles: createFileDeriver({ sessions, objects, uploadsDir: paths.uploads, log }),
    sessionThrottle: redis
      ? {
          perClient: createRedisThrottle(redis, `${config.queueName}:sessions-per-client`, config.sessionsPerClientPerHour, 3_600_000),
          perKey: createRedisThrottle(redis, `${config.queueName}:sessions-per-key`, config.sessionsPerKeyPerHour, 3_600_000),
        }
      : {
          perClient: createThrottle(config.sessionsPerClientPerHour, 3_600_000),
          perKey: createThrottle(config.sessionsPerKeyPerHour, 3_600_000),
        },
    // With a queue, Redis is shared by every node: claims are counted there, cluster-wide.
    claimThrottle: redis
      ? {
          // Named after the deployment's queue: deployments sharing one Redis count apart.
          perClient: createRedisThrottle(redis, `${config.queueName}:claims-per-client`, config.claimsPerClientPerMinute, 60_000),
          failedPerHour: createRedisThrottle(
            redis,
            `${config.queueName}:failed-claims-hour`,
            config.failedClaimsPerClientPerHour,
            3_600_000,
          ),
          failedPerDay: createRedisThrottle(redis, `${config.queueName}:failed-claims-day`, config.failedClaimsPerClientPerDay, 86_400_000),
        }
      : {
          perClient: createThrottle(config.claimsPerClientPerMinute, 60_000),
          failedPerHour: createThrottle(config.failedClaimsPerClientPerHour, 3_600_000),
          failedPerDay: createThrottle(config.failedClaimsPerClientPerDay, 86_400_000),
        },
  };
  // One node at a time sweeps (the session store elects it); the others skip the round.
  const sweep = () =>
    sessions.leadSweep(async () => {
      const expired = await sweepExpired(sessions, objects);
      if (expired > 0) log.info({ sessions: expired }, 'expired sessions swept');
      // A job's scratch objects live as long as the job may (two tries at the conversion timeout).
      const scratchGraceMs = Math.max(OBJECT_ORPHAN_GRACE_MS, 4 * config.conversionTimeoutSeconds * 1000);
      const orphaned = await removeObjectOrphans(sessions, objects, { graceMs: OBJECT_ORPHAN_GRACE_MS, scratchGraceMs });
      if (orphaned.sessions.length + orphaned.savedModels.length + orphaned.scratch.length > 0) {
        log.warn(
          { sessions: orphaned.sessions.length, savedModels: orphaned.savedModels.length, scratch: orphaned.scratch.length },
          'removed objects nothing owns (left by an interrupted node)',
        );
      }
      const cacheOrphans = await conversionCache.removeOrphans(OBJECT_ORPHAN_GRACE_MS);
      if (cacheOrphans > 0) log.warn({ entries: cacheOrphans }, 'removed conversion-cache files no cache entry owns');
    });
  await sweep();
  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweep()
      .catch((err: unknown) => log.error({ err }, 'sweep failed'))
      .finally(() => {
        sweeping = false;
      });
  }, config.sweepIntervalSeconds * 1000);
  sweeper.unref();

  const app = createApp(ctx);
  // Slow senders cannot hold a connection: headers within their limit, the whole request (body
  // included) within its own; either answers 408 and closes. Node enforces both only when it
  // sweeps its connections, every 30 s by default, which would let a slowloris client stay up to
  // 30 s past a limit: the sweep runs at a tenth of the shorter limit (0.1–1 s).
  const requestTimeout = config.requestTimeoutSeconds * 1000;
  const headersTimeout = Math.min(config.headersTimeoutSeconds * 1000, requestTimeout);
  const server = createServer(
    { requestTimeout, headersTimeout, connectionsCheckingInterval: Math.min(1000, Math.max(100, headersTimeout / 10)) },
    app,
  );
  server.keepAliveTimeout = 5_000;
  let metricsListener: MetricsListener | undefined;
  try {
    metricsListener = config.metricsPort === undefined ? undefined : await startMetricsListener(metrics, config.host, config.metricsPort);
    server.listen(config.port, config.host);
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  } catch (err) {
    // A port taken (or not ours to bind): release everything opened, so that a process that failed
    // to start takes no job and holds no connection, then say why.
    clearInterval(sweeper);
    await metricsListener?.close();
    redis?.disconnect();
    await Promise.allSettled([worker?.close(), jobs.close(), closeConversionPool()]);
    await conversionCache.close();
    await sessions.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const metricsUrl = metricsListener?.url ?? (publicMetrics(config) ? `${url}/metrics` : undefined);
  log.info(
    {
      url,
      metrics: metricsUrl ?? 'not served (set ARSESSION_METRICS_PORT, or ARSESSION_METRICS_TOKEN for the public port)',
      role: options.role ?? 'all',
      store: sessions.engine,
      objects: objects.engine,
      jobs: jobs.engine,
      cache: conversionCache.engine,
      config: echoedConfig(config),
    },
    'arsession listening',
  );

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    context: ctx,
    metricsUrl,
    close(graceMs = 30_000) {
      closing ??= (async () => {
        ctx.draining = true;
        clearInterval(sweeper);
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        await closed;
        clearTimeout(timer);
        await metricsListener?.close();
        await closeConversionPool();
        // A queue that cannot be reached must not hold the shutdown: its connections are dropped after a while.
        redis?.disconnect();
        await Promise.race([Promise.all([worker?.close(), jobs.close()]), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
        await conversionCache.close();
        await ctx.sessions.close();
        log.info('arsession stopped');
      })();
      return closing;
    },
  };
}

/**
 * Objects in a shared store that no session owns are removed once older than this: a request puts
 * its files only when it commits, moments before its rows, so an hour leaves a wide margin.
 */
const OBJECT_ORPHAN_GRACE_MS = 3600_000;
