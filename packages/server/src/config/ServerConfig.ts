import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
// The pool's entry, not the package's: every `arsession` command reads this module, and the
// package's entry loads every reader and writer (80 ms of a small conversion's 0.3 s).
import { AR_BUDGET_DEFAULTS, type ArBudget, type SharedPoolOptions } from '@arsession/convert/pool';
import { JOB_FILES_DEFAULTS } from '../jobs/bullmq/JobFiles.js';

/** Everything an operator can set; each field has an environment variable (see {@link CONFIG_ENV}). */
export interface ServerConfig {
  /** TCP port; 0 picks a free one (tests). */
  port: number;
  /**
   * Port of a listener that serves only `GET /metrics` (Prometheus), on `host`; 0 picks a free one.
   * Unset: API nodes serve `/metrics` on their public port, and worker processes serve none.
   */
  metricsPort: number | undefined;
  /**
   * With no metrics port, the bearer token `/metrics` on the public port asks for; unset, the
   * public port serves no `/metrics` at all (its figures help time an attack and tell whether a
   * file was uploaded before).
   */
  metricsToken: string | undefined;
  /** Interface to listen on. */
  host: string;
  /** Holds the SQLite database, uploads in progress, session files and saved models. */
  dataDir: string;
  /** Scheme of `deeplink` (`<scheme>://session/<id>`). */
  deeplinkScheme: string;
  /** Life of a session from its creation (s). */
  sessionTtlSeconds: number;
  /** Largest accepted model or image file (bytes), enforced while streaming. */
  maxFileBytes: number;
  /** Most model files in one request. */
  maxFiles: number;
  /** Conversions running at once (worker threads). */
  workers: number;
  /** Converted models kept for re-uploads of the same bytes (0: no cache). */
  cacheEntries: number;
  /** Most bytes of converted models kept in the cache. */
  cacheBytes: number;
  /** Requests allowed to wait for a worker beyond those running; more answer 503. */
  queue: number;
  /** Longest one model may take to read, detect and convert (s) before its worker is stopped. */
  conversionTimeoutSeconds: number;
  /**
   * Memory one conversion may use (bytes): a model whose geometry would need more is refused while it is read; with process isolation,
   * the operating system holds the whole conversion to it.
   */
  conversionMemoryBytes: number;
  /**
   * Where conversions run: `process`, a worker process each, its memory bounded whole by the
   * operating system (the default); `thread`, worker threads of the server (only their JavaScript
   * heap bounded: WASM memory and buffers are not).
   */
  conversionIsolation: 'process' | 'thread';
  /** Longest a whole request may take to arrive (s); slow senders are cut off. */
  requestTimeoutSeconds: number;
  /** Longest a request's headers may take to arrive (s; at most the request timeout): slowloris clients are cut off. */
  headersTimeoutSeconds: number;
  /** Base of the file URLs in the detail record; default: from the request's Host header. */
  publicUrl: string | undefined;
  /**
   * Which proxies in front are trusted to say who the client is (`X-Forwarded-For`) and what it
   * called (`X-Forwarded-Proto`, `X-Forwarded-Host`): `false` (none: the default, the headers are
   * ignored), a hop count (the last N proxies), or addresses and CIDR ranges (also `loopback`,
   * `linklocal`, `uniquelocal`). Behind a load balancer without it, every client is the balancer.
   */
  trustProxy: false | number | string[];
  /** Origins whose browser scripts may read the answers (CORS); `*` for any; none by default. */
  corsOrigins: string[];
  /** `<command> <input.usdz> <output.reality>` makes Reality files; without it none are offered. */
  realityCompiler: string | undefined;
  /** Session requests one client (address, or IPv6 /64) may have sending their bodies at once. */
  uploadsPerClient: number;
  /** Bytes a second a request body must keep bringing over every 10 s (0: no minimum). */
  minBodyBytesPerSecond: number;
  /** Sessions a client without a key (its address, or IPv6 /64) may ask for an hour. */
  sessionsPerClientPerHour: number;
  /** Sessions one API key may ask for an hour. */
  sessionsPerKeyPerHour: number;
  /** Saved models one account may keep (a model is kept once per content). */
  savedModelsPerAccount: number;
  /** Bytes of saved models one account may keep. */
  savedModelBytesPerAccount: number;
  /** One-time-code claims allowed per client address per minute. */
  claimsPerClientPerMinute: number;
  /** Failed one-time-code claims allowed per client (address, or IPv6 /64) per hour. */
  failedClaimsPerClientPerHour: number;
  /** Failed one-time-code claims allowed per client per day: with the code's 12 digits, what makes guessing not pay. */
  failedClaimsPerClientPerDay: number;
  /** Seconds a one-time code can be claimed after its session is made (at most the session's own lifetime). */
  codeTtlSeconds: number;
  /**
   * Largest magnitude (m) a coordinate, length or direction component sent in a form may have:
   * beyond it the number is refused by name, so nothing overflows into a pose. Georeferenced
   * models reach ~1e7 m (UTM northings); the default leaves ten times that.
   */
  maxCoordinateMetres: number;
  /** How often the expiry sweeper runs (s). */
  sweepIntervalSeconds: number;
  /** pino level. */
  logLevel: string;
  /** `postgres://…`: sessions, keys and saved models in PostgreSQL (shared by every node) instead of SQLite in the data directory. */
  databaseUrl: string | undefined;
  /** S3-compatible object store for session files and saved models (set the bucket to use one; the data directory otherwise). */
  s3Bucket: string | undefined;
  /** Its endpoint (`http://host:port`); unset: AWS's own for the region. */
  s3Endpoint: string | undefined;
  s3Region: string;
  s3AccessKeyId: string | undefined;
  s3SecretAccessKey: string | undefined;
  /** `bucket` in the path instead of the host name (MinIO, Swift, Ceph). */
  s3ForcePathStyle: boolean;
  /** Answer file downloads with a redirect to a presigned URL instead of relaying the bytes. */
  s3Redirect: boolean;
  /** `redis://…`: conversions through a BullMQ queue served by `arsession serve --role worker` processes. */
  redisUrl: string | undefined;
  /** How long a conversion job's lock lasts (s): how soon a job of a killed worker goes to another. */
  jobLockSeconds: number;
  /** Conversion jobs waiting in the cluster's queue beyond which a new request answers 503. */
  clusterQueue: number;
  /** The queue's name in Redis, which also names the claim counters: deployments sharing one Redis each take their own. */
  queueName: string;
  /** Models and outputs up to this many bytes travel to and from workers in Redis beside the job; larger ones through the object store. */
  queueInlineBytes: number;
  /** Bring delivered files within the AR budget below (false: deliver models as read). */
  arBudget: boolean;
  /** AR budget: triangles drawn at most. */
  budgetTriangles: number;
  /** AR budget: mesh prims (draw calls) at most. */
  budgetMeshPrims: number;
  /** AR budget: longest texture side (px) at most. */
  budgetTexturePx: number;
  /** AR budget: USDZ package bytes at most. */
  budgetPackageBytes: number;
}

