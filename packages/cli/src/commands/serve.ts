import { parseArgs } from 'node:util';
// The configuration module alone: the server itself (Express, SQLite, the readers) loads only when it runs.
import { ConfigError, readServerConfig, SERVER_CONFIG_DEFAULTS, CONFIG_ENV } from '@arsession/server/config';
import { EXIT, type Command } from '../command.js';

/** `arsession serve`: the HTTP service on the configuration in the environment. */
export const serveCommand: Command = {
  name: 'serve',
  summary: 'run the HTTP service (configured by environment variables; see the README)',
  usage: `arsession serve

  Settings come from the environment (defaults in brackets):
${Object.entries(CONFIG_ENV).map(([k, env]) => `    ${env.padEnd(36)} [${String(SERVER_CONFIG_DEFAULTS[k as keyof typeof SERVER_CONFIG_DEFAULTS] ?? 'unset')}]`).join('\n')}

  Logs are JSON lines on stdout. SIGTERM or SIGINT stops accepting, lets requests finish, then exits.`,
  async run(args, io) {
    parseArgs({ args, options: {}, strict: true });
    let config;
    try {
      config = readServerConfig(process.env);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      io.stderr.write(`arsession serve: ${err.message}\n`);
      return EXIT.refused;
    }
    const { startServer } = await import('@arsession/server');
    const server = await startServer(config);
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
