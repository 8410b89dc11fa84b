// The distributed mode (PostgreSQL, an S3-compatible store, a BullMQ queue on Redis; all private,
// on loopback) beside the embedded one on the same machine: session creation under load, and what
// the queue adds to each conversion.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Job, Queue, QueueEvents } from 'bullmq';
import { pino } from 'pino';
import { bullmqConversionJobs, openS3ObjectStore, runConversionWorker } from '@arsession/server';
import { AR_BUDGET_DEFAULTS } from '@arsession/convert';
import { CORPUS_DIR } from './corpus.js';
import { percentiles, summarize, type Percentiles, type Sample } from './sample.js';
import { cpuPer, processCpu } from './processCpu.js';
import { load, type LoadRun } from './serverBench.js';
import { countedCalls, startPostgres, startRedis, startSwift } from './services/index.js';
import { startTarget } from './startTarget.js';

/** Session creation in both modes, and the queue's cost per job. */
export interface DistributedRow {
  connections: number;
  seconds: number;
  /** Every request converts (the conversion cache off): the queue and the stores carry each one. */
  embedded: LoadRun[];
  distributed: LoadRun[];
  /** distributed ÷ embedded requests per second, per round. */
  throughputRatio: Sample;
  /** The same with the cache on (a repeated model is linked, not converted). */
  embeddedCached: LoadRun[];
  distributedCached: LoadRun[];
  cachedRatio: Sample;
  /** One Box.glb job at a time, as the API side runs it for a request (ms). */
  jobs: QueueStages;
  /** CPU time per session (ms) by process over the runs with every request converting: where the machine's two cores go. */
  cpuPerSession: { embedded: Array<{ name: string; ms: number }>; distributed: Array<{ name: string; ms: number }> };
}

/** Where one job's time goes between the API side handing a model over and having the result back (ms). */
export interface QueueStages {
  /** The model sent beside the job (Redis, within the inline bound) and the job queued, until a worker takes it. */
  enqueueToStart: Percentiles;
  /** In the worker besides the conversion: the model taken, the outputs sent back. */
  workerTransfers: Percentiles;
  /** The conversion itself (read + write). */
  conversion: Percentiles;
  /** The worker done, until the API side has the result: the completion event, the outputs taken, the job's files removed. */
  finishToAnswer: Percentiles;
  /** Everything but the conversion: what the queue adds to a request. */
  overhead: Percentiles;
  /** Object-store calls a job made, both sides together (the most of any job; each call is one request or more). */
  objectStoreRequests: number;
}

/**
 * Starts the three services, then loads an embedded and a distributed server (each its own
 * process, two conversion workers, role `all`) in alternating rounds, with and without the
 * conversion cache; then times single jobs through the queue.
 *
 * @example
 * ```ts
 * const row = await benchDistributed(false);
 * ```
 */
