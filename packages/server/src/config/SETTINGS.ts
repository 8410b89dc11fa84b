import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
// The pool's entry, not the package's: every `arsession` command reads this module, and the
// package's entry loads every reader and writer (80 ms of a small conversion's 0.3 s).
import { AR_BUDGET_DEFAULTS } from '@arsession/convert/pool';
import { JOB_FILES_DEFAULTS } from '../jobs/bullmq/JobFiles.js';

/** A setting in the environment that cannot be used; the server refuses to start. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** How a variable's text becomes its setting's value: throws a {@link ConfigError} naming the variable when it cannot. */
export type SettingReader<T> = (raw: string, setting: Pick<Setting<unknown>, 'env' | 'unit'>) => T;

/** One setting: its variable, its default, how it is read, and what it does (docs/SERVER.md's table is made of these). */
export interface Setting<T> {
  /** Its environment variable. */
  env: string;
  default: T;
  read: SettingReader<T>;
  /** The default as the settings table shows it, where its value alone would not say it (`cores − 1`, `from Host`). */
  shown?: string;
  /** Bytes per unit of the variable (`_MB`: 1 MiB, `_KBPS`: 1 KiB): the value is held in bytes, set and shown in the unit. */
  unit?: number;
  /** What it does, as the settings table says it (Markdown; links relative to docs/). */
  doc: string;
}

/** A number held in bytes, in its setting's unit, to a millionth of it (set in that unit, it was rounded to whole bytes). */
export function inUnitOf(setting: Pick<Setting<unknown>, 'unit'>, value: number): number {
  return setting.unit ? Math.round((value / setting.unit) * 1e6) / 1e6 : value;
}

/**
 * A setting's default as a person reads it, in its variable's unit: `` `512` `` for 512 MiB held
 * in bytes, `unset`, or what its entry says instead (`cores − 1`).
 *
 * @example
 * ```ts
 * shownDefault(SETTINGS.maxFileBytes); // → '`512`'
 * ```
 */
export function shownDefault(setting: Setting<unknown>): string {
  if (setting.shown !== undefined) return setting.shown;
  const value = setting.default;
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return 'unset';
  return `\`${typeof value === 'number' ? inUnitOf(setting, value) : String(value)}\``;
}

const KB = 1024;
const MB = 1024 * 1024;

/** A whole number from `min` (to `max`); in the setting's unit when it has one, then any number, held as whole bytes. */
function integer({ min, max }: { min: number; max?: number }): SettingReader<number> {
  return (raw, { env, unit }) => {
    const v = Number(raw);
    if (!Number.isFinite(v) || v < min || (unit === undefined && !Number.isInteger(v)))
      throw new ConfigError(env, `expected ${unit === undefined ? 'an integer' : 'a number'} ≥ ${min}, got ${JSON.stringify(raw)}`);
    const held = Math.round(v * (unit ?? 1));
    if (max !== undefined && held > max) throw new ConfigError(env, `expected at most ${max}, got ${held}`);
    return held;
  };
}

/** {@link integer}, for a setting that is unset by default. */
const optionalInteger = (o: { min: number; max?: number }): SettingReader<number | undefined> => integer(o);

/** Any finite number above 0. */
function positive(): SettingReader<number> {
  return (raw, { env }) => {
    const v = Number(raw);
    if (!Number.isFinite(v) || v <= 0) throw new ConfigError(env, `expected a number > 0, got ${JSON.stringify(raw)}`);
    return v;
  };
}

/** Text, matching `pattern` when there is one. */
function text(pattern?: RegExp): SettingReader<string> {
  return (raw, { env }) => {
    if (pattern && !pattern.test(raw)) throw new ConfigError(env, `${JSON.stringify(raw)} does not match ${pattern}`);
    return raw;
  };
}

/** {@link text}, for a setting that is unset by default. */
const optionalText = (pattern?: RegExp): SettingReader<string | undefined> => text(pattern);

