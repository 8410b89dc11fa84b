import { parseArgs } from 'node:util';
import { EXIT, UsageError, type Command } from '../command.js';

/**
 * The configuration module alone, loaded when serve runs or shows its usage: the server itself
 * (Express, SQLite, the readers) loads only when it runs, and other commands load neither.
 */
const serverConfig = () => import('@arsession/server/config');

/** `arsession serve`: the HTTP service on the configuration in the environment. */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the HTTP service or a conversion worker (configured by environment variables; see docs/SERVER.md)',
  usage: `arsession serve [--role all|api|worker]

  --role all (default): the HTTP service; with ARSESSION_REDIS_URL it also takes conversion jobs.
  --role api: the HTTP service only; conversions go to the queue (ARSESSION_REDIS_URL).
  --role worker: no HTTP; takes conversion jobs from the queue, ARSESSION_WORKERS at a time.

  Traces: set OTEL_EXPORTER_OTLP_ENDPOINT (and the other standard OTEL_* variables) to send
  OpenTelemetry traces over OTLP; without them none are made.

  Logs are JSON lines on stdout. SIGTERM or SIGINT stops accepting, lets requests finish, then exits.`,
  async usageMore() {
    const { SETTINGS, shownDefault } = await serverConfig();
    return [
      '  Settings come from the environment (defaults in brackets):',
      ...Object.values(SETTINGS).map((s) => `    ${s.env.padEnd(36)} [${shownDefault(s).replace(/`/g, '')}]`),
    ].join('\n');
  },
  async run(args, io) {
    const { values } = parseArgs({ args, options: { role: { type: 'string' } }, strict: true });
    const role = values.role ?? 'all';
    if (role !== 'all' && role !== 'api' && role !== 'worker')
      throw new UsageError(`--role takes all, api or worker, not ${JSON.stringify(role)}`);
    const { ConfigError, readServerConfig, CONFIG_ENV } = await serverConfig();
    let config: ReturnType<typeof readServerConfig>;
    try {
      config = readServerConfig(process.env);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      io.stderr.write(`arsession serve: ${err.message}\n`);
      return EXIT.refused;
    }
    // A split role only works with what every node shares: a queue, a bucket, and for API nodes a database.
    const missing =
      role === 'all'
        ? []
        : [
            ...(config.redisUrl ? [] : [`${CONFIG_ENV.redisUrl} (the queue, redis://…)`]),
            ...(config.s3Bucket ? [] : [`${CONFIG_ENV.s3Bucket} (the shared object store, with the other ARSESSION_S3_* settings)`]),
            ...(role === 'api' && !config.databaseUrl ? [`${CONFIG_ENV.databaseUrl} (the shared session store, postgres://…)`] : []),
          ];
    if (missing.length) {
      io.stderr.write(`arsession serve: --role ${role} runs beside other nodes and needs what they share; set ${missing.join(' and ')}\n`);
      return EXIT.refused;
    }
    const { startServer, startWorker } = await import('@arsession/server');
    const server = role === 'worker' ? await startWorker(config) : await startServer(config, { role });
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGTERM', stop).off('SIGINT', stop);
        void server.close().then(resolve);
      };
      process.on('SIGTERM', stop).on('SIGINT', stop);
    });
    return EXIT.ok;
  },
};