/** The embedded defaults: `arsession serve` with no environment runs on these. */
export const SERVER_CONFIG_DEFAULTS: Readonly<ServerConfig> = {
  port: 8080,
  metricsPort: undefined,
  metricsToken: undefined,
  host: '0.0.0.0',
  dataDir: './data',
  deeplinkScheme: 'arsession',
  sessionTtlSeconds: 24 * 3600,
  maxFileBytes: 200 * 1024 * 1024,
  maxFiles: 10,
  workers: Math.max(1, availableParallelism() - 1),
  cacheEntries: 512,
  cacheBytes: 2048 * 1024 * 1024,
  queue: 8,
  conversionTimeoutSeconds: 120,
  conversionMemoryBytes: 2048 * 1024 * 1024,
  conversionIsolation: 'process',
  requestTimeoutSeconds: 600,
  headersTimeoutSeconds: 20,
  publicUrl: undefined,
  trustProxy: false,
  realityCompiler: undefined,
  corsOrigins: [],
  uploadsPerClient: 4,
  sessionsPerClientPerHour: 20,
  sessionsPerKeyPerHour: 600,
  savedModelsPerAccount: 1000,
  savedModelBytesPerAccount: 10 * 1024 * 1024 * 1024,
  minBodyBytesPerSecond: 8 * 1024,
  claimsPerClientPerMinute: 10,
  failedClaimsPerClientPerHour: 20,
  failedClaimsPerClientPerDay: 50,
  codeTtlSeconds: 3600,
  maxCoordinateMetres: 1e8,
  sweepIntervalSeconds: 60,
  logLevel: 'info',
  databaseUrl: undefined,
  s3Bucket: undefined,
  s3Endpoint: undefined,
  s3Region: 'us-east-1',
  s3AccessKeyId: undefined,
  s3SecretAccessKey: undefined,
  s3ForcePathStyle: false,
  s3Redirect: false,
  redisUrl: undefined,
  jobLockSeconds: 30,
  clusterQueue: 64,
  queueName: 'arsession-conversions',
  queueInlineBytes: JOB_FILES_DEFAULTS.inlineBytes,
  arBudget: true,
  budgetTriangles: AR_BUDGET_DEFAULTS.triangles,
  budgetMeshPrims: AR_BUDGET_DEFAULTS.meshPrims,
  budgetTexturePx: AR_BUDGET_DEFAULTS.textureSize,
  budgetPackageBytes: AR_BUDGET_DEFAULTS.packageBytes,
};