/** One of `options`. */
function oneOf<T extends string>(options: readonly T[]): SettingReader<T> {
  return (raw, { env }) => {
    if (!(options as readonly string[]).includes(raw))
      throw new ConfigError(env, `${JSON.stringify(raw)} does not match /^(${options.join('|')})$/`);
    return raw as T;
  };
}

/** `true`/`1` or `false`/`0`. */
function flag(): SettingReader<boolean> {
  return (raw, { env }) => {
    if (!/^(true|false|1|0)$/.test(raw)) throw new ConfigError(env, `expected true or false, got ${JSON.stringify(raw)}`);
    return raw === 'true' || raw === '1';
  };
}

/** Names Express (proxy-addr) knows for address ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `ARSESSION_TRUST_PROXY`: `false`/`0`/empty (none), a hop count, or a comma-separated list of
 * addresses, CIDR ranges and range names. Refused by name when an entry is none of these: a typo
 * would otherwise trust nobody (or, worse, Express would throw at the first request).
 */
function trustProxy(raw: string, { env }: { env: string }): false | number | string[] {
  if (raw.trim() === '' || /^(false|0)$/i.test(raw.trim())) return false;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  for (const entry of entries) {
    if (PROXY_RANGE_NAMES.has(entry)) continue;
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address ?? '');
    const validPrefix = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (family === 0 || !validPrefix || rest.length > 0) {
      throw new ConfigError(
        env,
        `${JSON.stringify(entry)} is not an address, a CIDR range (10.0.0.0/8, fd00::/8), ` +
          `loopback, linklocal or uniquelocal; expected those comma-separated, a hop count, or false`,
      );
    }
  }
  return entries;
}

/** `ARSESSION_CORS_ORIGINS`: `*`, or origins (scheme://host[:port]) separated by commas. */
function corsOrigins(raw: string, { env }: { env: string }): string[] {
  const origins = raw
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const o of origins) {
    if (o !== '*' && !/^https?:\/\/[^/\s]+$/.test(o))
      throw new ConfigError(env, `${JSON.stringify(o)} is not an origin (scheme://host[:port], no path) nor *`);
  }
  return origins;
}

/** `ARSESSION_APPLE_APP_IDS`: app identifiers (`<Team ID>.<bundle id>`) separated by commas. */
function appleAppIds(raw: string, { env }: { env: string }): string[] {
  const ids = raw
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  for (const id of ids) {
    if (!/^[A-Z0-9]{10}\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/.test(id))
      throw new ConfigError(env, `${JSON.stringify(id)} is not an app identifier (<Team ID>.<bundle id>, e.g. ABCDE12345.com.example.app)`);
  }
  return ids;
}

/**
 * Every setting of the server, declared once: the config type, its defaults, the variables, their
 * parsing, the start-up log's units and docs/SERVER.md's settings table all come from here (a test
 * holds the table to it).
 */
