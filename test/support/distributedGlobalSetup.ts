// Global set-up of the `distributed` test project: one private PostgreSQL and one private
// S3-compatible store (OpenStack Swift) for the whole run; every test server makes a database and a
// bucket of its own on them (see serverHarness.ts).
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgresServer.js';
import { startSwift } from './swiftServer.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `postgres://…/postgres` of the run's PostgreSQL. */
    postgresAdminUrl: string;
    /** The run's S3-compatible store. */
    s3: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [postgres, swift] = await Promise.all([startPostgres(), startSwift()]);
  project.provide('postgresAdminUrl', postgres.url('postgres'));
  project.provide('s3', { endpoint: swift.endpoint, region: swift.region, accessKeyId: swift.accessKeyId, secretAccessKey: swift.secretAccessKey });
  return async () => {
    postgres.stop();
    await swift.stop();
  };
}
