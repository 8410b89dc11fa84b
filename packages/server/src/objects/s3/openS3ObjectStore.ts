import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, stat, unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  CreateBucketCommand,
  PutObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadBucketCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
  type S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ApiError } from '../../errors/ApiError.js';
import type { StagedFile } from '../../store/SessionStore.js';
import type { ObjectStore } from '../ObjectStore.js';

/** Where the bucket is and how to reach it (the `ARSESSION_S3_*` settings). */
export interface S3ObjectStoreOptions {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
  /** Answer file requests with a redirect to a presigned URL instead of relaying the bytes. */
  redirect: boolean;
}

/** Seconds a client is asked to wait while the object store is out of reach. */
export const OBJECTS_RETRY_AFTER_S = 5;
// Parts of a multipart upload: S3's smallest allowed, so a 12 MB model already goes in parallel parts.
const PART_BYTES = 5 * 1024 * 1024;

/** The key of a session's file, and of a saved model. */
const sessionKey = (sessionId: string, name: string) => `sessions/${sessionId}/${name}`;
const modelKey = (storedAs: string) => `models/${storedAs}`;
const cachedKey = (key: string, name: string) => `cache/${key}/${name}`;

/**
 * Session files and saved models in any S3-compatible store (AWS S3, MinIO, Ceph, OpenStack Swift's
 * s3api), shared by every node. Uploads are streamed, in parallel parts above 5 MB
 * (`@aws-sdk/lib-storage`). A session's files are put under their final keys before its rows are
 * written and deleted if that fails: nothing is served that a committed session does not own, since
 * files are only reached through a row. Files are relayed with ranges and our own strong ETag (the
 * SHA-256 the row records), or, with `redirect`, answered by a redirect to a presigned URL valid
 * for an hour at most. Only requests every S3 implementation takes are used (no checksum headers
 * beyond what a request requires, deletes one key at a time). A store out of reach answers 503
 * `object_store_unavailable` with Retry-After. The bucket is created when missing.
 *
 * @example
 * ```ts
 * const objects = await openS3ObjectStore({ endpoint: 'http://minio:9000', bucket: 'arsession', region: 'us-east-1', … });
 * ```
 */
