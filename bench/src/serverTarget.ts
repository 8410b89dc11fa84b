// One server under load, in its own process so the load generator does not share its event loop:
// `node serverTarget.js ours|ours-uncached|distributed|distributed-uncached|bare|soak|federation DATA_DIR [QUEUE]` prints
// `{"url", "key", "pid"}` on stdout once listening.
import { join } from 'node:path';
import { readServerConfig, startServer } from '@arsession/server';
import express from 'express';
import multer from 'multer';

/** Per-client allowances out of the way: the bench is one client making thousands of requests. */
const UNLIMITED = { sessionsPerClientPerHour: 1e9, sessionsPerKeyPerHour: 1e9, uploadsPerClient: 1e9, claimsPerClientPerMinute: 1e9 };
import { pino } from 'pino';

const [kind, dataDir] = process.argv.slice(2);
if (!dataDir || !['ours', 'ours-uncached', 'distributed', 'distributed-uncached', 'bare', 'soak', 'federation'].includes(kind!))
  throw new Error('usage: serverTarget ours|ours-uncached|distributed|distributed-uncached|bare|soak|federation DATA_DIR [QUEUE]');

if (kind === 'federation') {
  // The embedded defaults, with room for a federation's files (as its users raise
  // ARSESSION_MAX_FILES) and no cache: every round converts every model.
  const config = readServerConfig(
    {},
    { port: 0, host: '127.0.0.1', dataDir, maxFiles: 64, cacheEntries: 0, logLevel: 'silent', ...UNLIMITED },
  );
  const server = await startServer(config, { logger: pino({ level: 'silent' }) });
  const key = await server.context.sessions.createApiKey('federation');
  console.log(JSON.stringify({ url: server.url, key, pid: process.pid }));
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
} else if (kind === 'soak') {
  // The embedded defaults (workers = cores − 1), with the queue the soak asks for.
  // A load from one address: the per-client allowances would be all the bench measures.
  const config = readServerConfig(
    {},
    { port: 0, host: '127.0.0.1', dataDir, queue: Number(process.argv[4] ?? 8), logLevel: 'silent', ...UNLIMITED },
  );
  const server = await startServer(config, { logger: pino({ level: 'silent' }) });
  const key = await server.context.sessions.createApiKey('soak');
  console.log(JSON.stringify({ url: server.url, key, pid: process.pid }));
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
} else if (kind === 'ours' || kind === 'ours-uncached' || kind === 'distributed' || kind === 'distributed-uncached') {
  // Workers = cores and a queue deep enough for the 32 clients: the bench measures throughput, not
  // refusals. The distributed kinds take PostgreSQL, S3 and Redis from the environment.
  const env = kind.startsWith('distributed') ? process.env : {};
  const config = readServerConfig(env, {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    workers: 2,
    queue: 64,
    logLevel: 'silent',
    ...UNLIMITED,
    ...(kind.endsWith('-uncached') && { cacheEntries: 0 }),
  });
  const server = await startServer(config, { logger: pino({ level: 'silent' }) });
  const key = await server.context.sessions.createApiKey('bench');
  console.log(
    JSON.stringify({ url: `${server.url}/api/vision/v1/session/by_virtual_anchor/rectangle-short-side/`, key, pid: process.pid }),
  );
} else {
  // The floor: Express + multer storing the upload to disk and answering 201, nothing else.
  const app = express();
  const upload = multer({ dest: join(dataDir, 'uploads') }).any();
  app.post('/upload', upload, (_req, res) => void res.status(201).json({ stored: true }));
  const server = app.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    console.log(JSON.stringify({ url: `http://127.0.0.1:${port}/upload`, key: '', pid: process.pid }));
  });
}
