// Runs bench/largeModelsOracle.check.ts alone, by hand (see that file): not part of the test suite.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['bench/largeModelsOracle.check.ts'], testTimeout: 600_000, hookTimeout: 120_000 } });
