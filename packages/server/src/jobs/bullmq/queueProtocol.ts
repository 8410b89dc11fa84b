import type { ArBudget, ConversionResult, DoorQuery, SerializedConvertError } from '@arsession/convert';
import type { JobFile } from './JobFiles.js';

/**
 * How long an API node waits for a job, and so how long the job's files are kept: long enough
 * for the conversion, a stalled worker's lock to lapse, and a second try.
 *
 * @example
 * ```ts
 * jobWaitMs(120_000); // → 360000
 * ```
 */
export function jobWaitMs(timeoutMs: number): number {
  return timeoutMs * 2 + 120_000;
}

/** What a job carries: where the model is (Redis or the object store), the keys its outputs go under, what to do. */
export interface QueuedConversion {
  model: JobFile;
  usdzKey: string;
  glbKey: string;
  /** Where the parts archive goes, when the model is over the budget. */
  partsKey: string;
  /** Where an IFC's element records go. */
  elementsKey: string;
  fileName: string;
  field: string;
  detectDoor?: DoorQuery;
  timeoutMs: number;
  /** The API node's AR budget (the worker holds to the one the session was asked under); `false`: none. */
  budget: ArBudget | false;
  /** Bytes of geometry the model may need, from the API node's conversion memory bound. */
  maxGeometryBytes: number;
  /** Bytes an archive upload may unpack to (the API node's upload limit). */
  maxUnpackedBytes: number;
  /** The W3C trace context of the session that queued it (`traceparent`, `tracestate`), when traces are on. */
  trace?: Record<string, string>;
}

/** What a job returns: the conversion and where its USDZ and GLB were put, or why the model was refused. */
export type QueuedConversionResult =
  | { ok: true; result: Omit<ConversionResult, 'usdz' | 'glb'>; usdz: JobFile; glb: JobFile; parts?: JobFile; elements?: JobFile }
  | { ok: false; error: SerializedConvertError };
