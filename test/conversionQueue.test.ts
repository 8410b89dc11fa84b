import { createHash } from 'node:crypto';
// The conversion queue between an API node and a worker (BullMQ on a private Redis, OpenStack
// Swift as the object store): how a job's model and outputs travel, what each costs the object
// store, and that nothing stays behind.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AR_BUDGET_DEFAULTS } from '@arsession/convert';
import { countedCalls, startRedis, startSwift, type RedisServer, type SwiftServer } from '@arsession/bench/services';
import { bullmqConversionJobs } from '../packages/server/src/jobs/bullmq/bullmqConversionJobs.js';
import { JobFileMissingError, JobFiles } from '../packages/server/src/jobs/bullmq/JobFiles.js';
import { runConversionWorker, type RunningConversionWorker } from '../packages/server/src/jobs/bullmq/runConversionWorker.js';
import { threadConversionJobs } from '../packages/server/src/jobs/threads/threadConversionJobs.js';
import type { ConversionJob, ConversionJobs } from '../packages/server/src/jobs/ConversionJobs.js';
import { openS3ObjectStore } from '../packages/server/src/objects/s3/openS3ObjectStore.js';
import { ApiError } from '../packages/server/src/errors/ApiError.js';
import { corpusPath } from './support/corpus.js';

let redis: RedisServer, swift: SwiftServer, client: Redis, dir: string;
const closing: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  [redis, swift] = await Promise.all([startRedis(), startSwift()]);
  client = new Redis(redis.url);
  dir = mkdtempSync(join(tmpdir(), 'arsession-queue-'));
}, 120_000);

afterAll(async () => {
  for (const c of closing.reverse()) await c.close();
  client.disconnect();
  await Promise.all([redis.stop(), swift.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

/** An API side and (unless `worker: false`) a worker on queue `name`, both counting their object-store calls. */
async function queueNamed(name: string, options: { inlineBytes?: number; worker?: boolean } = {}) {
  const store = await openS3ObjectStore({
    endpoint: swift.endpoint,
    region: swift.region,
    accessKeyId: swift.accessKeyId,
    secretAccessKey: swift.secretAccessKey,
    forcePathStyle: true,
    bucket: name,
    redirect: false,
  });
  const api = countedCalls(store),
    work = countedCalls(store);
  const jobs = await bullmqConversionJobs({
    redisUrl: redis.url,
    queueName: name,
    objects: api.proxy,
    maxWaiting: 100,
    ...(options.inlineBytes !== undefined && { inlineBytes: options.inlineBytes }),
  });
  closing.push(jobs);
  const startWorker = (): RunningConversionWorker => {
    const worker = runConversionWorker({
      redisUrl: redis.url,
      queueName: name,
      objects: work.proxy,
      concurrency: 1,
      lockSeconds: 2,
      log: pino({ level: 'silent' }),
      ...(options.inlineBytes !== undefined && { inlineBytes: options.inlineBytes }),
    });
    closing.push(worker);
    return worker;
  };
  if (options.worker !== false) startWorker();
  return { store, jobs, apiCalls: api.calls, workerCalls: work.calls, startWorker };
}

/** A conversion job of a corpus model, its outputs written under `dir` with `tag`. */
function jobOf(kind: 'glb' | 'ifc' | 'usdz', name: string, tag: string): ConversionJob {
  const path = join(dir, `${tag}.model`);
  writeFileSync(path, readFileSync(corpusPath(kind, name)));
  return {
    sessionId: tag,
    order: 0,
    upload: { path, name, field: 'model_file' },
    usdzPath: join(dir, `${tag}.usdz`),
    glbPath: join(dir, `${tag}.glb`),
    partsPath: join(dir, `${tag}.parts.zip`),
    elementsPath: join(dir, `${tag}.elements.json.gz`),
    timeoutMs: 60_000,
    budget: AR_BUDGET_DEFAULTS,
    maxGeometryBytes: 2 ** 31,
    maxUnpackedBytes: 200 * 2 ** 20,
  };
}

/** The same job converted on this process's threads: what the queue must hand back, byte for byte. */
async function convertedHere(job: ConversionJob): Promise<{ usdz: Buffer; glb: Buffer; parts: Buffer | undefined }> {
  const here: ConversionJobs = threadConversionJobs();
  const result = await here.run({
    ...job,
    usdzPath: `${job.usdzPath}.here`,
    glbPath: `${job.glbPath}.here`,
    partsPath: `${job.partsPath}.here`,
    elementsPath: `${job.elementsPath}.here`,
  });
  return {
    usdz: readFileSync(`${job.usdzPath}.here`),
    glb: readFileSync(`${job.glbPath}.here`),
    parts: result.parts && readFileSync(`${job.partsPath}.here`),
  };
}

const jobFileKeys = (queue: string) => client.keys(`${queue}:job-files:*`);
/** The job files of `queue` once there are some (a job was sent), failing after 10 s. */
async function awaitJobFiles(queue: string): Promise<string[]> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 5))) {
    const keys = await jobFileKeys(queue);
    if (keys.length > 0) return keys;
  }
  throw new Error(`no job files of ${queue} within 10 s`);
}