/** The largest `queueInlineBytes`: beyond it files belong in the object store, not in the queue's Redis. */
const MAX_QUEUE_INLINE_BYTES = 64 * 1024 * 1024;

/** Environment variable of each setting. */
export const CONFIG_ENV: Readonly<Record<keyof ServerConfig, string>> = {
  port: 'PORT',
  metricsPort: 'ARSESSION_METRICS_PORT',
  metricsToken: 'ARSESSION_METRICS_TOKEN',
  host: 'HOST',
  dataDir: 'ARSESSION_DATA_DIR',
  deeplinkScheme: 'ARSESSION_DEEPLINK_SCHEME',
  sessionTtlSeconds: 'ARSESSION_SESSION_TTL_S',
  maxFileBytes: 'ARSESSION_MAX_FILE_MB',
  maxFiles: 'ARSESSION_MAX_FILES',
  workers: 'ARSESSION_WORKERS',
  cacheEntries: 'ARSESSION_CACHE_ENTRIES',
  cacheBytes: 'ARSESSION_CACHE_MB',
  queue: 'ARSESSION_QUEUE',
  conversionTimeoutSeconds: 'ARSESSION_CONVERSION_TIMEOUT_S',
  conversionMemoryBytes: 'ARSESSION_CONVERSION_MEMORY_MB',
  conversionIsolation: 'ARSESSION_CONVERSION_ISOLATION',
  requestTimeoutSeconds: 'ARSESSION_REQUEST_TIMEOUT_S',
  headersTimeoutSeconds: 'ARSESSION_HEADERS_TIMEOUT_S',
  publicUrl: 'ARSESSION_PUBLIC_URL',
  trustProxy: 'ARSESSION_TRUST_PROXY',
  realityCompiler: 'ARSESSION_REALITY_COMPILER',
  corsOrigins: 'ARSESSION_CORS_ORIGINS',
  uploadsPerClient: 'ARSESSION_UPLOADS_PER_CLIENT',
  sessionsPerClientPerHour: 'ARSESSION_SESSIONS_PER_CLIENT_PER_HOUR',
  sessionsPerKeyPerHour: 'ARSESSION_SESSIONS_PER_KEY_PER_HOUR',
  savedModelsPerAccount: 'ARSESSION_SAVED_MODELS_PER_ACCOUNT',
  savedModelBytesPerAccount: 'ARSESSION_SAVED_MODELS_PER_ACCOUNT_MB',
  minBodyBytesPerSecond: 'ARSESSION_MIN_BODY_KBPS',
  claimsPerClientPerMinute: 'ARSESSION_CLAIMS_PER_CLIENT_PER_MIN',
  failedClaimsPerClientPerHour: 'ARSESSION_FAILED_CLAIMS_PER_CLIENT_PER_HOUR',
  failedClaimsPerClientPerDay: 'ARSESSION_FAILED_CLAIMS_PER_CLIENT_PER_DAY',
  codeTtlSeconds: 'ARSESSION_CODE_TTL_S',
  maxCoordinateMetres: 'ARSESSION_MAX_COORDINATE_M',
  sweepIntervalSeconds: 'ARSESSION_SWEEP_INTERVAL_S',
  logLevel: 'LOG_LEVEL',
  databaseUrl: 'ARSESSION_DATABASE_URL',
  s3Bucket: 'ARSESSION_S3_BUCKET',
  s3Endpoint: 'ARSESSION_S3_ENDPOINT',
  s3Region: 'ARSESSION_S3_REGION',
  s3AccessKeyId: 'ARSESSION_S3_ACCESS_KEY_ID',
  s3SecretAccessKey: 'ARSESSION_S3_SECRET_ACCESS_KEY',
  s3ForcePathStyle: 'ARSESSION_S3_FORCE_PATH_STYLE',
  s3Redirect: 'ARSESSION_S3_REDIRECT',
  redisUrl: 'ARSESSION_REDIS_URL',
  jobLockSeconds: 'ARSESSION_JOB_LOCK_S',
  clusterQueue: 'ARSESSION_CLUSTER_QUEUE',
  queueName: 'ARSESSION_QUEUE_NAME',
  queueInlineBytes: 'ARSESSION_QUEUE_INLINE_BYTES',
  arBudget: 'ARSESSION_AR_BUDGET',
  budgetTriangles: 'ARSESSION_BUDGET_TRIANGLES',
  budgetMeshPrims: 'ARSESSION_BUDGET_MESH_PRIMS',
  budgetTexturePx: 'ARSESSION_BUDGET_TEXTURE_PX',
  budgetPackageBytes: 'ARSESSION_BUDGET_PACKAGE_MB',
};

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

