import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind } from '@opentelemetry/api';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { convertModel, serializeError } from '@arsession/convert';
import type { Logger } from 'pino';
import { observeConversion } from '../../metrics/observeConversion.js';
import type { ServerMetrics } from '../../metrics/ServerMetrics.js';
import type { ObjectStore } from '../../objects/ObjectStore.js';
import { JobFiles } from './JobFiles.js';
import { inSpan, withCarriedContext } from '../../tracing/spans.js';
import { jobWaitMs, type QueuedConversion, type QueuedConversionResult } from './queueProtocol.js';

/** Options of {@link runConversionWorker}. */
export interface ConversionWorkerOptions {
  redisUrl: string;
  queueName: string;
  objects: ObjectStore;
  /** Jobs at once (each on a thread of the conversion pool). */
  concurrency: number;
  /** Seconds a job's lock lasts without renewal: how soon a killed worker's job goes to another. */
  lockSeconds: number;
  log: Logger;
  /** Where the worker's conversions are counted and timed. */
  metrics?: ServerMetrics;
  /** Outputs up to this many bytes go back in Redis beside the job, larger ones through the object store (default 1 MiB). */
  inlineBytes?: number;
}

/** A running worker role. */
export interface RunningConversionWorker {
  /** Finishes the jobs in hand, then stops taking jobs. */
  close(): Promise<void>;
}

/**
 * The worker role (`arsession serve --role worker`): takes conversion jobs from the queue, takes
 * each model from where the API node put it (Redis or the object store: {@link JobFiles}), converts it on the
 * process's conversion pool (contained, with the job's deadline), sends the USDZ and the GLB back
 * the same way, and answers the result or the typed refusal. Only
 * faults of its own (the store or Redis failing) fail a job, which BullMQ then gives to another try.
 *
 * @example
 * ```ts
 * const worker = runConversionWorker({ redisUrl, objects, concurrency: 2, lockSeconds: 30, log });
 * ```
 */
export function runConversionWorker(options: ConversionWorkerOptions): RunningConversionWorker {
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  redis.on('error', () => {});
  const files = new JobFiles({
    redis,
    objects: options.objects,
    queueName: options.queueName,
    ...(options.inlineBytes !== undefined && { inlineBytes: options.inlineBytes }),
  });
  /** One job: the model taken, converted, the outputs sent back; a refusal is an answer, not a failure. */
  const convertJob = async (job: Job<QueuedConversion, QueuedConversionResult>): Promise<QueuedConversionResult> => {
    const dir = await mkdtemp(join(tmpdir(), 'arsession-job-'));
    try {
      const modelPath = join(dir, 'model'),
        usdzPath = join(dir, 'out.usdz'),
        glbPath = join(dir, 'out.glb'),
        partsPath = join(dir, 'out.parts.zip'),
        elementsPath = join(dir, 'out.elements.json.gz');
      await files.receive([[job.data.model, modelPath]]);
      const { fileName, field, timeoutMs, detectDoor, budget, maxGeometryBytes, maxUnpackedBytes } = job.data;
      try {
        // The worker reads the file itself: the model never sits in this process's memory.
        const result = await observeConversion(options.metrics, fileName, () =>
          convertModel(new Uint8Array(0), {
            inputPath: modelPath,
            fileName,
            field,
            outputs: ['usdz', 'glb'],
            usdzPath,
            glbPath,
            partsPath,
            elementsPath,
            timeoutMs,
            budget,
            maxGeometryBytes,
            maxUnpackedBytes,
            ...(detectDoor && { detectDoor }),
          }),
        );
        // Kept as long as the API node waits for a job: it takes them at once.
        const extras = [
          ...(result.parts ? [[job.data.partsKey, partsPath] as const] : []),
          ...(result.elements ? [[job.data.elementsKey, elementsPath] as const] : []),
        ];
        const [usdz, glb, ...sent] = await files.send(
          [[job.data.usdzKey, usdzPath], [job.data.glbKey, glbPath], ...extras],
          jobWaitMs(timeoutMs),
        );
        const parts = result.parts ? sent.shift() : undefined;
        const elements = result.elements ? sent.shift() : undefined;
        const { usdz: _usdz, glb: _glb, ...rest } = result;
        return { ok: true, result: rest, usdz: usdz!, glb: glb!, ...(parts && { parts }), ...(elements && { elements }) };
      } catch (err) {
        const error = serializeError(err);
        if (!error) throw err;
        return { ok: false, error };
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  // The job's spans join the trace of the session that queued it.
  const worker = new Worker<QueuedConversion, QueuedConversionResult>(
    options.queueName,
    (job) =>
      withCarriedContext(job.data.trace, () =>
        inSpan(
          'arsession.conversion_job',
          { 'arsession.queue': options.queueName, 'arsession.model.name': job.data.fileName, 'arsession.job.attempt': job.attemptsStarted },
          () => convertJob(job),
          SpanKind.CONSUMER,
        ),
      ),
    {
      connection: { url: options.redisUrl, maxRetriesPerRequest: null },
      concurrency: options.concurrency,
      lockDuration: options.lockSeconds * 1000,
      stalledInterval: Math.max(1000, (options.lockSeconds * 1000) / 2),
      maxStalledCount: 1,
    },
  );
  worker.on('error', (err) => options.log.error({ err }, 'conversion worker: queue error'));
  worker.on('failed', (job, err) => options.log.warn({ job: job?.id, err }, 'conversion job failed'));
  return {
    async close() {
      await worker.close();
      redis.disconnect();
    },
  };
}
