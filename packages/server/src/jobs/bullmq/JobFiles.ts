import { readFile, stat, writeFile } from 'node:fs/promises';
import type { Redis } from 'ioredis';
import type { ObjectStore } from '../../objects/ObjectStore.js';

/** How one file of a job travels: beside the job in Redis (small files), or through the object store's scratch. */
export type FileCarrier = 'redis' | 'objects';

/** A file of a job in transit: its key, and which carrier holds it. */
export interface JobFile {
  key: string;
  via: FileCarrier;
}

/** Options of {@link JobFiles}. */
export interface JobFilesOptions {
  /** Where small files travel (a connection of the job files' own). */
  redis: Redis;
  /** Where larger files travel (scratch keys). */
  objects: ObjectStore;
  /** Names the Redis keys, so deployments sharing one Redis keep apart. */
  queueName: string;
  /** Files up to this many bytes travel in Redis; larger ones through the object store. */
  inlineBytes: number;
}

/** A job's file was not where it was sent: expired (its job waited past its time), or removed. */
export class JobFileMissingError extends Error {
  readonly code = 'job_file_missing';
  constructor(readonly key: string) {
    super(`job file ${key} is no longer in Redis (expired, or removed)`);
    this.name = 'JobFileMissingError';
  }
}

/** Defaults of {@link JobFiles}. */
export const JOB_FILES_DEFAULTS: Readonly<Pick<JobFilesOptions, 'inlineBytes'>> = { inlineBytes: 1024 * 1024 };

/**
 * The files of conversion jobs between an API node and a worker: the model there, its USDZ and
 * GLB back. A small file goes beside the job in Redis, which costs a round trip to a process
 * already on the path, where the object store costs a request (and two more to fetch and delete
 * it) to a service that may be far slower; a larger one goes through the object store's scratch,
 * so Redis never holds more than `inlineBytes` per file. Each Redis copy expires (`ttlMs`), so a
 * node that dies holding one leaves nothing for long; scratch objects are swept as before.
 *
 * @example
 * ```ts
 * const files = new JobFiles({ redis, objects, queueName: 'conversions', inlineBytes: 1 << 20 });
 * const [model] = await files.send([['s1/0/model', '/tmp/upload']], 240_000);
 * await files.receive([[model, '/tmp/worker/model']]);
 * await files.remove([model]);
 * ```
 */
export class JobFiles {
  private readonly options: JobFilesOptions;

  constructor(options: Omit<JobFilesOptions, 'inlineBytes'> & Partial<Pick<JobFilesOptions, 'inlineBytes'>>) {
    this.options = { ...JOB_FILES_DEFAULTS, ...options };
  }

  /**
   * Puts local files (`[key, path]`) where the other side can take them, the small ones in one
   * Redis round trip; when any fails, those already put are removed before the error is thrown.
   */
  async send(files: ReadonlyArray<readonly [key: string, path: string]>, ttlMs: number): Promise<JobFile[]> {
    const sizes = await Promise.all(files.map(([, path]) => stat(path).then((s) => s.size)));
    const sent = files.map(([key], i): JobFile => ({ key, via: sizes[i]! <= this.options.inlineBytes ? 'redis' : 'objects' }));
    const inline = this.options.redis.pipeline();
    const put: JobFile[] = [];
    try {
      for (const [i, [key, path]] of files.entries()) {
        if (sent[i]!.via === 'redis') inline.set(this.redisKey(key), await readFile(path), 'PX', Math.ceil(ttlMs));
        else put.push(await this.options.objects.putScratch(key, path).then(() => sent[i]!));
      }
      if (inline.length > 0) failed(await inline.exec());
      return sent;
    } catch (err) {
      await this.remove([...put, ...sent.filter((f) => f.via === 'redis')]).catch(() => undefined);
      throw err;
    }
  }

  /** Writes files sent by the other side (`[file, path]`) to local paths; {@link JobFileMissingError} when one is gone from Redis. */
  async receive(files: ReadonlyArray<readonly [file: JobFile, path: string]>): Promise<void> {
    const inline = files.filter(([file]) => file.via === 'redis');
    const bytes = inline.length ? await this.options.redis.mgetBuffer(...inline.map(([file]) => this.redisKey(file.key))) : [];
    for (const [i, [file, path]] of inline.entries()) {
      const content = bytes[i];
      if (!content) throw new JobFileMissingError(file.key);
      await writeFile(path, content);
    }
    for (const [file, path] of files) if (file.via === 'objects') await this.options.objects.fetchScratch(file.key, path);
  }

  /** Deletes files once taken (or given up): the Redis ones in one round trip. */
  async remove(files: readonly JobFile[]): Promise<void> {
    const inline = files.filter((f) => f.via === 'redis').map((f) => this.redisKey(f.key));
    const scratch = files.filter((f) => f.via === 'objects').map((f) => f.key);
    await Promise.all([
      inline.length ? this.options.redis.del(...inline) : undefined,
      scratch.length ? this.options.objects.deleteScratch(scratch) : undefined,
    ]);
  }

  /** The Redis key of job file `key` (under the queue's name, apart from BullMQ's own `bull:` keys). */
  private redisKey(key: string): string {
    return `${this.options.queueName}:job-files:${key}`;
  }
}

/** Throws the first error of a pipeline's replies. */
function failed(replies: Array<[Error | null, unknown]> | null): void {
  if (!replies) throw new Error('Redis pipeline aborted');
  for (const [err] of replies) if (err) throw err;
}
