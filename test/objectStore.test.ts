// The ObjectStore contract on a real S3-compatible store (OpenStack Swift's s3api, started for
// this file): a session's files put with its rows or not at all, multipart uploads, listing and
// deleting, the clean-up of what a crashed node left, and an outage answered with 503.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openS3ObjectStore } from '../packages/server/src/objects/s3/openS3ObjectStore.js';
import type { ObjectStore } from '../packages/server/src/objects/ObjectStore.js';
import { removeObjectOrphans } from '../packages/server/src/sweeper/sweepExpired.js';
import type { SessionStore } from '../packages/server/src/store/SessionStore.js';
import { startSwift, type SwiftServer } from '@arsession/bench/services';

let swift: SwiftServer;
let objects: ObjectStore;
let s3: S3Client;
let dir: string;
beforeAll(async () => {
  swift = await startSwift();
  const options = {
    endpoint: swift.endpoint,
    bucket: 'contract',
    region: swift.region,
    accessKeyId: swift.accessKeyId,
    secretAccessKey: swift.secretAccessKey,
    forcePathStyle: true,
    redirect: false,
  };
  objects = await openS3ObjectStore(options);
  s3 = new S3Client({
    endpoint: swift.endpoint,
    region: swift.region,
    forcePathStyle: true,
    credentials: swift,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  dir = mkdtempSync(join(tmpdir(), 'arsession-objects-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await swift.stop();
});

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
async function objectBytes(key: string): Promise<Uint8Array | undefined> {
  try {
    return await (await s3.send(new GetObjectCommand({ Bucket: 'contract', Key: key }))).Body!.transformToByteArray();
  } catch {
    return undefined;
  }
}

describe('S3 object store', () => {
  it("puts a session's files (12 MB in parts) and a kept upload, then the rows; the local copies go", async () => {
    const big = Buffer.alloc(12 * 1024 * 1024 + 7, 3);
    writeFileSync(join(dir, 'big'), big);
    writeFileSync(join(dir, 'small'), 'usdz');
    writeFileSync(join(dir, 'model'), 'ifc');
    const written: unknown[] = [];
    const result = await objects.commitSession(
      'sess1',
      [
        { from: join(dir, 'big'), name: '0.usdz' },
        { from: join(dir, 'small'), name: '1.usdz' },
      ],
      [{ path: join(dir, 'model'), storedAs: 'sess1-house.ifc' }],
      async (local) => {
        written.push(local);
        return 'code';
      },
    );
    expect(result).toBe('code');
    expect(written).toEqual([[]]);
    expect(sha256((await objectBytes('sessions/sess1/0.usdz'))!)).toBe(sha256(big));
    // Uploaded in three 5 MB parts: the store's ETag of a multipart object says how many.
    expect((await s3.send(new HeadObjectCommand({ Bucket: 'contract', Key: 'sessions/sess1/0.usdz' }))).ETag).toMatch(/-3"$/);
    expect(Buffer.from((await objectBytes('models/sess1-house.ifc'))!).toString()).toBe('ifc');
    expect([existsSync(join(dir, 'big')), existsSync(join(dir, 'model'))]).toEqual([false, false]);
    expect((await objects.sessionsWithFiles()).get('sess1')?.names.sort()).toEqual(['0.usdz', '1.usdz']);
  });

  it('when the rows cannot be written, nothing of the session stays in the store', async () => {
    writeFileSync(join(dir, 'a'), 'a');
    await expect(
      objects.commitSession('sess2', [{ from: join(dir, 'a'), name: '0.usdz' }], [], async () => {
        throw new Error('rows refused');
      }),
    ).rejects.toThrow('rows refused');
    expect(await objectBytes('sessions/sess2/0.usdz')).toBeUndefined();
    expect((await objects.sessionsWithFiles()).has('sess2')).toBe(false);
  });

  it("deletes a session's files; the clean-up removes files, saved models and scratch objects nothing owns, past their grace", async () => {
    writeFileSync(join(dir, 'o'), 'orphan');
    writeFileSync(join(dir, 'k'), 'kept');
    writeFileSync(join(dir, 'm'), 'saved model of a session that never committed');
    writeFileSync(join(dir, 'n'), 'saved model of a committed session');
    writeFileSync(join(dir, 's'), "a job's model");
    await objects.commitSession(
      'orphan',
      [{ from: join(dir, 'o'), name: '0.usdz' }],
      [{ path: join(dir, 'm'), storedAs: 'orphan-model.ifc' }],
      async () => undefined,
    );
    await objects.commitSession(
      'owned',
      [{ from: join(dir, 'k'), name: '0.usdz' }],
      [{ path: join(dir, 'n'), storedAs: 'owned-model.ifc' }],
      async () => undefined,
    );
    await objects.putScratch('job1/0/model', join(dir, 's'));
    const store = {
      existingSessions: async (ids: readonly string[]) => new Set(ids.filter((id) => id !== 'orphan')),
      savedModelFiles: async () => new Set(['owned-model.ifc', 'sess1-house.ifc']),
    } as unknown as SessionStore;
    // Within the grace a file without a row may belong to a request still committing: it stays.
    expect(await removeObjectOrphans(store, objects, { graceMs: 3600_000, scratchGraceMs: 3600_000 })).toEqual({
      sessions: [],
      savedModels: [],
      scratch: [],
    });
    expect(await removeObjectOrphans(store, objects, { graceMs: -1000, scratchGraceMs: -1000 })).toEqual({
      sessions: ['orphan'],
      savedModels: ['orphan-model.ifc'],
      scratch: ['job1/0/model'],
    });
    const left = await objects.sessionsWithFiles();
    expect([left.has('orphan'), left.has('owned')]).toEqual([false, true]);
    expect([...(await objects.savedModelObjects()).keys()].sort()).toEqual(['owned-model.ifc', 'sess1-house.ifc']);
    expect(await objects.scratchObjects()).toEqual(new Map());
    await objects.deleteSession('owned', ['0.usdz']);
    expect((await objects.sessionsWithFiles()).has('owned')).toBe(false);
  });

  it('conversion-cache files: copied from a session inside the store, fetched back, listed, deleted', async () => {
    writeFileSync(join(dir, 'c'), 'cached usdz');
    await objects.commitSession('cached', [{ from: join(dir, 'c'), name: '0.usdz' }], [], async () => undefined);
    await objects.cacheSessionFile('cached', '0.usdz', 'sha.1', 'model.usdz');
    expect(Buffer.from((await objectBytes('cache/sha.1/model.usdz'))!).toString()).toBe('cached usdz');
    // A copy, not a move: the session keeps its own file.
    expect(Buffer.from((await objectBytes('sessions/cached/0.usdz'))!).toString()).toBe('cached usdz');
    expect(await objects.fetchCached('sha.1', 'model.usdz', join(dir, 'fetched'))).toBe(true);
    expect((await import('node:fs')).readFileSync(join(dir, 'fetched'), 'utf8')).toBe('cached usdz');
    expect(await objects.fetchCached('sha.1', 'model.glb', join(dir, 'none'))).toBe(false);
    expect(await objects.fetchCached('no-such-entry', 'model.usdz', join(dir, 'none'))).toBe(false);
    expect(existsSync(join(dir, 'none'))).toBe(false);
    expect([...(await objects.cachedEntries()).keys()]).toEqual(['sha.1']);
    await objects.deleteCached(['sha.1']);
    expect(await objects.cachedEntries()).toEqual(new Map());
    expect(await objectBytes('sessions/cached/0.usdz')).toBeDefined();
  });

  it('an unreachable store is a 503 object_store_unavailable with Retry-After; back to normal after', async () => {
    await swift.stopProxy();
    try {
      const err = await objects.ping().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({
        status: 503,
        code: 'object_store_unavailable',
        headers: { 'Retry-After': expect.stringMatching(/^\d+$/) },
      });
    } finally {
      await swift.startProxy();
    }
    await expect(objects.ping()).resolves.toBeUndefined();
  });
});
