import type { DataPaths } from '../app/ServerContext.js';
import type { ServerConfig } from '../config/ServerConfig.js';
import { openFilesObjectStore } from './files/openFilesObjectStore.js';
import type { ObjectStore } from './ObjectStore.js';
import { openS3ObjectStore } from './s3/openS3ObjectStore.js';

/**
 * The object store the configuration names: an S3-compatible bucket when `ARSESSION_S3_BUCKET` is
 * set, else the data directory (the embedded default).
 *
 * @example
 * ```ts
 * const objects = await openObjectStore(config, dataPaths(config.dataDir));
 * ```
 */
export async function openObjectStore(config: ServerConfig, paths: DataPaths): Promise<ObjectStore> {
  if (!config.s3Bucket) return openFilesObjectStore(paths);
  return openS3ObjectStore({
    bucket: config.s3Bucket,
    endpoint: config.s3Endpoint,
    region: config.s3Region,
    accessKeyId: config.s3AccessKeyId,
    secretAccessKey: config.s3SecretAccessKey,
    forcePathStyle: config.s3ForcePathStyle,
    redirect: config.s3Redirect,
  });
}
