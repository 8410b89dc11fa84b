import { defineConfig } from 'vitest/config';

/** The server suites that run twice: embedded (SQLite, the data directory) and distributed (PostgreSQL, an S3-compatible store). */
const SERVER_SUITES = [
  'test/serverSessions.test.ts',
  'test/serverErrors.test.ts',
  'test/serverOpenapi.test.ts',
  'test/serverModelInputs.test.ts',
  'test/serverRestart.test.ts',
  'test/serverConversionCache.test.ts',
  'test/hardeningForm.test.ts',
  'test/hardeningAbuse.test.ts',
  'test/hardeningFaults.test.ts',
  'test/serverQuickLook.test.ts',
  'test/sessionPage.test.ts',
  'test/arsessionClient.test.ts',
  'test/savedModels.test.ts',
  'test/serverModelParts.test.ts',
  'test/serverElementRecords.test.ts',
  'test/serverStoreys.test.ts',
];

export default defineConfig({
  // Tests import workspace packages through their `source` export condition: they run against
  // the TypeScript sources, while `tsc -b` (run first by `pnpm test`) checks the types.
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Every answer a test fetches from a server is checked against the served OpenAPI document.
    setupFiles: ['test/support/responseContract.ts'],
    // Two cores: conversion tests are CPU-heavy, so one worker per core and no more.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'embedded', include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'] } },
      // The same server suites against a private PostgreSQL and OpenStack Swift (the harness sets
      // ARSESSION_DATABASE_URL and ARSESSION_S3_* for every test server).
      {
        extends: true,
        test: {
          name: 'distributed',
          include: SERVER_SUITES,
          globalSetup: ['test/support/distributedGlobalSetup.ts'],
          env: { ARSESSION_TEST_MODE: 'distributed' },
        },
      },
    ],
  },
});