/** Names Express (proxy-addr) knows for address ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `ARSESSION_TRUST_PROXY`: `false`/`0`/empty (none), a hop count, or a comma-separated list of
 * addresses, CIDR ranges and range names. Refused by name when an entry is none of these: a typo
 * would otherwise trust nobody (or, worse, Express would throw at the first request).
 */
function trustProxy(raw: string | undefined, c: ServerConfig): void {
  if (raw === undefined || raw.trim() === '' || /^(false|0)$/i.test(raw.trim())) return;
  if (/^\d+$/.test(raw.trim())) {
    c.trustProxy = Number(raw.trim());
    return;
  }
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
        CONFIG_ENV.trustProxy,
        `${JSON.stringify(entry)} is not an address, a CIDR range (10.0.0.0/8, fd00::/8), ` +
          `loopback, linklocal or uniquelocal; expected those comma-separated, a hop count, or false`,
      );
    }
  }
  c.trustProxy = entries;
}

/**
 * Reads the configuration from environment variables over {@link SERVER_CONFIG_DEFAULTS}; a value
 * that does not parse stops the start with a {@link ConfigError} rather than falling back silently.
 *
 * @example
 * ```ts
 * const config = readServerConfig({ PORT: '9000', ARSESSION_DATA_DIR: '/var/lib/arsession' });
 * config.port; // → 9000
 * ```
 */
export function readServerConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
  overrides: Partial<ServerConfig> = {},
): ServerConfig {
  const c: ServerConfig = { ...SERVER_CONFIG_DEFAULTS };
  const int = (key: keyof ServerConfig, min: number, scale = 1): void => {
    const raw = env[CONFIG_ENV[key]];
    if (raw === undefined || raw === '') return;
    const v = Number(raw);
    if (!Number.isFinite(v) || v < min || (scale === 1 && !Number.isInteger(v))) {
      throw new ConfigError(CONFIG_ENV[key], `expected ${scale === 1 ? 'an integer' : 'a number'} ≥ ${min}, got ${JSON.stringify(raw)}`);
    }
    (c as unknown as Record<string, number>)[key] = Math.round(v * scale);
  };
  const positive = (key: keyof ServerConfig): void => {
    const raw = env[CONFIG_ENV[key]];
    if (raw === undefined || raw === '') return;
    const v = Number(raw);
    if (!Number.isFinite(v) || v <= 0) throw new ConfigError(CONFIG_ENV[key], `expected a number > 0, got ${JSON.stringify(raw)}`);
    (c as unknown as Record<string, number>)[key] = v;
  };
  const text = (key: keyof ServerConfig, pattern?: RegExp): void => {
    const raw = env[CONFIG_ENV[key]];
    if (raw === undefined || raw === '') return;
    if (pattern && !pattern.test(raw)) throw new ConfigError(CONFIG_ENV[key], `${JSON.stringify(raw)} does not match ${pattern}`);
    (c as unknown as Record<string, string>)[key] = raw;
  };
  int('port', 0);
  int('metricsPort', 0);
  // Long enough not to be guessed; printable, as it travels in a header.
  text('metricsToken', /^[\x21-\x7e]{16,}$/);
  text('host');
  text('dataDir');
  text('deeplinkScheme', /^[a-z][a-z0-9+.-]*$/);
  int('sessionTtlSeconds', 1);
  int('maxFileBytes', 0.001, 1024 * 1024);
  int('maxFiles', 1);
  int('workers', 1);
  int('cacheEntries', 0);
  int('cacheBytes', 0, 1024 * 1024);
  int('queue', 0);
  int('conversionTimeoutSeconds', 1);
  int('conversionMemoryBytes', 1, 1024 * 1024);
  text('conversionIsolation', /^(process|thread)$/);
  int('requestTimeoutSeconds', 1);
  int('headersTimeoutSeconds', 1);
  text('publicUrl', /^https?:\/\/[^\s]+$/);
  trustProxy(env[CONFIG_ENV.trustProxy], c);
  text('realityCompiler');
  corsOrigins(env[CONFIG_ENV.corsOrigins], c);
  int('uploadsPerClient', 1);
  int('sessionsPerClientPerHour', 1);
  int('sessionsPerKeyPerHour', 1);
  int('savedModelsPerAccount', 1);
  int('savedModelBytesPerAccount', 1, 1024 * 1024);
  int('minBodyBytesPerSecond', 0, 1024);
  int('claimsPerClientPerMinute', 1);
  int('failedClaimsPerClientPerHour', 1);
  int('failedClaimsPerClientPerDay', 1);
  int('codeTtlSeconds', 1);
  positive('maxCoordinateMetres');
  int('sweepIntervalSeconds', 1);
  text('logLevel', /^(fatal|error|warn|info|debug|trace|silent)$/);
  text('databaseUrl', /^postgres(ql)?:\/\/\S+$/);
  text('s3Bucket', /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/);
  text('s3Endpoint', /^https?:\/\/\S+$/);
  text('s3Region', /^[a-z0-9-]+$/);
  text('s3AccessKeyId');
  text('s3SecretAccessKey');
  const flag = (key: 's3ForcePathStyle' | 's3Redirect' | 'arBudget'): void => {
    const raw = env[CONFIG_ENV[key]];
    if (raw === undefined || raw === '') return;
    if (!/^(true|false|1|0)$/.test(raw)) throw new ConfigError(CONFIG_ENV[key], `expected true or false, got ${JSON.stringify(raw)}`);
    c[key] = raw === 'true' || raw === '1';
  };
  text('redisUrl', /^rediss?:\/\/\S+$/);
  int('jobLockSeconds', 1);
  int('clusterQueue', 1);
  text('queueName', /^[A-Za-z0-9_-]{1,100}$/);
  int('queueInlineBytes', 0);
  // Every inline copy shares Redis's memory with the queue itself (which must never be evicted).
  if (c.queueInlineBytes > MAX_QUEUE_INLINE_BYTES)
    throw new ConfigError(CONFIG_ENV.queueInlineBytes, `expected at most ${MAX_QUEUE_INLINE_BYTES} (64 MiB), got ${c.queueInlineBytes}`);
  flag('s3ForcePathStyle');
  flag('s3Redirect');
  flag('arBudget');
  int('budgetTriangles', 1);
  int('budgetMeshPrims', 1);
  int('budgetTexturePx', 1);
  int('budgetPackageBytes', 0.001, 1024 * 1024);
  const merged = { ...c, ...overrides };
  if (merged.port > 65535) throw new ConfigError(CONFIG_ENV.port, `port ${merged.port} is out of range`);
  if (merged.metricsPort !== undefined && merged.metricsPort > 65535)
    throw new ConfigError(CONFIG_ENV.metricsPort, `port ${merged.metricsPort} is out of range`);
  return { ...merged, dataDir: resolve(merged.dataDir), publicUrl: merged.publicUrl?.replace(/\/+$/, '') };
}

