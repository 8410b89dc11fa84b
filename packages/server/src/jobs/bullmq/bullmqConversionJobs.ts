import { SpanKind } from '@opentelemetry/api';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { reviveError } from '@arsession/convert';
import { ApiError } from '../../errors/ApiError.js';
import type { ObjectStore } from '../../objects/ObjectStore.js';
import type { ConversionJob, ConversionJobs, ConvertedModel } from '../ConversionJobs.js';
import { JobFileMissingError, JobFiles, type JobFile } from './JobFiles.js';
import { inSpan, traceCarrier } from '../../tracing/spans.js';
import { jobWaitMs, type QueuedConversion, type QueuedConversionResult } from './queueProtocol.js';

/** Options of {@link bullmqConversionJobs}. */
export interface BullmqConversionJobsOptions {
  redisUrl: string;
  /** The queue (one per deployment). */
  queueName: string;
  objects: ObjectStore;
  /** Jobs waiting beyond which a new request answers 503 (`saturated`), cluster-wide. */
  maxWaiting: number;
  /** Models and outputs up to this many bytes travel in Redis beside the job, larger ones through the object store (default 1 MiB). */
  inlineBytes?: number;
}

/** Seconds a client is asked to wait when the queue is out of reach or too deep. */
const RETRY_AFTER_S = '5';

/**
 * Conversions through a BullMQ queue on Redis, run by `arsession serve --role worker` processes on
 * any number of machines. The model goes beside the job ({@link JobFiles}: in Redis when small, else
 * through the object store's scratch); a worker converts it with its own thread pool and sends the
 * USDZ and GLB back the same way; this node learns of the job's completion from the queue's event
 * stream (a blocking read, no polling) and writes them into the session's staged files, so the
 * rest of the request is the same as with threads. A small model's job makes no object-store request. A worker killed mid-job leaves its
 * job stalled:
 * BullMQ moves it back to the queue once its lock lapses and another worker takes it (one retry).
 * A refused model comes back as the typed error it was in the worker; Redis out of reach, or more
 * jobs waiting than `maxWaiting`, is a 503 with Retry-After.
 *
 * @example
 * ```ts
 * const jobs = await bullmqConversionJobs({ redisUrl: 'redis://queue:6379', objects, maxWaiting: 64 });
 * ```
 */
