import type { ArBudget, ConversionResult, DoorQuery } from '@arsession/convert';

/** One model of a session request to convert: where it is on this node, and where its USDZ must go. */
export interface ConversionJob {
  sessionId: string;
  order: number;
  /** The upload as it arrived on this node. */
  upload: { path: string; name: string; field: string };
  /** The USDZ is written here (a staged file of the session). */
  usdzPath: string;
  /** The same scene as GLB is written here. */
  glbPath: string;
  /** The parts of a model over the budget are written here (a stored zip, see `deliverParts`); nothing for one within it. */
  partsPath: string;
  /** An IFC's element records are written here (gzipped JSON); nothing for a GLB or USDZ. */
  elementsPath: string;
  /** by_scan mode 1: the door to find while the model is read. */
  detectDoor?: DoorQuery;
  timeoutMs: number;
  /** The AR budget the delivered files are brought within; `false`: none. */
  budget: ArBudget | false;
  /** Bytes of geometry the model may need (from the conversion memory bound, `geometryBytesWithin`). */
  maxGeometryBytes: number;
  /** Bytes an archive upload may unpack to: the upload limit, so a bomb is held to what a plain file could be. */
  maxUnpackedBytes: number;
}

/** Jobs of the conversion queue by state, as the engine that holds them counts them. */
export interface QueueCounts {
  waiting: number;
  active: number;
  failed: number;
  /** When the job waiting longest was queued (ms since the epoch); undefined when none waits. */
  oldestWaitingSince: number | undefined;
}

/** A conversion done: the worker's result, with the size and SHA-256 of the files written at `usdzPath` and `glbPath`. */
export type ConvertedModel = ConversionResult &
  Pick<Required<ConversionResult>, 'usdzFileBytes' | 'usdzFileSha256' | 'glbFileBytes' | 'glbFileSha256'>;

/**
 * Where conversions run: one role, an engine per folder (`threads/`: the worker threads of this
 * process, the embedded default; `bullmq/`: a BullMQ queue on Redis, served by `arsession serve
 * --role worker` processes on any number of machines). A refused model comes back as the same
 * typed error either way.
 */
export interface ConversionJobs {
  /** Which engine this is (`threads`, `bullmq`): for the start-up log and readiness. */
  readonly engine: string;
  run(job: ConversionJob): Promise<ConvertedModel>;
  /** Throws when jobs cannot be queued (readiness). */
  ping(): Promise<void>;
  /** The shared queue's jobs by state, where there is one (BullMQ); this process's own are the admission's. */
  queueCounts?(): Promise<QueueCounts>;
  close(): Promise<void>;
}
