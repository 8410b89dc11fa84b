import { closeConversionPool } from '@arsession/convert';
import { pino, type Logger } from 'pino';
import { configureConversionPool } from '@arsession/convert';
import { CONFIG_ENV, ConfigError, conversionPoolOf, type ServerConfig } from '../config/ServerConfig.js';
import { echoedConfig } from '../config/echoedConfig.js';
import { runConversionWorker } from '../jobs/bullmq/runConversionWorker.js';
import { openObjectStore } from '../objects/openObjectStore.js';
import { ServerMetrics } from '../metrics/ServerMetrics.js';
import { startMetricsListener } from '../metrics/startMetricsListener.js';
import { dataPaths } from './ServerContext.js';

/** A running worker role. */
export interface RunningWorker {
  /** Where Prometheus scrapes it, when `ARSESSION_METRICS_PORT` is set. */
  metricsUrl?: string;
  /** Finishes the jobs in hand, then stops. */
  close(): Promise<void>;
}

/**
 * The worker role (`arsession serve --role worker`): no HTTP; takes conversion jobs from the queue
 * (`ARSESSION_REDIS_URL`), `ARSESSION_WORKERS` at a time, reading models from and writing USDZ to
 * the object store the API nodes share (`ARSESSION_S3_*`).
 *
 * @example
 * ```ts
 * const worker = await startWorker(readServerConfig(process.env));
 * await worker.close();
 * ```
 */
export async function startWorker(config: ServerConfig, options: { logger?: Logger } = {}): Promise<RunningWorker> {
  const log = options.logger ?? pino({ level: config.logLevel, base: { service: 'arsession', role: 'worker' } });
  if (!config.redisUrl) throw new ConfigError(CONFIG_ENV.redisUrl, 'the worker role takes its jobs from a queue: set it to redis://…');
  if (!config.s3Bucket)
    throw new ConfigError(
      CONFIG_ENV.s3Bucket,
      'the worker role reads models from and writes files to the store the API nodes share: set it (and the other ARSESSION_S3_* settings)',
    );
  configureConversionPool(conversionPoolOf(config));
  const objects = await openObjectStore(config, dataPaths(config.dataDir));
  const metrics = new ServerMetrics('worker');
  // A worker has no HTTP of its own: Prometheus reaches it on the metrics port, when one is set.
  // Bound before the worker takes a job: a port that cannot be bound stops the start with nothing taken.
  const listener = config.metricsPort === undefined ? undefined : await startMetricsListener(metrics, config.host, config.metricsPort);
  const worker = runConversionWorker({
    redisUrl: config.redisUrl,
    queueName: config.queueName,
    objects,
    concurrency: config.workers,
    lockSeconds: config.jobLockSeconds,
    log,
    metrics,
    inlineBytes: config.queueInlineBytes,
  });
  log.info(
    {
      role: 'worker',
      objects: objects.engine,
      concurrency: config.workers,
      pid: process.pid,
      metrics: listener?.url ?? null,
      config: echoedConfig(config),
    },
    'arsession worker ready',
  );
  return {
    ...(listener && { metricsUrl: listener.url }),
    async close() {
      await worker.close();
      await listener?.close();
      await closeConversionPool();
      log.info('arsession worker stopped');
    },
  };
}