export async function bullmqConversionJobs(options: BullmqConversionJobsOptions): Promise<ConversionJobs> {
  // No offline queue and no retries per command: while Redis is down a request fails at once (503)
  // instead of hanging; the connection itself keeps reconnecting in the background.
  const connection = { url: options.redisUrl, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 };
  const queue = new Queue<QueuedConversion, QueuedConversionResult>(options.queueName, { connection });
  const events = new QueueEvents(options.queueName, {
    connection: { ...connection, maxRetriesPerRequest: null, enableOfflineQueue: true },
  });
  queue.on('error', () => {});
  events.on('error', () => {});
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 });
  redis.on('error', () => {});
  // Ready before the first request: without an offline queue, a command sent while connecting fails.
  await Promise.all([
    queue.waitUntilReady(),
    events.waitUntilReady(),
    redis.status === 'ready' ? undefined : new Promise((resolve) => redis.once('ready', resolve)),
  ]);
  const files = new JobFiles({
    redis,
    objects: options.objects,
    queueName: options.queueName,
    ...(options.inlineBytes !== undefined && { inlineBytes: options.inlineBytes }),
  });
  const unavailable = (err: unknown) =>
    err instanceof ApiError
      ? err
      : new ApiError(503, 'queue_unavailable', 'the conversion queue cannot be reached; retry shortly', [], {
          'Retry-After': RETRY_AFTER_S,
        });

  const retry = { 'Retry-After': RETRY_AFTER_S };

  /** Refused before the model is put anywhere: a saturated cluster costs the client no upload. */
  const refuseWhenSaturated = async (): Promise<void> => {
    // (Nodes adding at the same moment may pass the limit by a few: it bounds the queue, not exactly.)
    const waiting = await queue.getWaitingCount().catch((err: unknown) => {
      throw unavailable(err);
    });
    if (waiting >= options.maxWaiting)
      throw new ApiError(503, 'saturated', `the cluster has ${options.maxWaiting} conversions waiting; retry shortly`, [], retry);
  };

  /** Queues the job naming its sent model; waits for its outcome (a worker's answer, or the wait's end). */
  const queueAndWait = async (job: ConversionJob, model: JobFile, waitMs: number): Promise<QueuedConversionResult> => {
    const base = `${job.sessionId}/${job.order}`;
    const trace = traceCarrier();
    // Finished jobs stay a while: waitUntilFinished reads a job's outcome back, and one removed
    // the moment it completed (a fast conversion) would be lost to it.
    const queued = await queue
      .add(
        'convert',
        {
          ...(trace && { trace }),
          model,
          usdzKey: `${base}/usdz`,
          glbKey: `${base}/glb`,
          partsKey: `${base}/parts`,
          elementsKey: `${base}/elements`,
          fileName: job.upload.name,
          field: job.upload.field,
          timeoutMs: job.timeoutMs,
          budget: job.budget,
          maxGeometryBytes: job.maxGeometryBytes,
          maxUnpackedBytes: job.maxUnpackedBytes,
          ...(job.detectDoor && { detectDoor: job.detectDoor }),
        },
        { attempts: 2, removeOnComplete: { age: 600, count: 10_000 }, removeOnFail: { age: 600, count: 10_000 } },
      )
      .catch((err: unknown) => {
        throw unavailable(err);
      });
    return queued.waitUntilFinished(events, waitMs).catch(async (err: unknown) => {
      // Given up on: no worker should take it later, against a model already removed.
      await queued.remove().catch(() => undefined);
      throw new ApiError(
        503,
        'conversion_failed',
        `the conversion of ${job.upload.name} did not complete (${(err as Error).message}); retry`,
        [],
        retry,
      );
    });
  };

  /** One job: its model sent, queued and waited for, its outputs taken into the session's staged files. */
  const runQueued = async (job: ConversionJob): Promise<ConvertedModel> => {
    await refuseWhenSaturated();
    const waitMs = jobWaitMs(job.timeoutMs);
    const sent: JobFile[] = [];
    try {
      // An object store out of reach is its own 503 (an ApiError, passed through); Redis is the
      // queue's; a local file that cannot be read is this node's own fault, thrown as it is.
      sent.push(
        ...(await files.send([[`${job.sessionId}/${job.order}/model`, job.upload.path]], waitMs).catch((err: unknown) => {
          throw isLocalFileError(err) ? err : unavailable(err);
        })),
      );
      const answer = await queueAndWait(job, sent[0]!, waitMs);
      if (!answer.ok) throw reviveError(answer.error);
      sent.push(answer.usdz, answer.glb, ...(answer.parts ? [answer.parts] : []), ...(answer.elements ? [answer.elements] : []));
      await files
        .receive([
          [answer.usdz, job.usdzPath],
          [answer.glb, job.glbPath],
          ...(answer.parts ? [[answer.parts, job.partsPath] as const] : []),
          ...(answer.elements ? [[answer.elements, job.elementsPath] as const] : []),
        ])
        .catch((err: unknown) => {
          throw err instanceof JobFileMissingError
            ? new ApiError(
                503,
                'conversion_failed',
                `the converted files of ${job.upload.name} were gone before they were taken; retry`,
                [],
                retry,
              )
            : unavailable(err);
        });
      const { usdzFileBytes, usdzFileSha256, glbFileBytes, glbFileSha256 } = answer.result;
      return {
        ...answer.result,
        usdzFileBytes: usdzFileBytes!,
        usdzFileSha256: usdzFileSha256!,
        glbFileBytes: glbFileBytes!,
        glbFileSha256: glbFileSha256!,
      };
    } finally {
      await files.remove(sent).catch(() => undefined);
    }
  };

  return {
    engine: 'bullmq',
    async queueCounts() {
      const [counts, [oldest]] = await Promise.all([
        queue.getJobCounts('waiting', 'active', 'failed'),
        queue.getJobs(['waiting'], 0, 0, true),
      ]);
      return {
        waiting: counts.waiting ?? 0,
        active: counts.active ?? 0,
        failed: counts.failed ?? 0,
        oldestWaitingSince: oldest?.timestamp,
      };
    },
    run(job) {
      // One span from the model sent to the result taken; the job carries its context to the worker.
      return inSpan('arsession.queue', { 'arsession.queue': options.queueName }, () => runQueued(job), SpanKind.PRODUCER);
    },
    async ping() {
      try {
        await queue.getWaitingCount();
      } catch (err) {
        throw unavailable(err);
      }
    },
    async close() {
      await Promise.all([queue.close(), events.close(), redis.quit().catch(() => redis.disconnect())]);
    },
  };
}

/** A failure of this node's own file system (the upload unreadable), as opposed to a service out of reach. */
function isLocalFileError(err: unknown): boolean {
  return err instanceof Error && 'syscall' in err && 'path' in err;
}
