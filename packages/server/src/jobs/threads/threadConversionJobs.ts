import { readFile } from 'node:fs/promises';
import { convertModel } from '@arsession/convert';
import type { ConversionJobs } from '../ConversionJobs.js';
import { observeConversion } from '../../metrics/observeConversion.js';
import type { ServerMetrics } from '../../metrics/ServerMetrics.js';

/**
 * Conversions on this process's worker threads (the shared conversion pool): the embedded default.
 *
 * @example
 * ```ts
 * const jobs = threadConversionJobs({ metrics });
 * const result = await jobs.run({ sessionId, order: 0, upload, usdzPath, timeoutMs: 120_000 });
 * ```
 */
export function threadConversionJobs(options: { metrics?: ServerMetrics } = {}): ConversionJobs {
  return {
    engine: 'threads',
    async run(job) {
      const bytes = new Uint8Array(await readFile(job.upload.path));
      const result = await observeConversion(options.metrics, job.upload.name, () => convertModel(bytes, {
        field: job.upload.field, fileName: job.upload.name, outputs: ['usdz', 'glb'], usdzPath: job.usdzPath, glbPath: job.glbPath, timeoutMs: job.timeoutMs, budget: job.budget, maxGeometryBytes: job.maxGeometryBytes, maxUnpackedBytes: job.maxUnpackedBytes,
        ...(job.detectDoor && { detectDoor: job.detectDoor }),
      }));
      // The worker hashed the files as it wrote them.
      return { ...result, usdzFileBytes: result.usdzFileBytes!, usdzFileSha256: result.usdzFileSha256!, glbFileBytes: result.glbFileBytes!, glbFileSha256: result.glbFileSha256! };
    },
    ping: async () => undefined,
    close: async () => undefined,
  };
}