export async function benchDistributed(quick: boolean): Promise<DistributedRow> {
  const seconds = quick ? 4 : 10;
  const rounds = quick ? 1 : 3;
  const [postgres, swift, redis] = await Promise.all([startPostgres(), startSwift(), startRedis()]);
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'bench-dist-'));
    dirs.push(d);
    return d;
  };
  const s3 = {
    endpoint: swift.endpoint,
    region: swift.region,
    accessKeyId: swift.accessKeyId,
    secretAccessKey: swift.secretAccessKey,
    forcePathStyle: true,
  };
  const envFor = async (name: string) => ({
    ARSESSION_DATABASE_URL: await postgres.createDatabase(name),
    ARSESSION_REDIS_URL: redis.url,
    ARSESSION_QUEUE_NAME: name,
    ARSESSION_S3_BUCKET: name,
    ARSESSION_S3_ENDPOINT: s3.endpoint,
    ARSESSION_S3_REGION: s3.region,
    ARSESSION_S3_ACCESS_KEY_ID: s3.accessKeyId,
    ARSESSION_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    ARSESSION_S3_FORCE_PATH_STYLE: 'true',
  });
  try {
    const targets = {
      embedded: await startTarget(['ours-uncached', dir()]),
      distributed: await startTarget(['distributed-uncached', dir()], await envFor('uncached')),
      embeddedCached: await startTarget(['ours', dir()]),
      distributedCached: await startTarget(['distributed', dir()], await envFor('cached')),
    };
    const runs: Record<keyof typeof targets, LoadRun[]> = { embedded: [], distributed: [], embeddedCached: [], distributedCached: [] };
    const cpu = {
      embedded: { used: new Map<string, number>(), sessions: 0 },
      distributed: { used: new Map<string, number>(), sessions: 0 },
    };
    try {
      for (const t of Object.values(targets)) await load(t.url, t.key, 2);
      for (let r = 0; r < rounds; r++) {
        for (const k of Object.keys(targets) as Array<keyof typeof targets>) {
          const named = { server: targets[k].pid, bench: process.pid };
          const before = processCpu(named);
          runs[k].push(await load(targets[k].url, targets[k].key, seconds));
          if (k !== 'embedded' && k !== 'distributed') continue;
          for (const { name, ms } of cpuPer(before, processCpu(named), 1)) cpu[k].used.set(name, (cpu[k].used.get(name) ?? 0) + ms);
          cpu[k].sessions += runs[k].at(-1)!.requestsPerSecond * seconds;
        }
        console.error(
          `  round ${r + 1}: every request converting: embedded ${runs.embedded.at(-1)!.requestsPerSecond.toFixed(0)} ` +
            `req/s, distributed ${runs.distributed.at(-1)!.requestsPerSecond.toFixed(0)} req/s`,
        );
      }
    } finally {
      for (const t of Object.values(targets)) t.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 1000));
    }
    const ratio = (a: LoadRun[], b: LoadRun[]) => summarize(a.map((x, i) => x.requestsPerSecond / b[i]!.requestsPerSecond));
    const jobs = await benchQueueStages(redis.url, s3, quick ? 40 : 200);
    return {
      connections: 32,
      seconds,
      embedded: runs.embedded,
      distributed: runs.distributed,
      throughputRatio: ratio(runs.distributed, runs.embedded),
      embeddedCached: runs.embeddedCached,
      distributedCached: runs.distributedCached,
      cachedRatio: ratio(runs.distributedCached, runs.embeddedCached),
      jobs,
      cpuPerSession: {
        embedded: cpuPer(new Map(), cpu.embedded.used, cpu.embedded.sessions),
        distributed: cpuPer(new Map(), cpu.distributed.used, cpu.distributed.sessions),
      },
    };
  } finally {
    postgres.stop();
    await Promise.all([swift.stop(), redis.stop()]);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

/**
 * Single Box.glb jobs through the queue, one at a time, with a worker in this process: the
 * worker's own timestamps (BullMQ's processedOn, finishedOn; the same clock) split each job's time.
 */
async function benchQueueStages(
  redisUrl: string,
  s3: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string; forcePathStyle: boolean },
  count: number,
): Promise<QueueStages> {
  const { proxy: objects, calls } = countedCalls(await openS3ObjectStore({ ...s3, bucket: 'overhead', redirect: false }));
  const jobs = await bullmqConversionJobs({ redisUrl, queueName: 'overhead', objects, maxWaiting: 1000 });
  const worker = runConversionWorker({
    redisUrl,
    queueName: 'overhead',
    objects,
    concurrency: 1,
    lockSeconds: 30,
    log: pino({ level: 'silent' }),
  });
  const queue = new Queue('overhead', { connection: { url: redisUrl } });
  const events = new QueueEvents('overhead', { connection: { url: redisUrl } });
  await events.waitUntilReady();
  const taken: string[] = [];
  events.on('active', ({ jobId }) => taken.push(jobId));
  const scratch = mkdtempSync(join(tmpdir(), 'bench-jobs-'));
  const box = readFileSync(join(CORPUS_DIR, 'glb', 'Box.glb'));
  const stages = {
    enqueueToStart: [] as number[],
    workerTransfers: [] as number[],
    conversion: [] as number[],
    finishToAnswer: [] as number[],
    overhead: [] as number[],
  };
  let mostRequests = 0;
  try {
    for (let i = -3; i < count; i++) {
      const model = join(scratch, `m${i}.glb`);
      writeFileSync(model, box);
      const before = taken.length;
      calls.length = 0;
      const t0 = Date.now();
      const result = await jobs.run({
        sessionId: `bench${i}`,
        order: 0,
        upload: { path: model, name: 'Box.glb', field: 'model_file' },
        usdzPath: join(scratch, `o${i}.usdz`),
        glbPath: join(scratch, `o${i}.glb`),
        partsPath: join(scratch, `o${i}.parts.zip`),
        elementsPath: join(scratch, `o${i}.elements.json.gz`),
        timeoutMs: 60_000,
        budget: AR_BUDGET_DEFAULTS,
        maxGeometryBytes: Number.MAX_SAFE_INTEGER,
        maxUnpackedBytes: 200 * 2 ** 20,
      });
      const t1 = Date.now();
      if (i < 0) continue; // warm-up: the worker thread and its readers load
      mostRequests = Math.max(mostRequests, calls.length);
      // The active event may trail the answer by a moment: wait for it, then read the job's own times.
      while (taken.length === before) await new Promise((r) => setTimeout(r, 1));
      const job = await Job.fromId(queue, taken[before]!);
      const work = result.timings.readMs + result.timings.writeMs;
      stages.enqueueToStart.push(job!.processedOn! - t0);
      stages.workerTransfers.push(job!.finishedOn! - job!.processedOn! - work);
      stages.conversion.push(work);
      stages.finishToAnswer.push(t1 - job!.finishedOn!);
      stages.overhead.push(t1 - t0 - work);
    }
  } finally {
    await Promise.all([worker.close(), jobs.close(), events.close(), queue.close()]);
    rmSync(scratch, { recursive: true, force: true });
  }
  return {
    enqueueToStart: percentiles(stages.enqueueToStart),
    workerTransfers: percentiles(stages.workerTransfers),
    conversion: percentiles(stages.conversion),
    finishToAnswer: percentiles(stages.finishToAnswer),
    overhead: percentiles(stages.overhead),
    objectStoreRequests: mostRequests,
  };
}