export const SETTINGS = {
  port: {
    env: 'PORT',
    default: 8080,
    read: integer({ min: 0, max: 65535 }),
    doc: 'the port to listen on; `0` picks a free one',
  },
  host: {
    env: 'HOST',
    default: '0.0.0.0',
    read: text(),
    doc: 'the interface to listen on',
  },
  metricsPort: {
    env: 'ARSESSION_METRICS_PORT',
    default: undefined,
    read: optionalInteger({ min: 0, max: 65535 }),
    doc: 'a port (on `HOST`) that serves only `GET /metrics` for Prometheus (see [Operating ' + 'arsession](OPERATING.md#metrics))',
  },
  metricsToken: {
    env: 'ARSESSION_METRICS_TOKEN',
    default: undefined,
    read: optionalText(/^[\x21-\x7e]{16,}$/),
    doc:
      'with no metrics port, `GET /metrics` on the public port for a scrape that sends `Authorization: ' +
      'Bearer <token>` (16 printable characters or more); with neither set, no `/metrics` is served',
  },
  dataDir: {
    env: 'ARSESSION_DATA_DIR',
    default: './data',
    read: text(),
    doc: 'SQLite database (`arsession.sqlite`, WAL), uploads in progress, session files, saved models',
  },
  deeplinkScheme: {
    env: 'ARSESSION_DEEPLINK_SCHEME',
    default: 'arsession',
    read: text(/^[a-z][a-z0-9+.-]*$/),
    doc: '`deeplink` = `<scheme>://session/<id>`',
  },
  sessionTtlSeconds: {
    env: 'ARSESSION_SESSION_TTL_S',
    default: 24 * 3600,
    read: integer({ min: 1 }),
    doc: 'session lifetime; expired sessions answer 410 and the sweeper deletes their files',
  },
  maxFileBytes: {
    env: 'ARSESSION_MAX_FILE_MB',
    default: 512 * MB,
    unit: MB,
    read: integer({ min: 0.001 }),
    doc: 'largest model or image file, enforced while streaming (413): construction models run 100–500 MB',
  },
  maxFiles: {
    env: 'ARSESSION_MAX_FILES',
    default: 10,
    read: integer({ min: 1 }),
    doc: 'most model files per request (413)',
  },
  workers: {
    env: 'ARSESSION_WORKERS',
    default: Math.max(1, availableParallelism() - 1),
    shown: 'cores − 1',
    read: integer({ min: 1 }),
    doc: 'conversions at once (worker processes, or threads)',
  },
  cacheEntries: {
    env: 'ARSESSION_CACHE_ENTRIES',
    default: 512,
    read: integer({ min: 0 }),
    doc:
      'converted models kept by the SHA-256 of their bytes: the same model uploaded again is linked, not ' +
      'converted again (door detection still runs per request); `0` turns it off',
  },
  cacheBytes: {
    env: 'ARSESSION_CACHE_MB',
    default: 2048 * MB,
    unit: MB,
    read: integer({ min: 0 }),
    doc: 'most megabytes of converted models the cache keeps (least recently used go first; sessions keep ' + 'their files)',
  },
  queue: {
    env: 'ARSESSION_QUEUE',
    default: 8,
    read: integer({ min: 0 }),
    doc: 'session requests allowed beyond those converting; more get 503 + `Retry-After`',
  },
  conversionTimeoutSeconds: {
    env: 'ARSESSION_CONVERSION_TIMEOUT_S',
    default: 120,
    read: integer({ min: 1 }),
    doc: 'longest one model may take; its worker is then stopped (422)',
  },
  conversionMemoryBytes: {
    env: 'ARSESSION_CONVERSION_MEMORY_MB',
    default: 2048 * MB,
    unit: MB,
    read: integer({ min: 1 }),
    doc:
      'memory one conversion may use, all of it: each conversion runs in a worker process of its own that ' +
      'the operating system holds to this above what Node itself maps at start (RLIMIT_DATA: JavaScript and ' +
      'WASM heaps, buffers, inflated entries; web-ifc alone takes some 250 MB of it, so an IFC needs 300 MB ' +
      'or more); a model whose geometry would need more is refused while web-ifc still streams it, and one ' +
      'that needs more anyway ends its own process — both 422 `model_too_large`, naming the figure; the ' +
      'request costs that, nothing else, and the next one is served',
  },
  conversionIsolation: {
    env: 'ARSESSION_CONVERSION_ISOLATION',
    default: 'process' as const,
    read: oneOf(['process', 'thread'] as const),
    doc:
      '`process`: conversions in worker processes, bounded as above; `thread`: in worker threads of the ' +
      'server (a little less start-up, but only their JavaScript heap is bounded)',
  },
  requestTimeoutSeconds: {
    env: 'ARSESSION_REQUEST_TIMEOUT_S',
    default: 600,
    read: integer({ min: 1 }),
    doc: 'longest a whole request (body included) may take to arrive; then 408',
  },
  headersTimeoutSeconds: {
    env: 'ARSESSION_HEADERS_TIMEOUT_S',
    default: 20,
    read: integer({ min: 1 }),
    doc: "longest a request's headers may take to arrive (at most the request timeout); then 408",
  },
  publicUrl: {
    env: 'ARSESSION_PUBLIC_URL',
    default: undefined,
    shown: 'from `Host`',
    read: optionalText(/^https?:\/\/[^\s]+$/),
    doc: 'base of the URLs in the detail record (set it behind a proxy)',
  },
  trustProxy: {
    env: 'ARSESSION_TRUST_PROXY',
    default: false as const,
    read: trustProxy,
    doc:
      'proxies trusted to say who the client is and what it called (`X-Forwarded-For`, `-Proto`, `-Host`): ' +
      'a hop count (`1`: the balancer in front), or addresses and CIDR ranges, comma-separated ' +
      '(`10.0.0.0/8,fd00::/8`, `loopback`); off, the headers are ignored and every client behind a balancer ' +
      'is the balancer to the per-address limits',
  },
  corsOrigins: {
    env: 'ARSESSION_CORS_ORIGINS',
    default: [] as string[],
    read: corsOrigins,
    doc:
      'origins (`https://app.example.com`, comma-separated) whose browser scripts may read the answers, or ' +
      '`*` for any; preflights are answered 204 (keys travel in `X-API-Key`, never cookies)',
  },
  appleAppIds: {
    env: 'ARSESSION_APPLE_APP_IDS',
    default: [] as string[],
    read: appleAppIds,
    doc:
      'apps (`<Team ID>.<bundle id>`, comma-separated) that open session pages (`https://<host>/s/<id>`) as ' +
      'universal links: `/.well-known/apple-app-site-association` names them (see [IOS.md](IOS.md#1-the-flow)); unset, ' +
      'none is served (404) and only the custom-scheme deep link opens an app',
  },
  realityCompiler: {
    env: 'ARSESSION_REALITY_COMPILER',
    default: undefined,
    read: optionalText(),
    doc:
      '`<command> <in.usdz> <out.reality>`, run per model. Apple publishes no Reality writer, so a macOS ' +
      'build host provides one: a small Swift program there that loads the USDZ with RealityKit ' +
      '(`Entity(contentsOf:)`) and saves it with `Entity.write(to:)` (macOS 15 and later), reached from the ' +
      'server by `ssh`. Unset: `reality_url` is `null` with `reality_status` `not_configured` and ' +
      '`preferred_format` `usdz`; a compiler that fails gives `failed` and the warning `reality_failed`',
  },
  uploadsPerClient: {
    env: 'ARSESSION_UPLOADS_PER_CLIENT',
    default: 4,
    read: integer({ min: 1 }),
    doc:
      'session requests one client (its address, or its IPv6 /64) may have sending their bodies at once; ' +
      'more are 429 `too_many_uploads`. A request takes a conversion slot only once its body has arrived, ' +
      'so clients that send slowly hold only their own places',
  },
  sessionsPerClientPerHour: {
    env: 'ARSESSION_SESSIONS_PER_CLIENT_PER_HOUR',
    default: 20,
    read: integer({ min: 1 }),
    doc:
      'sessions a client without a key (its address, or its IPv6 /64) may make an hour; more are 429 ' +
      '`too_many_sessions` with `Retry-After`, before any body is read',
  },
  sessionsPerKeyPerHour: {
    env: 'ARSESSION_SESSIONS_PER_KEY_PER_HOUR',
    default: 600,
    read: integer({ min: 1 }),
    doc: 'sessions one API key may make an hour',
  },
  savedModelsPerAccount: {
    env: 'ARSESSION_SAVED_MODELS_PER_ACCOUNT',
    default: 1000,
    read: integer({ min: 1 }),
    doc:
      'saved models an account may keep (once per content); past it, a keyed request that would save more ' +
      'is 429 `saved_models_count_quota` until some are deleted',
  },
  savedModelBytesPerAccount: {
    env: 'ARSESSION_SAVED_MODELS_PER_ACCOUNT_MB',
    default: 10 * 1024 * MB,
    unit: MB,
    read: integer({ min: 1 }),
    doc: 'megabytes of saved models an account may keep; past it, 413 `saved_models_bytes_quota`',
  },
  minBodyBytesPerSecond: {
    env: 'ARSESSION_MIN_BODY_KBPS',
    default: 8 * KB,
    unit: KB,
    read: integer({ min: 0 }),
    doc:
      'a request body must bring at least this many KB a second over every 10 s, or it is cut off with 408 ' +
      '`body_too_slow` (a trickle does not reset it, as it would an idle timeout); `0` turns it off',
  },
  claimsPerClientPerMinute: {
    env: 'ARSESSION_CLAIMS_PER_CLIENT_PER_MIN',
    default: 10,
    read: integer({ min: 1 }),
    doc: 'claim attempts per client (its address, or its IPv6 /64) a minute',
  },
  failedClaimsPerClientPerHour: {
    env: 'ARSESSION_FAILED_CLAIMS_PER_CLIENT_PER_HOUR',
    default: 20,
    read: integer({ min: 1 }),
    doc: 'failed claims per client an hour; then 429 for that client alone',
  },
  failedClaimsPerClientPerDay: {
    env: 'ARSESSION_FAILED_CLAIMS_PER_CLIENT_PER_DAY',
    default: 50,
    read: integer({ min: 1 }),
    doc:
      'failed claims per client a day: with 12-digit codes, 1,000 addresses guessing for a day against ' +
      '100,000 live codes claim 0.005 sessions in expectation (`docs/SECURITY.md`)',
  },
  codeTtlSeconds: {
    env: 'ARSESSION_CODE_TTL_S',
    default: 3600,
    read: integer({ min: 1 }),
    doc:
      "how long a one-time code can be claimed after its session is made (at most the session's lifetime; " +
      'the session and its deep link live on)',
  },
  maxCoordinateMetres: {
    env: 'ARSESSION_MAX_COORDINATE_M',
    default: 1e8,
    shown: '`1e8`',
    read: positive(),
    doc:
      'largest magnitude a coordinate, length or direction component sent in a form may have (metres); ' +
      'beyond it `400 out_of_range` names the field and the limit. Georeferenced models reach ~1e7 m',
  },
  sweepIntervalSeconds: {
    env: 'ARSESSION_SWEEP_INTERVAL_S',
    default: 60,
    read: integer({ min: 1 }),
    doc: 'expiry sweeper period',
  },
  logLevel: {
    env: 'LOG_LEVEL',
    default: 'info' as const,
    read: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    doc: 'pino level; logs are JSON lines with a `req_id` (also the `X-Request-Id` response header)',
  },
  databaseUrl: {
    env: 'ARSESSION_DATABASE_URL',
    default: undefined,
    read: optionalText(/^postgres(ql)?:\/\/\S+$/),
    doc:
      '`postgres://user:password@host:5432/db`: sessions, one-time codes, accounts, keys and saved models ' +
      'in PostgreSQL (migrated on start; the password is echoed as `***`) instead of SQLite in the data ' +
      'directory',
  },
  s3Bucket: {
    env: 'ARSESSION_S3_BUCKET',
    default: undefined,
    read: optionalText(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/),
    doc:
      'session files and saved models in this bucket of an S3-compatible store (created when missing) ' + 'instead of the data directory',
  },
  s3Endpoint: {
    env: 'ARSESSION_S3_ENDPOINT',
    default: undefined,
    shown: 'AWS',
    read: optionalText(/^https?:\/\/\S+$/),
    doc: "`http(s)://host:port` of the store (MinIO, Ceph, OpenStack Swift's s3api, …)",
  },
  s3Region: {
    env: 'ARSESSION_S3_REGION',
    default: 'us-east-1',
    read: text(/^[a-z0-9-]+$/),
    doc: 'its region',
  },
  s3AccessKeyId: {
    env: 'ARSESSION_S3_ACCESS_KEY_ID',
    default: undefined,
    shown: "the SDK's own chain",
    read: optionalText(),
    doc: "the store's access key id",
  },
  s3SecretAccessKey: {
    env: 'ARSESSION_S3_SECRET_ACCESS_KEY',
    default: undefined,
    shown: "the SDK's own chain",
    read: optionalText(),
    doc: 'its secret key (echoed as `***`)',
  },
  s3ForcePathStyle: {
    env: 'ARSESSION_S3_FORCE_PATH_STYLE',
    default: false,
    read: flag(),
    doc: '`true`: the bucket in the path, not the host name (MinIO, Swift, Ceph)',
  },
  s3Redirect: {
    env: 'ARSESSION_S3_REDIRECT',
    default: false,
    read: flag(),
    doc:
      '`true`: file downloads answer 307 to a presigned URL (valid until the session expires, an hour at ' +
      'most) instead of relaying the bytes',
  },
  redisUrl: {
    env: 'ARSESSION_REDIS_URL',
    default: undefined,
    read: optionalText(/^rediss?:\/\/\S+$/),
    doc:
      '`redis://host:6379`: conversions go through a BullMQ queue served by `arsession serve --role worker` ' +
      'processes (see [Running on more than one machine](SCALING.md#running-on-more-than-one-machine)); ' +
      'claims are throttled cluster-wide there',
  },
  queueName: {
    env: 'ARSESSION_QUEUE_NAME',
    default: 'arsession-conversions',
    read: text(/^[A-Za-z0-9_-]{1,100}$/),
    doc: "the queue's name, which also names the deployment's claim counters: deployments sharing one Redis " + 'each take their own',
  },
  jobLockSeconds: {
    env: 'ARSESSION_JOB_LOCK_S',
    default: 30,
    read: integer({ min: 1 }),
    doc: "how long a job's lock lasts without renewal: how soon the job of a killed worker goes to another",
  },
  clusterQueue: {
    env: 'ARSESSION_CLUSTER_QUEUE',
    default: 64,
    read: integer({ min: 1 }),
    doc: 'jobs waiting cluster-wide beyond which a session request answers 503 + `Retry-After`',
  },
  queueInlineBytes: {
    env: 'ARSESSION_QUEUE_INLINE_BYTES',
    default: JOB_FILES_DEFAULTS.inlineBytes,
    read: integer({ min: 0, max: 64 * MB }),
    doc:
      'models and outputs up to this size travel to and from workers in Redis beside the job (expiring with ' +
      'it), larger ones through the object store; Redis then holds about (cluster queue + running jobs) × 3 ' +
      '× this at most, plus outputs of jobs whose requests gave up (until they expire): size its ' +
      '`maxmemory` for it, since the queue needs `noeviction`. At most 64 MiB; `0`: always the object store',
  },
  arBudget: {
    env: 'ARSESSION_AR_BUDGET',
    default: true,
    read: flag(),
    doc: '`false`: deliver models as read (see [The AR budget](#the-ar-budget))',
  },
  budgetTriangles: {
    env: 'ARSESSION_BUDGET_TRIANGLES',
    default: AR_BUDGET_DEFAULTS.triangles,
    read: integer({ min: 1 }),
    doc: 'AR budget: triangles drawn at most (newer devices take a few hundred thousand)',
  },
  budgetMeshPrims: {
    env: 'ARSESSION_BUDGET_MESH_PRIMS',
    default: AR_BUDGET_DEFAULTS.meshPrims,
    read: integer({ min: 1 }),
    doc: 'AR budget: mesh prims (draw calls) at most',
  },
  budgetTexturePx: {
    env: 'ARSESSION_BUDGET_TEXTURE_PX',
    default: AR_BUDGET_DEFAULTS.textureSize,
    read: integer({ min: 1 }),
    doc: 'AR budget: longest texture side at most (1024 is lighter still)',
  },
  budgetPackageBytes: {
    env: 'ARSESSION_BUDGET_PACKAGE_MB',
    default: AR_BUDGET_DEFAULTS.packageBytes,
    unit: MB,
    read: integer({ min: 0.001 }),
    doc: 'AR budget: USDZ package size at most',
  },
} satisfies Record<string, Setting<unknown>>;
