import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT, UsageError, type Command } from '../command.js';
import { printJson } from '../print.js';

/**
 * `arsession keys`: the operator's API-key tool, on the server's session store (SQLite under `ARSESSION_DATA_DIR`, or
 * `ARSESSION_DATABASE_URL`).
 */
export const keysCommand: Command = {
  name: 'keys',
  summary: 'issue, revoke and list API keys (X-API-Key) in the server database',
  usage: `arsession keys create --account NAME [--json]
       arsession keys revoke KEY_OR_ID
       arsession keys list [--json]

  Works on the server's session store, also while the server runs: PostgreSQL when
  ARSESSION_DATABASE_URL is set (the cluster's), else the SQLite database under ARSESSION_DATA_DIR
  (default ./data).
  A new key is printed once and stored only as a hash: keep it; a lost key is revoked and replaced.`,
  async run(args, io) {
    const [action, ...rest] = args;
    const { values, positionals } = parseArgs({
      args: rest,
      options: { account: { type: 'string' }, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    // Loaded here, not at start-up: every other command would pay for Express and the store's driver.
    const { ConfigError, dataLayout, dataPaths, openSessionStore, readServerConfig } = await import('@arsession/server');
    let config: ReturnType<typeof readServerConfig>;
    try {
      config = readServerConfig(process.env);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      io.stderr.write(`arsession keys: ${err.message}\n`);
      return EXIT.refused;
    }
    // An embedded server's database is a file: run from another folder, a read would silently make
    // an empty one there (and the data folders) and list no keys. Only `create` may start a
    // database, and says where; anything else leaves the folder as it found it.
    const database = dataLayout(config.dataDir).database;
    const fresh = config.databaseUrl === undefined && !existsSync(database);
    if (fresh && action !== 'create') {
      io.stderr.write(
        `arsession keys: no server database at ${resolve(database)}; run where the ` +
          `server keeps its data or set ARSESSION_DATA_DIR (or ARSESSION_DATABASE_URL)\n`,
      );
      return EXIT.refused;
    }
    const store = await openSessionStore(config, dataPaths(config.dataDir), 'tool');
    if (fresh) io.stderr.write(`arsession keys: created a new server database at ${resolve(database)}\n`);
    try {
      switch (action) {
        case 'create': {
          if (values.account === undefined || positionals.length > 0) throw new UsageError('keys create takes --account NAME');
          let key: string;
          try {
            key = await store.createApiKey(values.account);
          } catch (err) {
            if (!(err instanceof RangeError)) throw err;
            io.stderr.write(`arsession keys: ${err.message}\n`);
            return EXIT.refused;
          }
          if (values.json) printJson(io, { account: values.account.trim(), key });
          else io.stdout.write(`${key}\n`);
          return EXIT.ok;
        }
        case 'revoke': {
          if (positionals.length !== 1) throw new UsageError('keys revoke takes one key or key id');
          if (!(await store.revokeApiKey(positionals[0]!))) {
            io.stderr.write('arsession keys: no live key matches\n');
            return EXIT.refused;
          }
          io.stdout.write('revoked\n');
          return EXIT.ok;
        }
        case 'list': {
          const keys = await store.listApiKeys();
          if (values.json)
            printJson(io, { keys: keys.map((k) => ({ id: k.id, account: k.account, created_at: k.createdAt, revoked_at: k.revokedAt })) });
          else
            for (const k of keys)
              io.stdout.write(`${k.id}  ${k.account}  created ${k.createdAt}${k.revokedAt ? `  revoked ${k.revokedAt}` : ''}\n`);
          return EXIT.ok;
        }
        default:
          throw new UsageError(action === undefined ? 'give an action: create, revoke or list' : `unknown action '${action}'`);
      }
    } finally {
      await store.close();
    }
  },
};
