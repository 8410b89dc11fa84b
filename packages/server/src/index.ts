/**
 * @packageDocumentation
 * The arsession HTTP service: Express + multer wiring of `geometry` and `convert` to the
 * interface in interface-spec.md; sessions, keys and saved models in a SessionStore (SQLite embedded).
 */
export { arBudgetOf, readServerConfig, SERVER_CONFIG_DEFAULTS, CONFIG_ENV, ConfigError, type ServerConfig } from './config/ServerConfig.js';
export { echoedConfig, maskUrlSecrets } from './config/echoedConfig.js';
export { startServer, type RunningServer, type StartServerOptions } from './app/startServer.js';
export { startWorker, type RunningWorker } from './app/startWorker.js';
export type { ObjectStore } from './objects/ObjectStore.js';
export type { ConversionJobs, ConversionJob, ConvertedModel } from './jobs/ConversionJobs.js';
export { bullmqConversionJobs, type BullmqConversionJobsOptions } from './jobs/bullmq/bullmqConversionJobs.js';
export { runConversionWorker, type ConversionWorkerOptions, type RunningConversionWorker } from './jobs/bullmq/runConversionWorker.js';
export { threadConversionJobs } from './jobs/threads/threadConversionJobs.js';
export { openObjectStore } from './objects/openObjectStore.js';
export { openFilesObjectStore } from './objects/files/openFilesObjectStore.js';
export { openS3ObjectStore, type S3ObjectStoreOptions } from './objects/s3/openS3ObjectStore.js';
export { openPostgresSessionStore, type PostgresSessionStoreOptions } from './store/postgres/openPostgresSessionStore.js';
export { createApp, SESSION_ENDPOINTS } from './app/createApp.js';
export { dataLayout, dataPaths, type DataPaths, type ServerContext } from './app/ServerContext.js';
export { openSessionStore, type SessionStoreUse } from './store/openSessionStore.js';
export type { Account, ApiKeyInfo, SavedModel, SessionRecord, SessionStore } from './store/SessionStore.js';
export { openSqliteSessionStore, type SqliteSessionStore } from './store/sqlite/openSqliteSessionStore.js';
export { openDatabase, type Db } from './store/sqlite/openDatabase.js';
export { authenticateApiKey, createApiKey, listApiKeys, revokeApiKey } from './store/sqlite/apiKeys.js';
export { ApiError, type FieldError } from './errors/ApiError.js';
export { sessionFileName, sessionFilePath, sessionOfEntry } from './files/sessionFiles.js';
export { problemFromError, PROBLEM_TYPE_BASE, type Problem } from './errors/problemFromError.js';
export { openapiDocument } from './openapi/openapiDocument.js';
export type { SessionResponse } from './session/createSession.js';
