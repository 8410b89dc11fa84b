import { convertModel } from '@arsession/convert';
import type { ConversionJobs } from '../ConversionJobs.js';
import { observeConversion } from '../../metrics/observeConversion.js';
import type { ServerMetrics } from '../../metrics/ServerMetrics.js';

/**
 * Conversions on this node's conversion pool (worker processes, or threads: ARSESSION_CONVERSION_ISOLATION): the embedded default.
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
      // The worker reads the upload itself: the model never sits in this process's memory.
      const result = await observeConversion(options.metrics, job.upload.name, () =>
        convertModel(new Uint8Array(0), {
          inputPath: job.upload.path,
          field: job.upload.field,
          fileName: job.upload.name,
          outputs: ['usdz', 'glb'],
          usdzPath: job.usdzPath,
          glbPath: job.glbPath,
          partsPath: job.partsPath,
          elementsPath: job.elementsPath,
          timeoutMs: job.timeoutMs,
          budget: job.budget,
          maxGeometryBytes: job.maxGeometryBytes,
          maxUnpackedBytes: job.maxUnpackedBytes,
          ...(job.detectDoor && { detectDoor: job.detectDoor }),
        }),
      );
      // The worker hashed the files as it wrote them.
      return {
        ...result,
        usdzFileBytes: result.usdzFileBytes!,
        usdzFileSha256: result.usdzFileSha256!,
        glbFileBytes: result.glbFileBytes!,
        glbFileSha256: result.glbFileSha256!,
      };
    },
    ping: async () => undefined,
    close: async () => undefined,
  };
}
