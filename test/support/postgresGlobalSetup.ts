// Global set-up of the `postgres` test project: one private PostgreSQL for the whole run; every
// test server makes a database of its own on it (see serverHarness.ts).
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgresServer.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `postgres://…/postgres` of the run's PostgreSQL, when the project runs on it. */
    postgresAdminUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const server = await startPostgres();
  project.provide('postgresAdminUrl', server.url('postgres'));
  return () => server.stop();
}
