import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Tests import workspace packages through their `source` export condition: they run against
  // the TypeScript sources, while `tsc -b` (run first by `pnpm test`) checks the types.
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: conversion tests are CPU-heavy, so one worker per core and no more.
    maxWorkers: 2,
  },
});