/**
 * The AR budget conversions are held to, from the configuration; `false` when it is off.
 *
 * @example
 * ```ts
 * arBudgetOf(readServerConfig({ ARSESSION_BUDGET_TRIANGLES: '300000' })); // → { triangles: 300000, meshPrims: 200, … }
 * ```
 */
export function arBudgetOf(config: ServerConfig): ArBudget | false {
  return config.arBudget
    ? {
        triangles: config.budgetTriangles,
        meshPrims: config.budgetMeshPrims,
        textureSize: config.budgetTexturePx,
        packageBytes: config.budgetPackageBytes,
      }
    : false;
}

/**
 * How this node's conversion pool runs its workers, from the configuration: in processes each held
 * to the conversion memory bound by the operating system, or in threads. `workerScript` (fault
 * tests) is a thread's.
 *
 * @example
 * ```ts
 * configureConversionPool(conversionPoolOf(config));
 * ```
 */
export function conversionPoolOf(config: ServerConfig, workerScript?: URL): SharedPoolOptions {
  if (workerScript) return { workerScript, isolation: 'thread' };
  return config.conversionIsolation === 'process'
    ? { isolation: 'process', memoryLimitMb: Math.ceil(config.conversionMemoryBytes / 2 ** 20) }
    : { isolation: 'thread' };
}

/** ARSESSION_CORS_ORIGINS: `*`, or origins (scheme://host[:port]) separated by commas. */
function corsOrigins(raw: string | undefined, c: ServerConfig): void {
  if (raw === undefined || raw.trim() === '') return;
  const origins = raw
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const o of origins) {
    if (o !== '*' && !/^https?:\/\/[^/\s]+$/.test(o))
      throw new ConfigError(CONFIG_ENV.corsOrigins, `${JSON.stringify(o)} is not an origin (scheme://host[:port], no path) nor *`);
  }
  c.corsOrigins = origins;
}
