import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readServerConfig, startServer, type ServerConfig } from '@arsession/server';
import { pino } from 'pino';
import type { TestServer } from './serverHarness.js';

/** The real conversion worker behind a switch that makes chosen requests crash or hang it (see the script). */
export const FAULTY_CONVERSION_WORKER = new URL('./faultyConversionWorker.mjs', import.meta.url);

/**
 * Starts the real server, as `startTestServer` does, with its conversion pool running
 * {@link FAULTY_CONVERSION_WORKER}: requests whose model is named `fault-<kind>.…` make their
 * worker fail, all others are converted by the real worker through the real pool.
 */
export async function startFaultyWorkerServer(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'arsession-faults-'));
  const config = readServerConfig({}, { port: 0, host: '127.0.0.1', dataDir, workers: 2, queue: 8, ...overrides });
  const logger = pino({ level: process.env.ARSESSION_TEST_LOG ? 'info' : 'silent' }, pino.destination(2));
  const server = await startServer(config, { logger, conversionWorker: FAULTY_CONVERSION_WORKER });
  return {
    server,
    url: server.url,
    dataDir,
    key: await server.context.sessions.createApiKey('tester'),
    async stop(keepData = false) {
      await server.close(1000);
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
