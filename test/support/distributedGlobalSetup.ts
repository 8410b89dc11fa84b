// Global set-up of the `distributed` test project: one private PostgreSQL, one private
// S3-compatible store (OpenStack Swift) and one private Redis for the whole run; every test server
// makes a database, a bucket and a queue of its own on them (see serverHarness.ts).
import type { TestProject } from 'vitest/node';
import { startPostgres } from '@arsession/bench/services';
import { startRedis } from '@arsession/bench/services';
import { startSwift } from '@arsession/bench/services';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `postgres://…/postgres` of the run's PostgreSQL. */
    postgresAdminUrl: string;
    /** The run's S3-compatible store. */
    s3: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string };
    /** `redis://…` of the run's Redis. */
    redisUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [postgres, swift, redis] = await Promise.all([startPostgres(), startSwift(), startRedis()]);
  project.provide('redisUrl', redis.url);
  project.provide('postgresAdminUrl', postgres.url('postgres'));
  project.provide('s3', {
    endpoint: swift.endpoint,
    region: swift.region,
    accessKeyId: swift.accessKeyId,
    secretAccessKey: swift.secretAccessKey,
  });
  return async () => {
    postgres.stop();
    await Promise.all([swift.stop(), redis.stop()]);
  };
}