export async function openS3ObjectStore(options: S3ObjectStoreOptions): Promise<ObjectStore> {
  const s3 = new S3Client({
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    ...(options.endpoint && { endpoint: options.endpoint }),
    ...(options.accessKeyId &&
      options.secretAccessKey && { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }),
    // Checksums only where a request needs one: several S3-compatible stores reject the newer ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = options.bucket;
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      throw unavailable(err);
    }
  };
  // A file within one part goes in a single PUT from memory; the multipart machinery (streams,
  // part bookkeeping) would cost more CPU than the request itself.
  const put = (key: string, path: string) =>
    call(async () => {
      if ((await stat(path)).size <= PART_BYTES) await s3.send(new PutObjectCommand({ Bucket, Key: key, Body: await readFile(path) }));
      else
        await new Upload({
          client: s3,
          params: { Bucket, Key: key, Body: createReadStream(path) },
          partSize: PART_BYTES,
          queueSize: 4,
        }).done();
    });
  const remove = (keys: readonly string[]) =>
    call(async () => {
      for (const key of keys) await s3.send(new DeleteObjectCommand({ Bucket, Key: key }));
    });
  /** Every object under `prefix`, page by page. */
  const list = async (prefix: string): Promise<Array<{ key: string; modifiedAt: number }>> => {
    const found: Array<{ key: string; modifiedAt: number }> = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await call(() =>
        s3.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ...(ContinuationToken && { ContinuationToken }) })),
      );
      for (const o of page.Contents ?? []) if (o.Key) found.push({ key: o.Key, modifiedAt: o.LastModified?.getTime() ?? 0 });
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return found;
  };

  await call(async () => {
    try {
      await s3.send(new HeadBucketCommand({ Bucket }));
    } catch (err) {
      if ((err as S3ServiceException).$metadata?.httpStatusCode !== 404) throw err;
      // Nodes starting together race to create it: whoever loses finds it made.
      await s3.send(new CreateBucketCommand({ Bucket })).catch((e: unknown) => {
        if ((e as S3ServiceException).$metadata?.httpStatusCode !== 409) throw e;
      });
    }
  });

  return {
    engine: 's3',
    async commitSession(sessionId, staged, kept, writeRows) {
      const keys: string[] = [];
      try {
        // One after another: a large file already goes in parallel parts, and several files at
        // once measured no faster on a busy store while making its refusals (503) likelier.
        for (const [key, path] of [
          ...staged.map((f) => [sessionKey(sessionId, f.name), f.from] as const),
          ...kept.map((k) => [modelKey(k.storedAs), k.path] as const),
        ]) {
          await put(key, path);
          keys.push(key);
        }
        // The store has the files: the rows are written with none left to place locally.
        const result = await writeRows([]);
        await removeLocal([...staged, ...kept.map((k) => ({ from: k.path, name: '' }))]);
        return result;
      } catch (err) {
        await remove(keys).catch(() => undefined);
        throw err;
      }
    },
    async send(req, res, sessionId, file, { maxAgeSeconds }) {
      const Key = sessionKey(sessionId, file.name);
      if (options.redirect) {
        const url = await call(() =>
          getSignedUrl(
            s3,
            new GetObjectCommand({
              Bucket,
              Key,
              ResponseContentType: file.contentType,
              ResponseContentDisposition: file.downloadName,
            }),
            { expiresIn: Math.max(1, Math.min(3600, maxAgeSeconds)) },
          ),
        );
        res.redirect(307, url);
        return;
      }
      res.set({ 'Accept-Ranges': 'bytes', 'Content-Type': file.contentType });
      if (req.fresh) {
        res.status(304).end();
        return;
      }
      const ranges = req.range(file.bytes);
      if (ranges === -1) {
        res.status(416).set('Content-Range', `bytes */${file.bytes}`).end();
        return;
      }
      const range = Array.isArray(ranges) && ranges.length === 1 && ranges.type === 'bytes' ? ranges[0]! : undefined;
      const object = await call(() =>
        s3.send(new GetObjectCommand({ Bucket, Key, ...(range && { Range: `bytes=${range.start}-${range.end}` }) })),
      );
      if (range) res.status(206).set('Content-Range', `bytes ${range.start}-${range.end}/${file.bytes}`);
      res.set('Content-Length', String(range ? range.end - range.start + 1 : file.bytes));
      if (req.method === 'HEAD') {
        (object.Body as Readable).destroy();
        res.end();
        return;
      }
      await pipeline(object.Body as Readable, res);
    },
    async readSessionFile(sessionId, name) {
      const object = await call(() => s3.send(new GetObjectCommand({ Bucket, Key: sessionKey(sessionId, name) })));
      return call(async () => new Uint8Array(await object.Body!.transformToByteArray()));
    },
    deleteSession: (sessionId, names) => remove(names.map((n) => sessionKey(sessionId, n))),
    async sessionsWithFiles() {
      const found = new Map<string, { names: string[]; newestAt: number }>();
      for (const o of await list('sessions/')) {
        const [, id, name] = o.key.split('/');
        if (!id || !name) continue;
        const entry = found.get(id) ?? { names: [], newestAt: 0 };
        entry.names.push(name);
        entry.newestAt = Math.max(entry.newestAt, o.modifiedAt);
        found.set(id, entry);
      }
      return found;
    },
    async sendSavedModel(res, storedAs, bytes, headers) {
      const object = await call(() => s3.send(new GetObjectCommand({ Bucket, Key: modelKey(storedAs) })));
      res.set({ ...headers, 'Content-Length': String(bytes) });
      await pipeline(object.Body as Readable, res);
    },
    async fetchSavedModel(storedAs, path) {
      const object = await call(() => s3.send(new GetObjectCommand({ Bucket, Key: modelKey(storedAs) })));
      await pipeline(object.Body as Readable, createWriteStream(path));
    },
    savedModelObjects: async () => new Map((await list('models/')).map((o) => [o.key.slice('models/'.length), o.modifiedAt])),
    deleteSavedModels: (storedAs) => remove(storedAs.map(modelKey)),
    scratchObjects: async () => new Map((await list('scratch/')).map((o) => [o.key.slice('scratch/'.length), o.modifiedAt])),
    async putScratch(key, path) {
      await put(`scratch/${key}`, path);
    },
    async fetchScratch(key, path) {
      const object = await call(() => s3.send(new GetObjectCommand({ Bucket, Key: `scratch/${key}` })));
      await pipeline(object.Body as Readable, createWriteStream(path));
    },
    deleteScratch: (keys) => remove(keys.map((k) => `scratch/${k}`)),
    async cacheSessionFile(sessionId, name, key, cachedName) {
      await call(() =>
        s3.send(new CopyObjectCommand({ Bucket, Key: cachedKey(key, cachedName), CopySource: `${Bucket}/${sessionKey(sessionId, name)}` })),
      );
    },
    async fetchCached(key, cachedName, path) {
      let object: GetObjectCommandOutput;
      try {
        object = await s3.send(new GetObjectCommand({ Bucket, Key: cachedKey(key, cachedName) }));
      } catch (err) {
        if (err instanceof NoSuchKey || (err as S3ServiceException).$metadata?.httpStatusCode === 404) return false;
        throw unavailable(err);
      }
      await call(() => pipeline(object.Body as Readable, createWriteStream(path)));
      return true;
    },
    async deleteCached(keys) {
      for (const key of keys) await remove((await list(`cache/${key}/`)).map((o) => o.key));
    },
    async cachedEntries() {
      const found = new Map<string, number>();
      for (const o of await list('cache/')) {
        const key = o.key.split('/')[1];
        if (key) found.set(key, Math.max(found.get(key) ?? 0, o.modifiedAt));
      }
      return found;
    },
    async ping() {
      await call(() => s3.send(new HeadBucketCommand({ Bucket })));
    },
  };
}

async function removeLocal(files: readonly StagedFile[]): Promise<void> {
  for (const f of files) await unlink(f.from).catch(() => undefined);
}

/** A store that does not answer (connection refused or reset, a 5xx of its own) becomes a 503 for the client. */
function unavailable(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  const status = (err as S3ServiceException)?.$metadata?.httpStatusCode;
  const code = (err as { code?: unknown })?.code;
  const network = typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN)$/.test(code);
  if (!network && !(status !== undefined && status >= 500) && (err as Error)?.name !== 'TimeoutError') return err;
  return new ApiError(503, 'object_store_unavailable', 'the object store cannot be reached; retry shortly', [], {
    'Retry-After': String(OBJECTS_RETRY_AFTER_S),
  });
}