describe('a model within the inline bound', () => {
  it(
    'travels beside the job in Redis: no object-store request either ' +
      'side, the outputs the threads engine makes, nothing left in Redis',
    async () => {
      const { jobs, apiCalls, workerCalls } = await queueNamed('inline');
      const job = jobOf('glb', 'Box.glb', 'inline');
      const result = await jobs.run(job);
      expect(apiCalls).toEqual([]);
      expect(workerCalls).toEqual([]);
      const here = await convertedHere(job);
      expect(readFileSync(job.usdzPath).equals(here.usdz)).toBe(true);
      expect(readFileSync(job.glbPath).equals(here.glb)).toBe(true);
      expect(result.usdzFileBytes).toBe(here.usdz.length);
      expect(await jobFileKeys('inline')).toEqual([]);
    },
  );

  it('waits in Redis with an expiry no longer than the API node waits for its job', async () => {
    const { jobs, startWorker } = await queueNamed('waiting', { worker: false });
    const job = jobOf('glb', 'Box.glb', 'waiting');
    const running = jobs.run(job);
    const keys = await awaitJobFiles('waiting');
    expect(keys).toEqual(['waiting:job-files:waiting/0/model']);
    const ttl = await client.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(job.timeoutMs * 2 + 120_000);
    startWorker();
    await running;
    expect(readFileSync(job.usdzPath).length).toBeGreaterThan(0);
    expect(await jobFileKeys('waiting')).toEqual([]);
  });

  it('gone from Redis before a worker takes it: the job fails and the request gets 503 conversion_failed, not a hang', async () => {
    const { jobs, startWorker } = await queueNamed('expired', { worker: false });
    const running = jobs.run(jobOf('glb', 'Box.glb', 'expired')).then(
      () => undefined,
      (err: unknown) => err,
    );
    const keys = await awaitJobFiles('expired');
    await client.del(...keys);
    startWorker();
    const err = await running;
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(503);
    expect((err as ApiError).code).toBe('conversion_failed');
  });
});

describe('job files', () => {
  it('one gone from Redis is named when taken: JobFileMissingError with its key, nothing written', async () => {
    const store = await openS3ObjectStore({
      endpoint: swift.endpoint,
      region: swift.region,
      accessKeyId: swift.accessKeyId,
      secretAccessKey: swift.secretAccessKey,
      forcePathStyle: true,
      bucket: 'files',
      redirect: false,
    });
    const files = new JobFiles({ redis: client, objects: store, queueName: 'files' });
    const source = join(dir, 'files.model');
    writeFileSync(source, 'a small model');
    const [sent] = await files.send([['s/0/model', source]], 60_000);
    expect(sent).toEqual({ key: 's/0/model', via: 'redis' });
    await files.remove([sent!]);
    const err = await files.receive([[sent!, join(dir, 'files.taken')]]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(JobFileMissingError);
    expect((err as JobFileMissingError).key).toBe('s/0/model');
    expect(existsSync(join(dir, 'files.taken'))).toBe(false);
  });
});

describe('a model over the inline bound', () => {
  it("travels through the object store's scratch, its outputs too; the scratch is empty after, Redis holds nothing", async () => {
    const { store, jobs, apiCalls, workerCalls } = await queueNamed('scratch', { inlineBytes: 100 });
    const job = jobOf('glb', 'Box.glb', 'scratch');
    await jobs.run(job);
    // In: the model; out: the USDZ, the GLB and the element records.
    expect(apiCalls).toEqual(['putScratch', 'fetchScratch', 'fetchScratch', 'fetchScratch', 'deleteScratch']);
    expect(workerCalls).toEqual(['fetchScratch', 'putScratch', 'putScratch', 'putScratch']);
    const here = await convertedHere(job);
    expect(readFileSync(job.usdzPath).equals(here.usdz)).toBe(true);
    expect(readFileSync(job.glbPath).equals(here.glb)).toBe(true);
    expect(readFileSync(job.elementsPath).equals(readFileSync(`${job.elementsPath}.here`))).toBe(true);
    expect((await store.scratchObjects()).size).toBe(0);
    expect(await jobFileKeys('scratch')).toEqual([]);
  });

  it('an IFC over the budget sends its parts and element records back too, as the threads engine writes them', async () => {
    const { store, jobs, workerCalls } = await queueNamed('parts', { inlineBytes: 100 });
    const job = { ...jobOf('ifc', 'duplex.ifc', 'parts'), budget: { ...AR_BUDGET_DEFAULTS, triangles: 20_000 } };
    const result = await jobs.run(job);
    // The model in; the USDZ, the GLB, the parts and the records out.
    expect(workerCalls).toEqual(['fetchScratch', 'putScratch', 'putScratch', 'putScratch', 'putScratch']);
    const here = await convertedHere(job);
    expect(readFileSync(job.elementsPath).equals(readFileSync(`${job.elementsPath}.here`))).toBe(true);
    expect(result.parts!.parts.map((p) => p.name)).toEqual(['T/FDN', 'Level 1', 'Level 2', 'Roof']);
    expect(readFileSync(job.partsPath).equals(here.parts!)).toBe(true);
    expect(result.parts!.sha256).toBe(createHash('sha256').update(here.parts!).digest('hex'));
    expect((await store.scratchObjects()).size).toBe(0);
  });

  it('a refused model answers its typed error, and leaves no scratch behind', async () => {
    const { store, jobs } = await queueNamed('refused', { inlineBytes: 10 });
    const job = jobOf('glb', 'Box.glb', 'refused');
    writeFileSync(job.upload.path, 'glTF but not really, only text');
    const err = await jobs.run(job).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((err as { code?: string }).code).toBe('model_unreadable');
    expect((await store.scratchObjects()).size).toBe(0);
  });
});
