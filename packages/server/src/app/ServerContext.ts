import { chmodSync, mkdirSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { FileDeriver } from '../derived/createFileDeriver.js';
import type { Admission } from '../admission/Admission.js';
import type { UploadGate } from '../admission/UploadGate.js';
import type { ConversionCache } from '../cache/ConversionCache.js';
import type { ServerConfig } from '../config/ServerConfig.js';
import type { ConversionJobs } from '../jobs/ConversionJobs.js';
import type { ObjectStore } from '../objects/ObjectStore.js';
import type { ServerMetrics } from '../metrics/ServerMetrics.js';
import type { SessionStore } from '../store/SessionStore.js';
import type { Throttle } from '../throttle/Throttle.js';

/** Where everything lives under `ARSESSION_DATA_DIR`. */
export interface DataPaths {
  root: string;
  database: string;
  /** Request bodies while they arrive, and files staged for a session until its commit; emptied on start. */
  uploads: string;
  /** Every session's files, named `<session id>.<file>`, moved in when the session is committed. */
  sessions: string;
  /** Source files saved to accounts, one file each (the row names its account). */
  models: string;
  /** Conversion-cache files, `<key>/<name>` (hard links of session files). */
  cache: string;
}

/** What request handlers share: plain values, made once by `createApp`. */
export interface ServerContext {
  config: ServerConfig;
  paths: DataPaths;
  /** Sessions, codes, accounts, keys and saved models (SQLite embedded, or PostgreSQL). */
  sessions: SessionStore;
  /** Session files and saved models (the data directory embedded, or an S3-compatible bucket). */
  objects: ObjectStore;
  /** Where conversions run (this process's worker threads, or a BullMQ queue served by worker processes). */
  jobs: ConversionJobs;
  /** Conversion slots: taken once a session request's body has arrived. */
  admission: Admission;
  /** Bodies arriving at once, per client. */
  uploads: UploadGate;
  conversionCache: ConversionCache;
  /** The files sessions gain on first request: AR Quick Look packages, the page's preview. */
  derivedFiles: FileDeriver;
  /** Sessions asked for an hour: per client without a key, per key. */
  sessionThrottle: { perClient: Throttle; perKey: Throttle };
  /**
   * Claims per client a minute, and failed claims per client an hour and a day (no global limit: others' failures never stop a valid
   * code).
   */
  claimThrottle: { perClient: Throttle; failedPerHour: Throttle; failedPerDay: Throttle };
  log: Logger;
  /** What this process tells Prometheus. */
  metrics: ServerMetrics;
  /** Set once SIGTERM arrived: /readyz answers 503 so a balancer stops sending. */
  draining: boolean;
}

/**
 * Where the data directory's parts are, creating nothing: for a tool that must first see whether
 * a server's data is there at all.
 *
 * @example
 * ```ts
 * existsSync(dataLayout('./data').database); // false where no server has run
 * ```
 */
export function dataLayout(root: string): DataPaths {
  return {
    root,
    database: join(root, 'arsession.sqlite'),
    uploads: join(root, 'uploads'),
    sessions: join(root, 'sessions'),
    models: join(root, 'models'),
    cache: join(root, 'cache'),
  };
}

/**
 * The data directory's layout, created if missing, and private to the user the process runs as:
 * it holds customers' building models. Its folders are made (or made again) 0700, and the process's
 * umask becomes 077, so every file created from then on is 0600 — uploads as multer writes them,
 * SQLite's database, journal and WAL, delivered files, the cache — with no mode to get right at
 * each call. (A worker thread cannot set the umask; the process it runs in has.)
 */
export function dataPaths(root: string): DataPaths {
  const paths = dataLayout(root);
  if (isMainThread) process.umask(0o077);
  for (const dir of [paths.root, paths.uploads, paths.sessions, paths.models, paths.cache]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  }
  return paths;
}
